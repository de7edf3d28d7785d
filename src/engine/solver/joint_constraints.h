// One-row constraints on a single generalized velocity (contact-math.md §3).
#pragma once

#include <limits>

#include "engine/solver/constraint.h"

namespace contactlab {

// PD controller with effort limit on one dof, v_c = v of that dof:
// γ(v) = δt · clamp(−Kp·(q0 + δt·v − q_d) − Kd·(v − v_d) + u_ff, −e_max, +e_max).
// Gains are capped by the near-rigid rule (β = 0.1) against the dof's effective mass.
// With u(v) = u0 − κ·v, κ = δt·kp + kd, the potential is ℓ(v) = −∫₀ᵛ γ(s) ds: piecewise
// quadratic (|u| ≤ e_max, Hessian δt·κ) / linear (saturated, Hessian 0), convex, ℓ(0) = 0.
// It is referenced at v = 0 rather than at its minimum u = 0 because the minimum lies at
// v = u0/κ, arbitrarily far for soft gains, which would add a huge constant to the cost.
class PdControllerConstraint final : public Constraint {
 public:
  struct Parameters {
    double dt_s = 1e-3;
    double kp = 0;  // N/m or N·m/rad
    double kd = 0;  // N·s/m or N·m·s/rad
    double q0 = 0, q_desired = 0, v_desired = 0;
    double feedforward = 0;      // u_ff
    double effort_limit = 1e30;  // e_max > 0
  };
  // Scales kp and kd down together (keeping kd/kp) so that the stiffness δt(δt·kp + kd) does
  // not exceed 4π²/(β²·w), w = 1/m_eff the dof's inverse effective mass (diagonal of A⁻¹
  // estimated by 1/A_ii): the near-rigid rule R ≥ β²w/(4π²) of §2.1 with R = 1/(δt(δt·kp + kd)),
  // i.e. the closed-loop period 2π·sqrt(m_eff/kp_eff) may not drop below β·δt. w ≤ 0 (infinite
  // mass) leaves the gains unchanged.
  static Parameters CapGains(Parameters p, double inverse_effective_mass, double beta = 0.1);
  PdControllerConstraint() = default;
  explicit PdControllerConstraint(const Parameters& p) : p_(p) {}
  int num_rows() const override { return 1; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  const Parameters& parameters() const { return p_; }

 private:
  Parameters p_;
};

// One-sided joint limit on (q0 + δt v): a frictionless SAP normal constraint with near-rigid
// regularization. For a lower limit v_c = v, for an upper limit v_c = −v (the caller signs J).
// φ0 = q0 − lower (or upper − q0); R = max(β²/(4π²)·w, 1/(δt·k·(δt+τ))) with k = ∞ unless given.
// γ = max(0, −(v_c − v̂)/R), ℓ = ½·R·γ², G = 1/R while active. R = ∞ means inactive.
class JointLimitConstraint final : public Constraint {
 public:
  struct Parameters {
    double R = 0;     // regularization [1/kg or 1/(kg m²)]
    double vhat = 0;  // bias −φ0/(δt + τ)
  };
  static Parameters MakeParameters(double dt, double distance_to_limit,
                                   double inverse_effective_mass, double relaxation_time_s = 0.0,
                                   double beta = 1.0,
                                   double stiffness = std::numeric_limits<double>::infinity());
  JointLimitConstraint() = default;
  explicit JointLimitConstraint(const Parameters& p) : p_(p) {}
  int num_rows() const override { return 1; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  const Parameters& parameters() const { return p_; }

 private:
  Parameters p_;
};

}  // namespace contactlab
