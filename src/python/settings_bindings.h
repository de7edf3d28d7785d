// A World's live settings from Python (docs/architecture.md §2): the contact model, δt, the
// integrator and the overrides of every pair's contact properties, changed as the command
// line's options and the GUI's sliders change them (ContactOverrides).
#pragma once

#include <pybind11/pybind11.h>

#include "engine/world/world.h"

namespace contactlab {

// Adds set_overrides and settings to class World.
void BindSettings(pybind11::class_<World>* world);

}  // namespace contactlab
