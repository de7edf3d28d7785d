#include "engine/world/trajectory_sensitivity.h"

namespace contactlab {

TrajectorySensitivity::TrajectorySensitivity(const WorldModel& model,
                                             std::vector<ContactParameter> parameters,
                                             std::vector<int> contact_pairs)
    : step_(model, std::move(parameters), std::move(contact_pairs)) {
  Reset();
}

void TrajectorySensitivity::Reset() {
  const int np = static_cast<int>(step_.parameters().size());
  dq_dp_.setZero(step_.num_positions(), np);
  dv_dp_.setZero(step_.num_velocities(), np);
}

bool TrajectorySensitivity::Step(World* world) {
  if (!step_.Step(world)) return false;
  const int np = static_cast<int>(step_.parameters().size());
  direction_.parameters.setZero(np);
  for (int j = 0; j < np; ++j) {
    direction_.q = dq_dp_.col(j);
    direction_.v = dv_dp_.col(j);
    direction_.parameters[j] = 1;
    step_.Apply(direction_, &dq_, &dv_);
    direction_.parameters[j] = 0;
    dq_dp_.col(j) = dq_;
    dv_dp_.col(j) = dv_;
  }
  return true;
}

}  // namespace contactlab
