// A World's contacts of the last step from Python (ContactResult, engine/world/step_results.h),
// as NumPy arrays with one row per contact.
#pragma once

#include <pybind11/pybind11.h>

#include "engine/world/world.h"

namespace contactlab {

// Adds contacts to class World.
void BindContacts(pybind11::class_<World>* world);

}  // namespace contactlab
