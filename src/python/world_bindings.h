// The Python class contactlab.World (README.md, "Python"): a World loaded from a scene name or
// file as the command line loads it, stepped, its state read and set. The other bound concepts
// add their methods to the class this returns, each from a file pair of its own.
#pragma once

#include <pybind11/pybind11.h>

#include "engine/world/world.h"

namespace contactlab {

// Adds class World to the module: construction, stepping, the state, time and reset.
pybind11::class_<World> BindWorld(pybind11::module_* module);

}  // namespace contactlab
