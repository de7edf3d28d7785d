// Coupler: two 1-dof joints held at q_a = ρ·q_b + offset (docs/contact-model.md §3.2), e.g. a
// URDF <mimic> joint or a gripper's second finger following the first.
#pragma once

#include "engine/solver/holonomic_constraint.h"

namespace contactlab {

// g = q_a − ρ·q_b − offset, v_c = ġ = v_a − ρ·v_b (J = [1, −ρ] on the two dofs). One row.
class CouplerConstraint final : public HolonomicConstraint {
 public:
  struct Parameters {
    double gear_ratio = 1.0;  // ρ, finite: m/m, rad/rad, m/rad or rad/m as the joints are
    double offset = 0.0;      // m or rad (q_a's unit), finite
    // Stiffness in N/m or N·m/rad of q_a's unit; default rigid.
    HolonomicCompliance compliance;
    // Throws std::invalid_argument for a non-finite ratio or offset or a bad compliance.
    void Validate() const;
  };
  static double ConstraintValue(const Parameters& p, double q_a, double q_b) {
    return q_a - p.gear_ratio * q_b - p.offset;
  }
  // At positions (q_a, q_b) with the dofs' inverse effective masses w_a, w_b (1/A_ii; 0 for a
  // joint that cannot move): w = w_a + ρ²·w_b, the diagonal of J diag(A)⁻¹ Jᵀ (> 0 required).
  CouplerConstraint(const Parameters& p, double dt_s, double q_a, double q_b, double inverse_mass_a,
                    double inverse_mass_b);
};

}  // namespace contactlab
