// A World's actuation from Python: the targets of its PD-controlled joints (docs/contact-model.md
// §3), as teleoperation sets them.
#pragma once

#include <pybind11/pybind11.h>

#include "engine/world/world.h"

namespace contactlab {

// Adds set_pd_target and pd_joints to class World.
void BindActuation(pybind11::class_<World>* world);

}  // namespace contactlab
