// One-row constraints on a single generalized velocity (docs/contact-model.md §3).
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
  // The controller's physics; units N and m for a prismatic joint, N·m and rad for a revolute.
  struct Parameters {
    double kp = 0;               // ∈ [0, ∞): N/m or N·m/rad
    double kd = 0;               // ∈ [0, ∞): N·s/m or N·m·s/rad
    double q_desired = 0;        // m or rad
    double v_desired = 0;        // m/s or rad/s
    double feedforward = 0;      // u_ff: N or N·m
    double effort_limit = 1e30;  // e_max ∈ (0, ∞): N or N·m
  };
  // What one step's potential is built from: the (capped) gains, targets, δt and q0.
  struct Data {
    double dt_s = 1e-3;
    double kp = 0;
    double kd = 0;
    double q0 = 0, q_desired = 0, v_desired = 0;
    double feedforward = 0;
    double effort_limit = 1e30;
  };
  // The controller at a step from position q0, with its gains capped (CapGains) against the
  // dof's inverse effective mass w: the constraint's own regularization.
  static Data MakeData(const Parameters& p, double dt_s, double q0, double inverse_effective_mass);
  // The θ-method's controller (docs/contact-model.md §1.1): the force at
  // (q^θ, v^θ) = (q0 + θ_v δt (θ_q v + (1 − θ_q) v0), θ_v v + (1 − θ_v) v0), still affine in v,
  // u = u0 − κ v with κ = θ_v (θ_q δt kp + kd). Its Data holds the θ-weighted gains
  // (θ_v θ_q kp, θ_v kd) and the affine part in `feedforward` (q0 = q_d = v_d = 0), so that
  // Evaluate is the same. The gains are capped as MakeData's, against the θ-weighted stiffness.
  static Data MakeThetaData(const Parameters& p, double dt_s, double q0, double v0, double theta_q,
                            double theta_v, double inverse_effective_mass);
  // Scales kp and kd down together (keeping kd/kp) so that the stiffness δt(δt·kp + kd) does
  // not exceed 4π²/(β²·w), w = 1/m_eff the dof's inverse effective mass (diagonal of A⁻¹
  // estimated by 1/A_ii): the near-rigid rule R ≥ β²w/(4π²) of §2.1 with R = 1/(δt(δt·kp + kd)),
  // i.e. the closed-loop period 2π·sqrt(m_eff/kp_eff) may not drop below β·δt. w ≤ 0 (infinite
  // mass) leaves the gains unchanged.
  static Data CapGains(Data d, double inverse_effective_mass, double beta = 0.1);
  PdControllerConstraint() = default;
  PdControllerConstraint(const Parameters& p, double dt_s, double q0, double inverse_effective_mass)
      : d_(MakeData(p, dt_s, q0, inverse_effective_mass)) {}
  explicit PdControllerConstraint(const Data& d) : d_(d) {}
  int num_rows() const override { return 1; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  const Data& data() const { return d_; }

 private:
  Data d_;
};

// One-sided joint limit on (q0 + δt v): a frictionless SAP normal constraint with near-rigid
// regularization. For a lower limit v_c = v, for an upper limit v_c = −v (the caller signs J).
// φ0 = q0 − lower (or upper − q0); R = max(β²/(4π²)·w, 1/(δt·k·(δt+τ))) with k = ∞ unless given.
// γ = max(0, −(v_c − v̂)/R), ℓ = ½·R·γ², G = 1/R while active. R = ∞ means inactive.
class JointLimitConstraint final : public Constraint {
 public:
  // The limit's physics (the defaults: a rigid limit, near-rigid regularization).
  struct Parameters {
    double relaxation_time_s = 0;  // τ ∈ [0, ∞)
    double beta = 1.0;             // β > 0: near-rigid when the period is below β·δt
    double stiffness = std::numeric_limits<double>::infinity();  // k ∈ [0, ∞]; 0: inactive
  };
  // What one step's potential is built from.
  struct Data {
    double R = 0;     // regularization [1/kg or 1/(kg m²)]
    double vhat = 0;  // bias −φ0/(δt + τ)
  };
  // §3: R = max(β²/(4π²)·w, 1/(δt·k·(δt + τ))), v̂ = −φ0/(δt + τ), from the distance φ0 to the
  // limit and the dof's inverse effective mass w: the constraint's own regularization.
  static Data MakeData(const Parameters& p, double dt_s, double distance_to_limit,
                       double inverse_effective_mass);
  JointLimitConstraint() = default;
  JointLimitConstraint(const Parameters& p, double dt_s, double distance_to_limit,
                       double inverse_effective_mass)
      : d_(MakeData(p, dt_s, distance_to_limit, inverse_effective_mass)) {}
  explicit JointLimitConstraint(const Data& d) : d_(d) {}
  int num_rows() const override { return 1; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override;
  const Data& data() const { return d_; }

 private:
  Data d_;
};

}  // namespace contactlab
