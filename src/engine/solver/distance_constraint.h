// Distance: a point P of body A and a point Q of body B held at distance d
// (docs/contact-model.md §3.2), rigid like a massless rod or compliant like a spring.
#pragma once

#include <Eigen/Dense>

#include "engine/solver/holonomic_constraint.h"

namespace contactlab {

// g = ‖p_WQ − p_WP‖ − d, v_c = ġ = n̂ᵀ (v_Q − v_P) with n̂ = (p_WQ − p_WP)/‖p_WQ − p_WP‖. One row.
class DistanceConstraint final : public HolonomicConstraint {
 public:
  struct Parameters {
    double distance_m = 0;  // d > 0, finite
    // Stiffness in N/m and relaxation time (damping c = τ·k N·s/m); default rigid.
    HolonomicCompliance compliance;
    // Throws std::invalid_argument for d ≤ 0 or non-finite, or a bad compliance.
    void Validate() const;
  };
  // n̂ from P towards Q; for coincident points (where n̂ is undefined and any direction
  // separates them) +x.
  static Eigen::Vector3d Direction(const Eigen::Vector3d& p_WP, const Eigen::Vector3d& p_WQ);
  // At the points' distance ‖p_WQ − p_WP‖ with w = n̂ᵀ W n̂ > 0, the Delassus diagonal.
  DistanceConstraint(const Parameters& p, double dt_s, double current_distance_m,
                     double inverse_effective_mass);
};

}  // namespace contactlab
