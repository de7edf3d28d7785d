// Joint-level constraints (docs/contact-model.md §3): PD controller with effort limit and joint
// limits. γ = −∂ℓ/∂v and G = −∂γ/∂v by finite differences in every region and at the kinks,
// hand-computed values, saturation, gain capping, convexity.
#include "engine/solver/joint_constraints.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>

#include "test_support/constraint_checks.h"

namespace contactlab {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

using testing::IsConvexAlongSegment;
using testing::IsKinkConsistent;
using testing::IsWellFormed;
using testing::LogUniform;
using testing::MatchesFiniteDifferences;
using testing::Normal;
using testing::Uniform;
using testing::Where;

constexpr double kPi = std::numbers::pi;

VectorXd V(double v) { return VectorXd::Constant(1, v); }

struct Scalar {
  double ell, gamma, G;
};

// Evaluates a one-row constraint, checking it is well formed there (finite, Cost = Evaluate,
// G ≥ 0).
Scalar Eval(const Constraint& c, double v) {
  EXPECT_EQ(c.num_rows(), 1);
  EXPECT_TRUE(IsWellFormed(c, V(v))) << "v=" << v;
  const testing::ConstraintSample s = testing::EvaluateConstraint(c, V(v));
  return {s.ell, s.gamma(0), s.G(0, 0)};
}

// Smooth point: central differences of ℓ and γ; γ to tol·(|γ| + gamma_scale).
void ExpectMatchesFiniteDifferences(const Constraint& c, double v, double h, double tol,
                                    double gamma_scale, const std::string& where) {
  EXPECT_TRUE(MatchesFiniteDifferences(c, V(v), V(h),
                                       {.relative = tol, .gamma_absolute = tol * gamma_scale}))
      << where;
}

// Kink: the shared checks with sides ∓1e-3·h, and G exactly one side's Hessian.
void ExpectKinkConsistent(const Constraint& c, double v, double h, double tol,
                          const std::string& where) {
  EXPECT_TRUE(IsKinkConsistent(c, V(v), V(h), {V(v - 1e-3 * h), V(v + 1e-3 * h)},
                               {.relative = tol, .side_hessian_relative = 0.0}))
      << where;
}

// ============================================================================================
// PD controller (§3).

PdControllerConstraint::Data RandomPd(std::mt19937& rng) {
  PdControllerConstraint::Data p;
  p.dt_s = LogUniform(rng, -4, -2);
  p.kp = Uniform(rng, 0, 1) < 0.1 ? 0.0 : LogUniform(rng, 0, 6);
  p.kd = Uniform(rng, 0, 1) < 0.1 ? 0.0 : LogUniform(rng, -2, 3);
  if (p.kp == 0 && p.kd == 0) p.kd = 1;
  p.q0 = Normal(rng, 1);
  p.q_desired = Normal(rng, 1);
  p.v_desired = Normal(rng, 1);
  p.feedforward = Normal(rng, 10);
  p.effort_limit = LogUniform(rng, -1, 3);
  return p;
}

// u(v) written from §3 directly.
double Effort(const PdControllerConstraint::Data& p, double v) {
  return -p.kp * (p.q0 + p.dt_s * v - p.q_desired) - p.kd * (v - p.v_desired) + p.feedforward;
}
double Kappa(const PdControllerConstraint::Data& p) { return p.dt_s * p.kp + p.kd; }
// The velocity at which u(v) = u.
double VelocityForEffort(const PdControllerConstraint::Data& p, double u) {
  return (Effort(p, 0) - u) / Kappa(p);
}

TEST(PdControllerTest, ImpulseByHand) {
  // δt = 1 ms, kp = 100, kd = 10, q0 = 0.1, q_d = 0.2, v_d = 0, u_ff = 1, e_max = 5:
  // u(v) = −100(0.1 + 1e-3 v − 0.2) − 10 v + 1 = 11 − 10.1 v.
  const PdControllerConstraint::Data p{.dt_s = 1e-3,
                                       .kp = 100,
                                       .kd = 10,
                                       .q0 = 0.1,
                                       .q_desired = 0.2,
                                       .v_desired = 0,
                                       .feedforward = 1,
                                       .effort_limit = 5};
  const PdControllerConstraint pd(p);
  Scalar s = Eval(pd, 0.0);  // u = 11 > 5: saturated at +δt·e_max
  EXPECT_DOUBLE_EQ(s.gamma, 5e-3);
  EXPECT_EQ(s.G, 0.0);
  EXPECT_EQ(s.ell, 0.0);  // referenced at v = 0
  s = Eval(pd, 1.0);      // u = 0.9: inside
  EXPECT_NEAR(s.gamma, 9e-4, 1e-15);
  EXPECT_NEAR(s.G, 1e-3 * (1e-3 * 100 + 10), 1e-15);  // δt(δt kp + kd) = 0.0101
  // ℓ(1) = −∫₀¹ γ: saturated until u = 5 at v = 6/10.1, then linear down to u = 0.9.
  const double v_sat = 6 / 10.1;
  const double expected = -1e-3 * (5 * v_sat + (1 - v_sat) * 0.5 * (5 + 0.9));
  EXPECT_NEAR(s.ell, expected, 1e-15);
  s = Eval(pd, 2.0);  // u = −9.2: saturated at −δt·e_max
  EXPECT_DOUBLE_EQ(s.gamma, -5e-3);
  EXPECT_EQ(s.G, 0.0);
}

TEST(PdControllerTest, RandomPointsInEveryRegionMatchFiniteDifferences) {
  std::mt19937 rng(51);
  for (int i = 0; i < 3000; ++i) {
    const auto p = RandomPd(rng);
    const PdControllerConstraint pd(p);
    const double e = p.effort_limit;
    // Central differences of a quadratic are exact: a large step only limits roundoff. The
    // kinks are ≥ 0.01·e/κ away.
    const double h = 1e-3 * e / Kappa(p);
    const double scale = p.dt_s * e;
    // Inside the limits.
    double u = e * Uniform(rng, -0.99, 0.99);
    double v = VelocityForEffort(p, u);
    std::string where = Where("PD inside", i);
    ExpectMatchesFiniteDifferences(pd, v, h, 1e-5, scale, where);
    Scalar s = Eval(pd, v);
    EXPECT_NEAR(s.gamma, p.dt_s * Effort(p, v), 1e-9 * (scale + p.dt_s * std::abs(Effort(p, 0))))
        << where;
    EXPECT_NEAR(s.G, p.dt_s * Kappa(p), 1e-14 * p.dt_s * Kappa(p)) << where;
    // Saturated, both sides: γ = ±δt·e_max exactly, G = 0.
    for (int sign : {+1, -1}) {
      u = sign * e * Uniform(rng, 1.01, 5.0);
      v = VelocityForEffort(p, u);
      where = Where(sign > 0 ? "PD saturated +" : "PD saturated −", i);
      ExpectMatchesFiniteDifferences(pd, v, h, 1e-5, scale, where);
      s = Eval(pd, v);
      EXPECT_EQ(s.gamma, sign * p.dt_s * e) << where;
      EXPECT_EQ(s.G, 0.0) << where;
    }
    // ℓ(0) = 0 reference.
    EXPECT_EQ(Eval(pd, 0.0).ell, 0.0);
  }
}

TEST(PdControllerTest, EffortLimitKinks) {
  std::mt19937 rng(52);
  for (int i = 0; i < 2000; ++i) {
    const auto p = RandomPd(rng);
    const PdControllerConstraint pd(p);
    const double e = p.effort_limit;
    const double h = 1e-4 * e / Kappa(p);
    for (int sign : {+1, -1}) {
      const double v = VelocityForEffort(p, sign * e);
      ExpectKinkConsistent(pd, v, h, 1e-4, Where(sign > 0 ? "PD u = +e" : "PD u = −e", i));
    }
  }
}

TEST(PdControllerTest, ConvexAlongRandomSegments) {
  std::mt19937 rng(53);
  for (int i = 0; i < 3000; ++i) {
    const auto p = RandomPd(rng);
    const PdControllerConstraint pd(p);
    const double spread = 3 * p.effort_limit / Kappa(p);
    const double center = VelocityForEffort(p, 0);
    const double a = center + Normal(rng, spread), b = center + Normal(rng, spread);
    EXPECT_TRUE(IsConvexAlongSegment(pd, V(a), V(b))) << i;
  }
}

TEST(PdControllerTest, FeedforwardOnlyAndTinyGains) {
  // κ = 0: γ = δt·clamp(u_ff, ±e) constant, ℓ = −γ·v (linear, Hessian 0).
  PdControllerConstraint::Data p{.dt_s = 1e-3, .feedforward = 7, .effort_limit = 5};
  const PdControllerConstraint ff(p);
  for (double v : {-3.0, 0.0, 2.5}) {
    const Scalar s = Eval(ff, v);
    EXPECT_DOUBLE_EQ(s.gamma, 5e-3);
    EXPECT_EQ(s.G, 0.0);
    EXPECT_NEAR(s.ell, -5e-3 * v, 1e-15);
  }
  // κ → 0 (kd = 1e-300): same as κ = 0, finite, no huge constant in ℓ.
  p.kd = 1e-300;
  const PdControllerConstraint tiny(p);
  for (double v : {-3.0, 0.0, 2.5}) {
    const Scalar s = Eval(tiny, v);
    EXPECT_DOUBLE_EQ(s.gamma, 5e-3);
    EXPECT_NEAR(s.ell, -5e-3 * v, 1e-15);
  }
  // e_max = 0: a dead actuator.
  p.kd = 10;
  p.effort_limit = 0;
  const PdControllerConstraint dead(p);
  const Scalar s = Eval(dead, 0.3);
  EXPECT_EQ(s.gamma, 0.0);
  EXPECT_EQ(s.ell, 0.0);
}

TEST(PdControllerTest, MakeDataTakesTheStepAndCapsTheGains) {
  // kp = 1e10, kd = 1e4 at δt = 1 ms: δt(δt·kp + kd) = 1.001e4 exceeds 4π²/(β²·w) = 3948 for
  // w = 1 and β = 0.1, so both gains scale by the same factor down to that stiffness.
  const PdControllerConstraint::Parameters p{.kp = 1e10,
                                             .kd = 1e4,
                                             .q_desired = 0.3,
                                             .v_desired = -0.2,
                                             .feedforward = 1.5,
                                             .effort_limit = 40};
  const PdControllerConstraint::Data d = PdControllerConstraint::MakeData(p, 1e-3, 0.1, 1.0);
  EXPECT_EQ(d.dt_s, 1e-3);
  EXPECT_EQ(d.q0, 0.1);
  EXPECT_EQ(d.q_desired, 0.3);
  EXPECT_EQ(d.v_desired, -0.2);
  EXPECT_EQ(d.feedforward, 1.5);
  EXPECT_EQ(d.effort_limit, 40);
  EXPECT_NEAR(1e-3 * (1e-3 * d.kp + d.kd), 4 * kPi * kPi / 0.01, 1e-9);
  EXPECT_NEAR(d.kd / d.kp, 1e-6, 1e-18);
}

TEST(PdControllerTest, CapGainsNearRigidRule) {
  // δt = 1 ms, kp = 1e6, kd = 1e3: stiffness δt(δt kp + kd) = 2 [kg/s].
  const PdControllerConstraint::Data p{.dt_s = 1e-3, .kp = 1e6, .kd = 1e3};
  // m = 1 kg (w = 1): cap 4π²/(0.01·1) = 3947.8 ≫ 2 → unchanged.
  auto q = PdControllerConstraint::CapGains(p, 1.0);
  EXPECT_EQ(q.kp, 1e6);
  EXPECT_EQ(q.kd, 1e3);
  // m = 1e-4 kg (w = 1e4): cap 4π²/(0.01·1e4) = 0.394784 → scale 0.197392.
  q = PdControllerConstraint::CapGains(p, 1e4);
  const double cap = 4 * kPi * kPi / (0.01 * 1e4);
  EXPECT_NEAR(cap, 0.3947841760, 1e-9);
  EXPECT_NEAR(q.kp, 1e6 * cap / 2, 1e-6);
  EXPECT_NEAR(q.kd, 1e3 * cap / 2, 1e-9);
  EXPECT_NEAR(q.kd / q.kp, 1e-3, 1e-15);  // kd/kp kept
  EXPECT_NEAR(q.dt_s * (q.dt_s * q.kp + q.kd), cap, 1e-12);
  // β honoured: β = 1, w = 100: cap 4π²/100 = 0.3948 < 2.
  q = PdControllerConstraint::CapGains(p, 100.0, 1.0);
  EXPECT_NEAR(q.dt_s * (q.dt_s * q.kp + q.kd), 4 * kPi * kPi / 100.0, 1e-12);
  // Infinite mass (w = 0): unchanged.
  q = PdControllerConstraint::CapGains(p, 0.0);
  EXPECT_EQ(q.kp, 1e6);
  // Random: never above the cap, ratio kept, unchanged when below.
  std::mt19937 rng(54);
  for (int i = 0; i < 1000; ++i) {
    const auto r = RandomPd(rng);
    const double w = LogUniform(rng, -3, 5);
    const auto c = PdControllerConstraint::CapGains(r, w);
    const double limit = 4 * kPi * kPi / (0.01 * w);
    const double before = r.dt_s * Kappa(r), after = c.dt_s * Kappa(c);
    EXPECT_LE(after, limit * (1 + 1e-14)) << i;
    if (before <= limit) {
      EXPECT_EQ(c.kp, r.kp);
      EXPECT_EQ(c.kd, r.kd);
    } else {
      EXPECT_NEAR(after, limit, 1e-12 * limit) << i;
      EXPECT_NEAR(c.kp * r.kd, c.kd * r.kp, 1e-12 * std::abs(c.kp * r.kd) + 1e-300) << i;
    }
    EXPECT_EQ(c.effort_limit, r.effort_limit);
  }
}

// ============================================================================================
// Joint limit (§3).

TEST(JointLimitTest, MakeDataByHand) {
  // δt = 1 ms, 1 cm from the limit, w = 2: R = β²w/(4π²) = 2/(4π²), v̂ = −0.01/1e-3 = −10.
  auto p = JointLimitConstraint::MakeData({}, 1e-3, 0.01, 2.0);
  EXPECT_NEAR(p.R, 2.0 / (4 * kPi * kPi), 1e-15);
  EXPECT_NEAR(p.vhat, -10.0, 1e-12);
  // τ = 10 ms: v̂ = −0.01/0.011.
  p = JointLimitConstraint::MakeData({.relaxation_time_s = 0.01}, 1e-3, 0.01, 2.0);
  EXPECT_NEAR(p.vhat, -0.01 / 0.011, 1e-12);
  // Soft limit k = 1e4, τ = 0: compliance 1/(1e-3·1e4·1e-3) = 100 wins.
  p = JointLimitConstraint::MakeData({.relaxation_time_s = 0.0, .beta = 1.0, .stiffness = 1e4},
                                     1e-3, 0.01, 2.0);
  EXPECT_NEAR(p.R, 100.0, 1e-12);
  // β = 0.5.
  p = JointLimitConstraint::MakeData({.relaxation_time_s = 0.0, .beta = 0.5}, 1e-3, -0.02, 2.0);
  EXPECT_NEAR(p.R, 0.25 * 2.0 / (4 * kPi * kPi), 1e-15);
  EXPECT_NEAR(p.vhat, 20.0, 1e-12);  // already past the limit: pushes back out
}

TEST(JointLimitTest, ImpulseByHandAndFiniteDifferences) {
  const auto p = JointLimitConstraint::MakeData({}, 1e-3, 0.01, 2.0);
  const JointLimitConstraint limit(p);
  // v = −12: γ = 2/R = 2·4π²/2 = 4π².
  Scalar s = Eval(limit, -12.0);
  EXPECT_NEAR(s.gamma, 4 * kPi * kPi, 1e-9);
  EXPECT_NEAR(s.G, 1 / p.R, 1e-12);
  EXPECT_NEAR(s.ell, 0.5 * p.R * s.gamma * s.gamma, 1e-9);
  // q0 + δt v stays inside the limit: nothing.
  s = Eval(limit, -9.0);
  EXPECT_EQ(s.gamma, 0.0);
  EXPECT_EQ(s.ell, 0.0);
  EXPECT_EQ(s.G, 0.0);

  std::mt19937 rng(61);
  for (int i = 0; i < 3000; ++i) {
    const double dt = LogUniform(rng, -4, -2), distance = Normal(rng, 0.05);
    const double w = LogUniform(rng, -3, 3);
    JointLimitConstraint::Parameters physics;
    physics.relaxation_time_s = Uniform(rng, 0, 1) < 0.5 ? 0.0 : LogUniform(rng, -3, -1);
    physics.beta = Uniform(rng, 0.1, 1.0);
    physics.stiffness =
        Uniform(rng, 0, 1) < 0.5 ? std::numeric_limits<double>::infinity() : LogUniform(rng, 2, 8);
    const auto q = JointLimitConstraint::MakeData(physics, dt, distance, w);
    const JointLimitConstraint c(q);
    // y = −(v − v̂)/R on the scale where R·y is comparable with v̂ (well conditioned in v).
    const double y_scale = (std::abs(q.vhat) + 1) / q.R;
    const double y = Normal(rng, y_scale);
    if (std::abs(y) < 1e-3 * y_scale) continue;
    const double v = q.vhat - q.R * y;
    const double h = 1e-7 * q.R * y_scale;
    const std::string where = Where(y > 0 ? "limit active" : "limit inactive", i);
    ExpectMatchesFiniteDifferences(c, v, h, 1e-6, 0.0, where);
    s = Eval(c, v);
    EXPECT_NEAR(s.gamma, std::max(0.0, y), 1e-12 * y_scale) << where;
    EXPECT_EQ(s.G, y > 0 ? 1 / q.R : 0.0) << where;
    EXPECT_GE(s.ell, 0.0) << where;
    // Kink at v = v̂.
    ExpectKinkConsistent(c, q.vhat, h, 1e-4, Where("limit v = v̂", i));
    EXPECT_EQ(Eval(c, q.vhat).gamma, 0.0);
    // Convexity.
    const double a = q.vhat + q.R * Normal(rng, y_scale);
    const double b = q.vhat + q.R * Normal(rng, y_scale);
    EXPECT_TRUE(IsConvexAlongSegment(c, V(a), V(b))) << where;
  }
}

TEST(JointLimitTest, ZeroStiffnessIsInactiveWithoutNaN) {
  const auto p = JointLimitConstraint::MakeData(
      {.relaxation_time_s = 0.0, .beta = 1.0, .stiffness = 0.0}, 1e-3, 0.01, 2.0);
  EXPECT_TRUE(std::isinf(p.R));
  const JointLimitConstraint limit(p);
  for (double v : {-1e6, -12.0, 0.0, 3.0}) {
    const Scalar s = Eval(limit, v);
    EXPECT_EQ(s.gamma, 0.0);
    EXPECT_EQ(s.ell, 0.0);
    EXPECT_EQ(s.G, 0.0);
  }
}

}  // namespace
}  // namespace contactlab
