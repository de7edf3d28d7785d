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
  double inv_s;   // 1/s
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
  out.inv_s = 1 / s;
  out.v_t[0] = vt0 * out.inv_s;
  out.v_t[1] = vt1 * out.inv_s;
  return out;
}

// The soft norm's Hessian scaled by the friction bound: c·(I − ŝŝᵀ)/s, with ŝ = v_t/s.
Eigen::Matrix2d FrictionHessian(double friction_bound, const SoftNorm& sn) {
  const double c = friction_bound * sn.inv_s;
  const double s0 = sn.v_t[0], s1 = sn.v_t[1];
  Eigen::Matrix2d G;
  G << c * (1 - s0 * s0), -c * s0 * s1, -c * s0 * s1, c * (1 - s1 * s1);
  return G;
}

// Writes a contact's symmetric 3 × 3 Hessian [G_tt, g_tn; g_tnᵀ, g_nn] straight into G's
// storage: Eigen's dynamic-size block expressions on a MatrixXd cost more than the physics here
// (a clutter step evaluates every contact ~10 times per Newton iteration).
void WriteHessian(const Eigen::Matrix2d& G_tt, double g_tn0, double g_tn1, double g_nn,
                  Eigen::MatrixXd* G) {
  double* g = G->data();  // 3 × 3, column-major
  g[0] = G_tt(0, 0), g[1] = G_tt(1, 0), g[2] = g_tn0;
  g[3] = G_tt(0, 1), g[4] = G_tt(1, 1), g[5] = g_tn1;
  g[6] = g_tn0, g[7] = g_tn1, g[8] = g_nn;
}

// Regime prediction (§4.1). The Newton step is taken to carry a sliding contact through
// stiction when, on the step's line v_t + α·Δv_t with α ∈ (0, α_max] (the line search's range),
// the slip comes within half of its current value of zero, and the contact slips now by more
// than two widths of its stiction zone (closer in, Newton's own model already sees the stick).
constexpr double kPredictionMaxStep = 1.5;
constexpr double kPredictionApproach = 0.5;
constexpr double kPredictionMinSlipWidths = 2;

// α ∈ (0, α_max] at which the step's tangential velocity is nearest zero, or 0 if it does not
// come near (per the rule above).
double StictionCrossing(double vt0, double vt1, double dvt0, double dvt1, double stick_width) {
  const double slip2 = vt0 * vt0 + vt1 * vt1;
  const double dslip2 = dvt0 * dvt0 + dvt1 * dvt1;
  const double min_slip = kPredictionMinSlipWidths * stick_width;
  if (slip2 <= min_slip * min_slip || !(dslip2 > 0)) return 0;
  const double alpha = -(vt0 * dvt0 + vt1 * dvt1) / dslip2;
  if (!(alpha > 0 && alpha <= kPredictionMaxStep)) return 0;
  const double e0 = vt0 + alpha * dvt0, e1 = vt1 + alpha * dvt1;
  const double approach2 = kPredictionApproach * kPredictionApproach * slip2;
  return e0 * e0 + e1 * e1 <= approach2 ? alpha : 0;
}

// The stiction model of a soft-norm friction term of bound c·ε (c = bound/ε): the soft norm's
// quadratic at v_t = 0, ½·c·‖v_t‖², extended to v_t: γ_t = −c·v_t, G_tt = c·I.
void WriteStictionModel(double c, double vt0, double vt1, Eigen::Ref<Eigen::VectorXd> gamma,
                        Eigen::MatrixXd* G) {
  gamma(0) = -c * vt0;
  gamma(1) = -c * vt1;
  double* g = G->data();
  g[0] = c, g[1] = 0, g[3] = 0, g[4] = c;
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

HuntCrossleyExpansion HuntCrossleyNormal::Expand() const {
  HuntCrossleyExpansion e;
  e.dt_s = dt_s;
  e.opening_velocity = OpeningVelocity();
  e.elastic_force_N = ElasticForce();
  e.d = dissipation_s_per_m;
  e.b = dt_s * stiffness_N_per_m;
  if (std::isfinite(e.opening_velocity)) {
    e.a = std::max(e.elastic_force_N - e.b * e.opening_velocity, 0.0);
    e.c = std::max(1.0 - e.d * e.opening_velocity, 0.0);
  }
  return e;
}

double HuntCrossleyExpansion::Evaluate(double vn, double* impulse,
                                       double* impulse_derivative_neg) const {
  const double dt = dt_s;
  if (!(vn < opening_velocity)) {  // open (also v̂ = −∞: never in contact)
    if (impulse) *impulse = 0;
    if (impulse_derivative_neg) *impulse_derivative_neg = 0;
    return 0;
  }
  if (opening_velocity == kInf) {
    // k = 0, d = 0, f0 > 0: constant impulse δt·f0, potential −δt·f0·v_n (no open state to
    // reference the potential to).
    if (impulse) *impulse = dt * elastic_force_N;
    if (impulse_derivative_neg) *impulse_derivative_neg = 0;
    return -dt * elastic_force_N * vn;
  }
  const double u = opening_velocity - vn;  // > 0
  if (impulse) *impulse = dt * (a + b * u) * (c + d * u);
  if (impulse_derivative_neg) *impulse_derivative_neg = dt * (b * (c + d * u) + d * (a + b * u));
  return dt * u * (a * c + u * ((a * d + b * c) / 2 + u * (b * d / 3)));
}

double HuntCrossleyExpansion::ClosingStiffness() const { return dt_s * (b * c + d * a); }

double HuntCrossleyNormal::Evaluate(double vn, double* impulse,
                                    double* impulse_derivative_neg) const {
  return Expand().Evaluate(vn, impulse, impulse_derivative_neg);
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

namespace {

// y = −R⁻¹(v_c − v̂) of a SAP contact and the region of the friction cone its projection falls
// in (§2.1): the one classification that Evaluate computes γ by and CalcRegion reports.
struct SapProjection {
  SapContact::Region region = SapContact::Region::kSeparation;
  double yt0 = 0, yt1 = 0, yn = 0;
  double yr = 0;      // ‖y_t‖
  double mu_hat = 0;  // μ̂ = μ R_t / R_n
};

SapProjection ClassifySap(const SapContact::Data& d, const Eigen::Ref<const Eigen::VectorXd>& vc) {
  SapProjection p;
  // R_n = ∞ (k = 0): no normal compliance ⇒ no contact, γ = 0. Exit before 0·∞.
  if (!(d.R_n < kInf) || !(d.R_t < kInf)) return p;
  p.yt0 = -vc(0) / d.R_t;
  p.yt1 = -vc(1) / d.R_t;
  p.yn = -(vc(2) - d.vhat_n) / d.R_n;
  p.yr = std::sqrt(p.yt0 * p.yt0 + p.yt1 * p.yt1);
  p.mu_hat = d.friction * d.R_t / d.R_n;
  // Separation is tested first: with μ = 0 and y_t = 0 the stiction test y_r ≤ μ·y_n holds
  // for every y_n, including y_n < 0. For μ > 0 the two closed regions meet only at y = 0.
  if (p.yn <= -p.mu_hat * p.yr) return p;
  p.region =
      p.yr <= d.friction * p.yn ? SapContact::Region::kStiction : SapContact::Region::kSliding;
  return p;
}

}  // namespace

SapContact::Region SapContact::CalcRegion(const Eigen::Ref<const Eigen::VectorXd>& vc) const {
  assert(vc.size() == 3);
  return ClassifySap(d_, vc).region;
}

double SapContact::Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc,
                            Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  assert(vc.size() == 3 && gamma.size() == 3);
  assert(d_.R_t > 0 && d_.R_n > 0);
  const SapProjection p = ClassifySap(d_, vc);
  if (p.region == Region::kSeparation) {  // γ = 0, G = 0
    gamma.setZero();
    if (G) WriteHessian(Eigen::Matrix2d::Zero(), 0, 0, 0, G);
    return 0.0;
  }
  const double mu = d_.friction;
  const double Rt = d_.R_t;
  const double Rn = d_.R_n;
  const double yt0 = p.yt0, yt1 = p.yt1, yn = p.yn, yr = p.yr, mu_hat = p.mu_hat;

  if (p.region == Region::kStiction) {  // γ = y, G = R⁻¹
    gamma << yt0, yt1, yn;
    if (G) WriteHessian(Eigen::Vector2d::Constant(1 / Rt).asDiagonal(), 0, 0, 1 / Rn, G);
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
    const double c_tn = mu / (one_plus * Rn);
    WriteHessian((c_tt * P + c_perp * (Eigen::Matrix2d::Identity() - P)) / Rt, c_tn * t0, c_tn * t1,
                 1 / (one_plus * Rn), G);
  }
  return 0.5 * (Rt * gt * gt + Rn * gn * gn);
}

bool SapContact::PredictRegime(const Eigen::Ref<const Eigen::VectorXd>& vc,
                               const Eigen::Ref<const Eigen::VectorXd>& dvc,
                               Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  const double mu = d_.friction;
  const double Rt = d_.R_t;
  const double Rn = d_.R_n;
  if (!(Rn < kInf) || !(Rt < kInf)) return false;
  // y at v_c + α·Δv_c.
  const auto y = [&](double alpha) {
    return Eigen::Vector3d(-(vc(0) + alpha * dvc(0)) / Rt, -(vc(1) + alpha * dvc(1)) / Rt,
                           -(vc(2) + alpha * dvc(2) - d_.vhat_n) / Rn);
  };
  const auto in_stiction = [&](const Eigen::Vector3d& ya) {
    return ya.head<2>().norm() <= mu * ya(2) && ya(2) > 0;
  };
  if (in_stiction(y(0))) return false;  // Newton's model is the stiction one already
  const double crossing = StictionCrossing(vc(0), vc(1), dvc(0), dvc(1), 0);
  if (!in_stiction(y(1)) && !(crossing > 0 && in_stiction(y(crossing)))) return false;
  // Stiction's potential ½·yᵀR·y is one quadratic wherever it holds: γ = y, G = R⁻¹.
  gamma = y(0);
  WriteHessian(Eigen::Vector2d::Constant(1 / Rt).asDiagonal(), 0, 0, 1 / Rn, G);
  return true;
}

bool SapContact::VanishesAlong(const Eigen::Ref<const Eigen::VectorXd>& vc,
                               const Eigen::Ref<const Eigen::VectorXd>& dvc,
                               double alpha_max) const {
  if (!(d_.R_n < kInf) || !(d_.R_t < kInf)) return true;  // inactive (Evaluate's first exit)
  // Separation, y_n ≤ −μ̂·y_r, is a convex cone of y = −R⁻¹(v_c − v̂), and y is affine along the
  // line: a segment whose ends separate separates throughout.
  const double mu_hat = d_.friction * d_.R_t / d_.R_n;
  const auto separated = [&](double alpha) {
    const double yt0 = -(vc(0) + alpha * dvc(0)) / d_.R_t;
    const double yt1 = -(vc(1) + alpha * dvc(1)) / d_.R_t;
    const double yn = -(vc(2) + alpha * dvc(2) - d_.vhat_n) / d_.R_n;
    return yn < -mu_hat * std::sqrt(yt0 * yt0 + yt1 * yt1);
  };
  return separated(0) && separated(alpha_max);
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
                             double previous_vn, const DelassusDiagonal& w)
    : normal_(normal.Expand()) {
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
  const double ell_n = normal_.Evaluate(vc(2), &n, G ? &dn_neg : nullptr);
  // Friction bound μγ_n0 is a constant: friction decouples from the normal (consistent, §2.5).
  const double mu_gn0 = d_.friction * std::max(d_.lagged_normal_impulse, 0.0);
  const SoftNorm sn = EvaluateSoftNorm(vc(0), vc(1), d_.epsilon_m_per_s);
  gamma << -mu_gn0 * sn.v_t[0], -mu_gn0 * sn.v_t[1], n;
  if (G) WriteHessian(FrictionHessian(mu_gn0, sn), 0, 0, dn_neg, G);
  return ell_n + mu_gn0 * sn.value;
}

bool LaggedContact::PredictRegime(const Eigen::Ref<const Eigen::VectorXd>& vc,
                                  const Eigen::Ref<const Eigen::VectorXd>& dvc,
                                  Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  const double mu_gn0 = d_.friction * std::max(d_.lagged_normal_impulse, 0.0);
  const double eps = std::max(d_.epsilon_m_per_s, kMinSoftNormWidth);
  const bool sticks = mu_gn0 > 0 && StictionCrossing(vc(0), vc(1), dvc(0), dvc(1), eps) > 0;
  // An open contact closed by the step: the closed side's model at v̂, n ≈ −n'(v̂⁻)·(v̂ − v_n).
  const double vhat = normal_.opening_velocity;
  const double k_closing = normal_.ClosingStiffness();
  const bool closes =
      std::isfinite(vhat) && vc(2) >= vhat && vc(2) + dvc(2) < vhat && k_closing > 0;
  if (!sticks && !closes) return false;
  Evaluate(vc, gamma, G);
  if (sticks) WriteStictionModel(mu_gn0 / eps, vc(0), vc(1), gamma, G);
  if (closes) {
    gamma(2) = k_closing * (vhat - vc(2));
    (*G)(2, 2) = k_closing;
  }
  return true;
}

bool LaggedContact::VanishesAlong(const Eigen::Ref<const Eigen::VectorXd>& vc,
                                  const Eigen::Ref<const Eigen::VectorXd>& dvc,
                                  double alpha_max) const {
  // No friction without a lagged normal impulse; the normal is open where v_n ≥ v̂, and v_n is
  // affine in α — its rounded values v_n + α·Δv_n monotone too, so the ends decide exactly what
  // Evaluate would find at every point between.
  if (d_.friction * std::max(d_.lagged_normal_impulse, 0.0) != 0) return false;
  const double vhat = normal_.opening_velocity;
  return vc(2) >= vhat && vc(2) + alpha_max * dvc(2) >= vhat;
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
  const double ell = normal_.Evaluate(z, &n, G ? &dn_neg : nullptr);
  gamma << -mu * n * sn.v_t[0], -mu * n * sn.v_t[1], n;
  if (G) {
    // −n'(z)·g·gᵀ + μ·n(z)·blockdiag((I − ŝŝᵀ)/s, 0), g = ∂z/∂v_c = [−μŝ; 1].
    const double g0 = -mu * sn.v_t[0], g1 = -mu * sn.v_t[1];
    const Eigen::Matrix2d friction = FrictionHessian(mu * n, sn);
    WriteHessian(friction + dn_neg * Eigen::Vector2d(g0, g1) * Eigen::RowVector2d(g0, g1),
                 dn_neg * g0, dn_neg * g1, dn_neg, G);
  }
  return ell;
}

bool SimilarContact::PredictRegime(const Eigen::Ref<const Eigen::VectorXd>& vc,
                                   const Eigen::Ref<const Eigen::VectorXd>& dvc,
                                   Eigen::Ref<Eigen::VectorXd> gamma, Eigen::MatrixXd* G) const {
  const double mu = d_.friction;
  const double eps = std::max(d_.epsilon_m_per_s, kMinSoftNormWidth);
  // Stiction: at the stick point (0, 0, v_n), z = v_n and ŝ = 0, so ℓ's quadratic there is
  // −N(v_n) + ½·(μ·n(v_n)/ε)·‖v_t‖², G = diag(μn/ε, μn/ε, −n'(v_n)).
  double n = 0, dn_neg = 0;
  normal_.Evaluate(vc(2), &n, &dn_neg);
  if (mu * n > 0 && StictionCrossing(vc(0), vc(1), dvc(0), dvc(1), eps) > 0) {
    WriteStictionModel(mu * n / eps, vc(0), vc(1), gamma, G);
    double* g = G->data();
    g[2] = g[5] = g[6] = g[7] = 0;
    g[8] = dn_neg;
    gamma(2) = n;
    return true;
  }
  // Closing: z = v_n − μ‖v_t‖_s crosses v̂ on the step (to first order, Δz = gᵀΔv_c with
  // g = [−μŝ; 1]): the closed side's model at v̂, n ≈ −n'(v̂⁻)·(v̂ − z), G = −n'(v̂⁻)·g·gᵀ.
  const SoftNorm sn = EvaluateSoftNorm(vc(0), vc(1), eps);
  const Eigen::Vector3d g(-mu * sn.v_t[0], -mu * sn.v_t[1], 1.0);
  const double z = vc(2) - mu * sn.value;
  const double vhat = normal_.opening_velocity;
  const double k_closing = normal_.ClosingStiffness();
  if (!(std::isfinite(vhat) && z >= vhat && z + g.dot(dvc) < vhat && k_closing > 0)) {
    return false;
  }
  gamma = k_closing * (vhat - z) * g;
  *G = k_closing * g * g.transpose();
  return true;
}

bool SimilarContact::VanishesAlong(const Eigen::Ref<const Eigen::VectorXd>& vc,
                                   const Eigen::Ref<const Eigen::VectorXd>& dvc,
                                   double alpha_max) const {
  // Open where z = v_n − μ‖v_t‖_s ≥ v̂. The soft norm is convex along the line, so z is concave
  // in α and its minimum over [0, α_max] is at one of the ends.
  const auto open = [&](double alpha) {
    const SoftNorm sn =
        EvaluateSoftNorm(vc(0) + alpha * dvc(0), vc(1) + alpha * dvc(1), d_.epsilon_m_per_s);
    return vc(2) + alpha * dvc(2) - d_.friction * sn.value >= normal_.opening_velocity;
  };
  return open(0) && open(alpha_max);
}

}  // namespace contactlab
