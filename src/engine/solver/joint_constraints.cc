// One-row joint-level constraints (docs/contact-model.md §3).
#include "engine/solver/joint_constraints.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace contactlab {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// 4π²: the near-rigid rule R ≥ β²/(4π²)·w (§2.1) bounds a stiffness by 4π²/(β²·w).
constexpr double kFourPiSquared = 4 * std::numbers::pi * std::numbers::pi;

}  // namespace

// ---------------------------------------------------------------------------------------------
// PD controller with effort limit (§3).
//
// u(v) = −kp·(q0 + δt·v − q_d) − kd·(v − v_d) + u_ff = u0 − κ·v,
//   u0 = −kp·(q0 − q_d) + kd·v_d + u_ff,  κ = δt·kp + kd ≥ 0,
// γ(v) = δt·clamp(u(v), −e, e), ℓ(v) = −∫₀ᵛ γ(s) ds. Along s the clamp is +e for s ≤ s_hi,
// linear on [s_hi, s_lo] and −e for s ≥ s_lo, s_hi = (u0 − e)/κ, s_lo = (u0 + e)/κ. The integral
// is summed piecewise with each piece's exact midpoint rule, so nothing divides by κ except the
// breakpoints (which may be ±∞ for κ → 0: the min/max below handle that).

PdControllerConstraint::Data PdControllerConstraint::MakeData(const Parameters& p, double dt_s,
                                                              double q0,
                                                              double inverse_effective_mass) {
  Data d;
  d.dt_s = dt_s;
  d.kp = p.kp;
  d.kd = p.kd;
  d.q0 = q0;
  d.q_desired = p.q_desired;
  d.v_desired = p.v_desired;
  d.feedforward = p.feedforward;
  d.effort_limit = p.effort_limit;
  return CapGains(d, inverse_effective_mass);
}

PdControllerConstraint::Data PdControllerConstraint::MakeThetaData(const Parameters& p, double dt_s,
                                                                   double q0, double v0,
                                                                   double theta_q, double theta_v,
                                                                   double inverse_effective_mass) {
  Data weighted;  // the θ-weighted gains, capped as MakeData caps its own
  weighted.dt_s = dt_s;
  weighted.kp = theta_v * theta_q * p.kp;
  weighted.kd = theta_v * p.kd;
  const Data capped = CapGains(weighted, inverse_effective_mass);
  const double scale = weighted.kd > 0   ? capped.kd / weighted.kd
                       : weighted.kp > 0 ? capped.kp / weighted.kp
                                         : 1.0;
  const double kp = scale * p.kp, kd = scale * p.kd;
  const double q_fixed = q0 + theta_v * (1 - theta_q) * dt_s * v0;  // q^θ at v = 0
  Data d = capped;
  d.q0 = d.q_desired = d.v_desired = 0;
  d.feedforward =
      -kp * (q_fixed - p.q_desired) - kd * ((1 - theta_v) * v0 - p.v_desired) + p.feedforward;
  d.effort_limit = p.effort_limit;
  return d;
}

PdControllerConstraint::Data PdControllerConstraint::CapGains(Data p, double inverse_effective_mass,
                                                              double beta) {
  if (!(inverse_effective_mass > 0)) return p;
  const double stiffness = p.dt_s * (p.dt_s * p.kp + p.kd);
  const double max_stiffness = kFourPiSquared / (beta * beta * inverse_effective_mass);
  if (stiffness > max_stiffness) {
    const double scale = max_stiffness / stiffness;  // same factor on both: kd/kp unchanged
    p.kp *= scale;
    p.kd *= scale;
  }
  return p;
}

double PdControllerConstraint::Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc,
                                        Eigen::Ref<Eigen::VectorXd> gamma,
                                        Eigen::MatrixXd* G) const {
  assert(vc.size() == 1 && gamma.size() == 1);
  const double dt = d_.dt_s;
  const double e = std::max(d_.effort_limit, 0.0);
  const double kappa = dt * d_.kp + d_.kd;
  const double u0 = -d_.kp * (d_.q0 - d_.q_desired) + d_.kd * d_.v_desired + d_.feedforward;
  const double v = vc(0);
  const double u = u0 - kappa * v;
  const double clamped = std::clamp(u, -e, e);
  gamma(0) = dt * clamped;
  // At |u| = e the inside (larger) curvature: still a valid one-sided value for Newton.
  if (G) (*G)(0, 0) = (std::abs(u) <= e) ? dt * kappa : 0.0;

  // ∫_a^b clamp(u0 − κ s) ds for a ≤ b.
  auto integral = [&](double a, double b) {
    if (!(kappa > 0)) return (b - a) * std::clamp(u0, -e, e);
    const double s_hi = (u0 - e) / kappa;
    const double s_lo = (u0 + e) / kappa;
    double sum = 0;
    const double hi_end = std::min(b, s_hi);
    if (hi_end > a) sum += (hi_end - a) * e;
    const double lo_start = std::max(a, s_lo);
    if (b > lo_start) sum -= (b - lo_start) * e;
    const double lin_a = std::max(a, s_hi), lin_b = std::min(b, s_lo);
    if (lin_b > lin_a) sum += (lin_b - lin_a) * (u0 - kappa * 0.5 * (lin_a + lin_b));
    return sum;
  };
  return v >= 0 ? -dt * integral(0.0, v) : dt * integral(v, 0.0);
}

// ---------------------------------------------------------------------------------------------
// Joint limit (§3): frictionless SAP normal on the limit's signed distance φ = φ0 + δt·v_c.

JointLimitConstraint::Data JointLimitConstraint::MakeData(const Parameters& p, double dt_s,
                                                          double distance_to_limit,
                                                          double inverse_effective_mass) {
  Data d;
  const double dt_plus_tau = dt_s + p.relaxation_time_s;
  const double near_rigid = p.beta * p.beta / kFourPiSquared * inverse_effective_mass;
  const double compliance = p.stiffness > 0 ? 1.0 / (dt_s * p.stiffness * dt_plus_tau) : kInf;
  d.R = std::max(near_rigid, compliance);
  d.vhat = -distance_to_limit / dt_plus_tau;
  return d;
}

double JointLimitConstraint::Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc,
                                      Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  assert(vc.size() == 1 && gamma.size() == 1);
  assert(d_.R > 0);
  const double y = -(vc(0) - d_.vhat) / d_.R;
  // y ≤ 0 (inside the limit) or R = ∞ (no stiffness): inactive. Tested before ½·R·γ² (0·∞).
  if (!(y > 0) || !(d_.R < kInf)) {
    gamma(0) = 0;
    if (G) (*G)(0, 0) = 0;
    return 0;
  }
  gamma(0) = y;
  if (G) (*G)(0, 0) = 1 / d_.R;
  return 0.5 * d_.R * y * y;
}

}  // namespace contactlab
