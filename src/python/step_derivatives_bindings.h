// A World's step derivatives from Python (docs/contact-model.md §9): World.step_jacobians, one
// step linearized (StepDerivatives), and class Sensitivity, ∂(q, v)/∂p carried through the steps
// it takes (TrajectorySensitivity). Both take the parameters by set_overrides' keywords.
#pragma once

#include <pybind11/pybind11.h>

#include "engine/world/world.h"

namespace contactlab {

// Adds step_jacobians to class World and class Sensitivity to the module.
void BindStepDerivatives(pybind11::module_* module, pybind11::class_<World>* world);

}  // namespace contactlab
