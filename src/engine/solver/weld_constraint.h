// Weld: a frame P of body A and a frame Q of body B held together (docs/contact-model.md
// §3.2), compliant in SAP's sense: rigid up to the near-rigid regularization unless given a
// stiffness.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include "engine/solver/holonomic_constraint.h"

namespace contactlab {

// Six rows, angular first: g = [θ_W; p_W] with θ_W the rotation vector of R_WQ·R_WPᵀ (Q's
// orientation relative to P's, as an axis-angle in the world) and p_W = p_WQ − p_WP, and
// v_c = [ω_WB − ω_WA; v_Q − v_P] (world), ġ = v_c exactly for p and to first order in θ.
class WeldConstraint final : public HolonomicConstraint {
 public:
  using Vector6d = Eigen::Matrix<double, 6, 1>;
  struct Parameters {
    HolonomicCompliance rotation;     // stiffness N·m/rad; default rigid
    HolonomicCompliance translation;  // stiffness N/m; default rigid
    void Validate() const;            // throws std::invalid_argument on a bad compliance
  };
  static Vector6d ConstraintValue(const Eigen::Isometry3d& X_WP, const Eigen::Isometry3d& X_WQ);
  // At the frames' relative pose g0 (ConstraintValue) with the rows' Delassus diagonal w (> 0).
  WeldConstraint(const Parameters& p, double dt_s, const Vector6d& g0, const Vector6d& w);
};

}  // namespace contactlab
