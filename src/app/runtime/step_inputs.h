// What drives one step of a World besides its state and its contact settings: the actuation
// (PD targets and effort limits, from teleoperation or a script) and the external force (the
// user's mouse spring). The timeline records them with every step, and the ghost applies the
// main run's to its own world, so that both see exactly the same inputs.
#pragma once

#include <optional>
#include <vector>

#include "engine/world/world.h"

namespace contactlab {

struct StepInputs {
  std::vector<std::optional<JointPdSpec>> pd;  // per scene body, as WorldInputs::pd
  ExternalForce external_force;
};

// The inputs `world` will step with; no allocation once `inputs` has held this world's.
void CaptureStepInputs(const World& world, StepInputs* inputs);
// Makes them the world's inputs (World::SetActuation and SetExternalForce; throws
// std::invalid_argument if they do not fit the world).
void ApplyStepInputs(const StepInputs& inputs, World* world);

}  // namespace contactlab
