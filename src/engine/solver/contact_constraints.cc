// Contact constraints (docs/contact-model.md §2.1–§2.4). Everything is evaluated with fixed-size
// Eigen types on the stack: Evaluate must not allocate (constraint.h).
#include "engine/solver/contact_constraints.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numbers>

namespace contactlab {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Floor on the soft-norm width ε [m/s]. ε = 0 makes the friction Hessian μγ_n0/ε infinite at
// v_t = 0; the floor keeps it finite (and NaN-free) without changing any physical model (a
// stiction tolerance below 1e-12 m/s is meaningless in double precision).
constexpr double kMinSoftNormWidth = 1e-12;

// The soft norm of §2.3: ‖v_t‖_s = sqrt(‖v_t‖² + ε²) − ε, with s = sqrt(‖v_t‖² + ε²).
struct SoftNorm {
  double s;       // sqrt(‖v_t‖² + ε²) > 0
  double value;   // ‖v_t‖_s ≥ 0
  double v_t[2];  // ŝ = v_t / s
};

SoftNorm EvaluateSoftNorm(double vt0, double vt1, double epsilon) {
  const double eps = std::max(epsilon, kMinSoftNormWidth);
  const double norm2 = vt0 * vt0 + vt1 * vt1;
  // Plain sqrt (hypot cost 7 % of a clutter step): the squares cannot overflow for any
  // physical velocity, and eps ≥ kMinSoftNormWidth keeps s > 0.
  const double s = std::sqrt(norm2 + eps * eps);
  SoftNorm out;
  out.s = s;
  // s − ε = ‖v_t‖²/(s + ε): no cancellation when ‖v_t‖ ≪ ε.
  out.value = norm2 / (s + eps);
  out.v_t[0] = vt0 / s;
  out.v_t[1] = vt1 / s;
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Hunt & Crossley normal (§2.2).
//
// Below v̂ both factors of n are positive. With u = v̂ − v_n ≥ 0 they are
//   f0 − δt·k·v_n = a + b·u,  a = f0 − δt·k·v̂ ≥ 0,  b = δt·k,
//   1 − d·v_n     = c + d·u,  c = 1 − d·v̂ ≥ 0,
// (one of a, c is zero: the factor that opens first) so
//   n = δt·(a + b·u)·(c + d·u),   ℓ_n = ∫_{v_n}^{v̂} n = δt·[a·c·u + (a·d + b·c)·u²/2 + b·d·u³/3],
//   −n' = dn/du = δt·[b·(c + d·u) + d·(a + b·u)].
// This is N⁺(v̂) − N⁺(v_n) of §2.2 written around v̂: every coefficient is ≥ 0, so ℓ_n ≥ 0 with
// no cancellation between the two large values of N⁺ when the pair is far apart (v̂ ≪ 0).

double HuntCrossleyNormal::ElasticForce() const {
  return elastic_force_N ? *elastic_force_N : stiffness_N_per_m * penetration_m;
}

double HuntCrossleyNormal::OpeningVelocity() const {
  const double k = stiffness_N_per_m;
  const double d = dissipation_s_per_m;
  double vhat_elastic;
  if (!elastic_force_N) {
    vhat_elastic = penetration_m / dt_s;  // x0/δt; with k = 0 n ≡ 0 anyway.
  } else if (k > 0) {
    vhat_elastic = *elastic_force_N / (dt_s * k);
  } else {
    vhat_elastic = *elastic_force_N > 0 ? kInf : -kInf;
  }
  const double vhat_dissipation = d > 0 ? 1.0 / d : kInf;
  return std::min(vhat_elastic, vhat_dissipation);
}

double HuntCrossleyNormal::Evaluate(double vn, double* impulse,
                                    double* impulse_derivative_neg) const {
  const double dt = dt_s;
  const double k = stiffness_N_per_m;
  const double d = dissipation_s_per_m;
  const double f0 = ElasticForce();
  const double vhat = OpeningVelocity();
  if (!(vn < vhat)) {  // open (also v̂ = −∞: never in contact)
    if (impulse) *impulse = 0;
    if (impulse_derivative_neg) *impulse_derivative_neg = 0;
    return 0;
  }
  if (vhat == kInf) {
    // k = 0, d = 0, f0 > 0: constant impulse δt·f0, potential −δt·f0·v_n (no open state to
    // reference the potential to).
    if (impulse) *impulse = dt * f0;
    if (impulse_derivative_neg) *impulse_derivative_neg = 0;
    return -dt * f0 * vn;
  }
  const double u = vhat - vn;  // > 0
  const double a = std::max(f0 - dt * k * vhat, 0.0);
  const double b = dt * k;
  const double c = std::max(1.0 - d * vhat, 0.0);
  if (impulse) *impulse = dt * (a + b * u) * (c + d * u);
  if (impulse_derivative_neg) *impulse_derivative_neg = dt * (b * (c + d * u) + d * (a + b * u));
  return dt * u * (a * c + u * ((a * d + b * c) / 2 + u * (b * d / 3)));
}

double HuntCrossleyNormal::Impulse(double vn) const {
  double n;
  Evaluate(vn, &n, nullptr);
  return n;
}

double HuntCrossleyNormal::ImpulseDerivativeNeg(double vn) const {
  double dn;
  Evaluate(vn, nullptr, &dn);
  return dn;
}

double HuntCrossleyNormal::Potential(double vn) const { return Evaluate(vn, nullptr, nullptr); }

// ---------------------------------------------------------------------------------------------
// SAP (§2.1).

SapContact::Data SapContact::MakeData(const Parameters& p, double dt_s, double signed_distance_m,
                                      const DelassusDiagonal& w) {
  Data d;
  d.friction = p.friction;
  const double dt_plus_tau = dt_s + p.relaxation_time_s;
  const double near_rigid = p.beta * p.beta / (4 * std::numbers::pi * std::numbers::pi) * w.w_n;
  const double compliance =
      p.stiffness_N_per_m > 0 ? 1.0 / (dt_s * p.stiffness_N_per_m * dt_plus_tau) : kInf;
  d.R_n = std::max(near_rigid, compliance);
  d.R_t = p.sigma * w.w_t;
  d.vhat_n = -signed_distance_m / dt_plus_tau;
  return d;
}

double SapContact::Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc,
                            Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  assert(vc.size() == 3 && gamma.size() == 3);
  assert(d_.R_t > 0 && d_.R_n > 0);
  const double mu = d_.friction;
  const double Rt = d_.R_t;
  const double Rn = d_.R_n;
  if (G) G->setZero();
  gamma.setZero();
  // R_n = ∞ (k = 0): no normal compliance ⇒ no contact. Exit before 0·∞.
  if (!(Rn < kInf) || !(Rt < kInf)) return 0;

  // y = −R⁻¹(v_c − v̂).
  const double yt0 = -vc(0) / Rt;
  const double yt1 = -vc(1) / Rt;
  const double yn = -(vc(2) - d_.vhat_n) / Rn;
  const double yr = std::sqrt(yt0 * yt0 + yt1 * yt1);
  const double mu_hat = mu * Rt / Rn;

  // Separation is tested first: with μ = 0 and y_t = 0 the stiction test y_r ≤ μ·y_n holds
  // for every y_n, including y_n < 0. For μ > 0 the two closed regions meet only at y = 0.
  if (yn <= -mu_hat * yr) return 0;  // separation: γ = 0, G = 0

  if (yr <= mu * yn) {  // stiction: γ = y, G = R⁻¹
    gamma << yt0, yt1, yn;
    if (G) {
      (*G)(0, 0) = 1 / Rt;
      (*G)(1, 1) = 1 / Rt;
      (*G)(2, 2) = 1 / Rn;
    }
    return 0.5 * (Rt * (yt0 * yt0 + yt1 * yt1) + Rn * yn * yn);
  }

  // Sliding: here y_r > 0 (y_r = 0 falls in one of the regions above) and μγ_n/y_r ≤ 1.
  const double t0 = yt0 / yr;
  const double t1 = yt1 / yr;
  const double one_plus = 1 + mu * mu_hat;
  const double gn = (yn + mu_hat * yr) / one_plus;
  const double gt = mu * gn;  // ‖γ_t‖
  gamma << gt * t0, gt * t1, gn;
  if (G) {
    const double c_tt = mu * mu_hat / one_plus;  // along t̂
    const double c_perp = gt / yr;               // across t̂
    const Eigen::Vector2d t(t0, t1);
    const Eigen::Matrix2d P = t * t.transpose();
    G->topLeftCorner<2, 2>() = (c_tt * P + c_perp * (Eigen::Matrix2d::Identity() - P)) / Rt;
    const double c_tn = mu / (one_plus * Rn);
    (*G)(0, 2) = (*G)(2, 0) = c_tn * t0;
    (*G)(1, 2) = (*G)(2, 1) = c_tn * t1;
    (*G)(2, 2) = 1 / (one_plus * Rn);
  }
  return 0.5 * (Rt * gt * gt + Rn * gn * gn);
}

// ---------------------------------------------------------------------------------------------
// Lagged (§2.3).

double LaggedContact::LaggedNormalImpulse(const HuntCrossleyNormal& normal, double previous_vn) {
  // f0 form of δt·k·(x0)₊·(1 − d·v_n0)₊.
  return normal.dt_s * std::max(normal.ElasticForce(), 0.0) *
         std::max(1 - normal.dissipation_s_per_m * previous_vn, 0.0);
}

double LaggedContact::RegularizedEpsilon(double stiction_tolerance_m_per_s, double sigma,
                                         double w_t, double friction,
                                         double lagged_normal_impulse) {
  return std::max(stiction_tolerance_m_per_s, sigma * w_t * friction * lagged_normal_impulse);
}

LaggedContact::LaggedContact(const HuntCrossleyNormal& normal, const Parameters& p,
                             double previous_vn, const DelassusDiagonal& w) {
  d_.normal = normal;
  d_.friction = p.friction;
  d_.lagged_normal_impulse = LaggedNormalImpulse(normal, previous_vn);
  d_.epsilon_m_per_s =
      p.regularization_sigma > 0
          ? RegularizedEpsilon(p.stiction_tolerance_m_per_s, p.regularization_sigma, w.w_t,
                               p.friction, d_.lagged_normal_impulse)
          : p.stiction_tolerance_m_per_s;
}

double LaggedContact::Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc,
                               Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  assert(vc.size() == 3 && gamma.size() == 3);
  double n = 0, dn_neg = 0;
  const double ell_n = d_.normal.Evaluate(vc(2), &n, G ? &dn_neg : nullptr);
  // Friction bound μγ_n0 is a constant: friction decouples from the normal (consistent, §2.5).
  const double mu_gn0 = d_.friction * std::max(d_.lagged_normal_impulse, 0.0);
  const SoftNorm sn = EvaluateSoftNorm(vc(0), vc(1), d_.epsilon_m_per_s);
  gamma << -mu_gn0 * sn.v_t[0], -mu_gn0 * sn.v_t[1], n;
  if (G) {
    G->setZero();
    const Eigen::Vector2d shat(sn.v_t[0], sn.v_t[1]);
    G->topLeftCorner<2, 2>() =
        (mu_gn0 / sn.s) * (Eigen::Matrix2d::Identity() - shat * shat.transpose());
    (*G)(2, 2) = dn_neg;
  }
  return ell_n + mu_gn0 * sn.value;
}

// ---------------------------------------------------------------------------------------------
// Similar (§2.4).

double SimilarContact::Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc,
                                Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  assert(vc.size() == 3 && gamma.size() == 3);
  const double mu = d_.friction;
  const SoftNorm sn = EvaluateSoftNorm(vc(0), vc(1), d_.epsilon_m_per_s);
  const double z = vc(2) - mu * sn.value;
  double n = 0, dn_neg = 0;
  const double ell = d_.normal.Evaluate(z, &n, G ? &dn_neg : nullptr);
  gamma << -mu * n * sn.v_t[0], -mu * n * sn.v_t[1], n;
  if (G) {
    // −n'(z)·g·gᵀ + μ·n(z)·blockdiag((I − ŝŝᵀ)/s, 0), g = ∂z/∂v_c = [−μŝ; 1].
    const Eigen::Vector3d g(-mu * sn.v_t[0], -mu * sn.v_t[1], 1.0);
    *G = dn_neg * (g * g.transpose());
    const Eigen::Vector2d shat(sn.v_t[0], sn.v_t[1]);
    G->topLeftCorner<2, 2>() +=
        (mu * n / sn.s) * (Eigen::Matrix2d::Identity() - shat * shat.transpose());
  }
  return ell;
}

}  // namespace contactlab
