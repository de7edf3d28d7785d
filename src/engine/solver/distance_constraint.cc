// Distance constraint (docs/contact-model.md §3.2).
#include "engine/solver/distance_constraint.h"

#include <cmath>
#include <stdexcept>

namespace contactlab {

void DistanceConstraint::Parameters::Validate() const {
  if (!(distance_m > 0) || !std::isfinite(distance_m))
    throw std::invalid_argument("distance must be finite and positive");
  compliance.Validate();
}

Eigen::Vector3d DistanceConstraint::Direction(const Eigen::Vector3d& p_WP,
                                              const Eigen::Vector3d& p_WQ) {
  const Eigen::Vector3d p_PQ = p_WQ - p_WP;
  const double length = p_PQ.norm();
  return length > 0 ? Eigen::Vector3d(p_PQ / length) : Eigen::Vector3d::UnitX();
}

DistanceConstraint::DistanceConstraint(const Parameters& p, double dt_s, double current_distance_m,
                                       double inverse_effective_mass) {
  d_.R.resize(1);
  d_.vhat.resize(1);
  MakeRow(p.compliance, dt_s, current_distance_m - p.distance_m, inverse_effective_mass, 0, &d_);
}

}  // namespace contactlab
