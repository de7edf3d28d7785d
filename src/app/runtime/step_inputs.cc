#include "app/runtime/step_inputs.h"

namespace contactlab {

void CaptureStepInputs(const World& world, StepInputs* inputs) {
  inputs->pd = world.inputs().pd;  // same size after the first call: assigned in place
  inputs->external_force = world.inputs().external_force;
}

void ApplyStepInputs(const StepInputs& inputs, World* world) {
  world->SetActuation(inputs.pd);
  world->SetExternalForce(inputs.external_force);
}

}  // namespace contactlab
