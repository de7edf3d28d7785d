// Contact constraints (docs/contact-model.md §2.1–§2.4): at seeded random points in every region
// and on every region boundary, γ = −∂ℓ/∂v_c and G = −∂γ/∂v_c by finite differences, G symmetric
// PSD, ℓ ≥ 0 (= 0 when open), convexity, and hand-computed values; SAP's CalcRegion names the
// region Evaluate computed γ in.
#include "engine/solver/contact_constraints.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "test_support/constraint_checks.h"

namespace contactlab {
namespace {

using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

using testing::ConstraintCost;
using testing::ConstraintImpulse;
using testing::ConstraintSample;
using testing::EvaluateConstraint;
using testing::IsConvexAlongSegment;
using testing::IsKinkConsistent;
using testing::IsWellFormed;
using testing::LogUniform;
using testing::MatchesFiniteDifferences;
using testing::MaxAbs;
using testing::Normal;
using testing::Uniform;
using testing::Where;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = std::numbers::pi;

// ============================================================================================
// SAP (§2.1). Points are built in y = −R⁻¹(v_c − v̂) space, where the regions are cones.

struct SapCase {
  SapContact::Data p;
  double mu_hat() const { return p.friction * p.R_t / p.R_n; }
  // v_c = v̂ − R y for y = (y_r t̂, y_n).
  VectorXd VelocityFromY(double yr, double angle, double yn) const {
    return Vector3d(-p.R_t * yr * std::cos(angle), -p.R_t * yr * std::sin(angle),
                    p.vhat_n - p.R_n * yn);
  }
  // Steps of ~1e-7 in y, but never below 1e-9 relative to v (roundoff of v = v̂ − R y).
  VectorXd Step(const VectorXd& v) const {
    return Vector3d(1e-7 * p.R_t + 1e-9 * std::abs(v(0)), 1e-7 * p.R_t + 1e-9 * std::abs(v(1)),
                    1e-7 * p.R_n + 1e-9 * std::abs(v(2)));
  }
};

SapCase RandomSap(std::mt19937& rng) {
  SapCase c;
  c.p.friction = Uniform(rng, 0.1, 1.5);
  c.p.R_t = LogUniform(rng, -4, 0);
  c.p.R_n = LogUniform(rng, -4, 0);
  c.p.vhat_n = Normal(rng, 0.1);
  return c;
}

// Independent SAP reference: projection of y on the friction cone in the R-norm, by brute force
// over the cone boundary (plus the apex and y itself when it is inside).
Vector3d ProjectOnConeBruteForce(const Vector3d& y, double mu, double Rt, double Rn) {
  const double yr = std::hypot(y(0), y(1));
  if (yr <= mu * y(2)) return y;
  // The projection lies in the plane of y_t and the axis: γ = (r t̂, r/μ), r ≥ 0 minimizing
  // Rt (r − y_r)² + Rn (r/μ − y_n)²  ⇒  r = (Rt y_r + Rn y_n/μ)/(Rt + Rn/μ²), clamped at 0.
  const double r = std::max(0.0, (Rt * yr + Rn * y(2) / mu) / (Rt + Rn / (mu * mu)));
  const double tx = yr > 0 ? y(0) / yr : 0, ty = yr > 0 ? y(1) / yr : 0;
  return Vector3d(r * tx, r * ty, r / mu);
}

TEST(SapContactTest, StictionRegionMatchesClosedFormAndFiniteDifferences) {
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; ++i) {
    const SapCase c = RandomSap(rng);
    const SapContact sap(c.p);
    const double yn = Uniform(rng, 0.1, 1.0);
    const double yr = Uniform(rng, 0.0, 0.99) * c.p.friction * yn;
    const VectorXd v = c.VelocityFromY(yr, Uniform(rng, 0, 2 * kPi), yn);
    const std::string where = Where("stick", i);
    EXPECT_TRUE(MatchesFiniteDifferences(sap, v, c.Step(v), {.relative = 1e-5})) << where;
    const ConstraintSample s = EvaluateConstraint(sap, v);
    // γ = −R⁻¹(v_c − v̂), G = R⁻¹, ℓ = ½ γᵀRγ.
    const Vector3d R(c.p.R_t, c.p.R_t, c.p.R_n);
    const Vector3d vhat(0, 0, c.p.vhat_n);
    const Vector3d expected = -(Vector3d(v) - vhat).cwiseQuotient(R);
    EXPECT_LE(MaxAbs(s.gamma - expected), 1e-12 * MaxAbs(expected)) << where;
    EXPECT_LE(MaxAbs(s.G - MatrixXd(R.cwiseInverse().asDiagonal())), 1e-12 * MaxAbs(s.G));
    EXPECT_NEAR(s.ell, 0.5 * expected.dot(R.cwiseProduct(expected)), 1e-12 * s.ell) << where;
    EXPECT_EQ(sap.CalcRegion(v), SapContact::Region::kStiction) << where;
  }
}

TEST(SapContactTest, SlidingRegionMatchesProjectionAndFiniteDifferences) {
  std::mt19937 rng(12);
  for (int i = 0; i < 2000; ++i) {
    const SapCase c = RandomSap(rng);
    const SapContact sap(c.p);
    const double mu = c.p.friction;
    const double yr = Uniform(rng, 0.1, 1.0);
    const double yn = -c.mu_hat() * yr + Uniform(rng, 0.01, 0.99) * (yr / mu + c.mu_hat() * yr);
    const double angle = Uniform(rng, 0, 2 * kPi);
    const VectorXd v = c.VelocityFromY(yr, angle, yn);
    const std::string where = Where("slide", i);
    EXPECT_TRUE(MatchesFiniteDifferences(sap, v, c.Step(v), {.relative = 1e-5})) << where;
    const ConstraintSample s = EvaluateConstraint(sap, v);
    // On the cone surface, friction opposes the slip direction of v_t.
    const double gn = s.gamma(2);
    EXPECT_GT(gn, 0) << where;
    EXPECT_NEAR(s.gamma.head<2>().norm(), mu * gn, 1e-12 * gn) << where;
    EXPECT_LT(s.gamma.head<2>().dot(v.head<2>()), 0) << where;
    // It is the R-norm projection of y (independent brute-force reference).
    const Vector3d y(yr * std::cos(angle), yr * std::sin(angle), yn);
    const Vector3d ref = ProjectOnConeBruteForce(y, mu, c.p.R_t, c.p.R_n);
    EXPECT_LE(MaxAbs(s.gamma - ref), 1e-9 * MaxAbs(ref)) << where;
    EXPECT_EQ(sap.CalcRegion(v), SapContact::Region::kSliding) << where;
  }
}

TEST(SapContactTest, SeparationRegionIsZero) {
  std::mt19937 rng(13);
  for (int i = 0; i < 2000; ++i) {
    const SapCase c = RandomSap(rng);
    const SapContact sap(c.p);
    const double yn = -Uniform(rng, 0.1, 1.0);
    const double yr = Uniform(rng, 0.0, 0.99) * (-yn) / c.mu_hat();
    const VectorXd v = c.VelocityFromY(yr, Uniform(rng, 0, 2 * kPi), yn);
    const std::string where = Where("separation", i);
    EXPECT_TRUE(MatchesFiniteDifferences(sap, v, c.Step(v), {.relative = 1e-5})) << where;
    const ConstraintSample s = EvaluateConstraint(sap, v);
    EXPECT_EQ(s.ell, 0.0) << where;
    EXPECT_EQ(MaxAbs(s.gamma), 0.0) << where;
    EXPECT_EQ(MaxAbs(s.G), 0.0) << where;
    EXPECT_EQ(sap.CalcRegion(v), SapContact::Region::kSeparation) << where;
  }
}

TEST(SapContactTest, RegionBoundariesAreConsistentFromBothSides) {
  std::mt19937 rng(14);
  for (int i = 0; i < 1000; ++i) {
    const SapCase c = RandomSap(rng);
    const SapContact sap(c.p);
    const double mu = c.p.friction;
    const double angle = Uniform(rng, 0, 2 * kPi);
    const double off = 1e-7;
    {  // stick / slide: y_r = μ y_n
      const double yn = Uniform(rng, 0.1, 1.0);
      const double yr = mu * yn;
      const VectorXd v = c.VelocityFromY(yr, angle, yn);
      EXPECT_TRUE(IsKinkConsistent(
          sap, v, c.Step(v),
          {c.VelocityFromY(yr * (1 - off), angle, yn), c.VelocityFromY(yr * (1 + off), angle, yn)},
          {.relative = 1e-4}))
          << Where("stick/slide", i);
    }
    {  // slide / separation: y_n = −μ̂ y_r
      const double yr = Uniform(rng, 0.1, 1.0);
      const double yn = -c.mu_hat() * yr;
      const VectorXd v = c.VelocityFromY(yr, angle, yn);
      EXPECT_TRUE(IsKinkConsistent(
          sap, v, c.Step(v),
          {c.VelocityFromY(yr * (1 - off), angle, yn), c.VelocityFromY(yr * (1 + off), angle, yn)},
          {.relative = 1e-4}))
          << Where("slide/separation", i);
    }
    {  // apex y = 0 (v_c = v̂): all three regions meet; γ = 0 and ℓ = 0 there.
      const VectorXd v = c.VelocityFromY(0, angle, 0);
      EXPECT_TRUE(IsWellFormed(sap, v)) << Where("apex", i);
      const ConstraintSample s = EvaluateConstraint(sap, v);
      EXPECT_EQ(s.ell, 0.0);
      EXPECT_EQ(MaxAbs(s.gamma), 0.0);
      // ℓ ≈ ½ yᵀRy ⇒ its central difference is O(h/R) at the apex.
      const VectorXd h = c.Step(v);
      const testing::CentralDifferences fd(sap, v, h);
      EXPECT_LE(MaxAbs(fd.neg_gradient), 3 * MaxAbs(h) / std::min(c.p.R_t, c.p.R_n)) << i;
    }
  }
}

TEST(SapContactTest, CalcRegionNamesTheRegionEvaluateComputedGammaIn) {
  // Points within a few ulps of the two boundaries, where another test of the same region (say
  // ‖v_t‖ ≤ μ R_t γ_n) could round the other way: G tells which formula Evaluate used — 0
  // (separation), R⁻¹ (stiction) or G_nn = 1/((1 + μμ̂) R_n) (sliding) — and it is always that of
  // the region CalcRegion names.
  std::mt19937 rng(17);
  int count[3] = {0, 0, 0};
  for (int i = 0; i < 4000; ++i) {
    const SapCase c = RandomSap(rng);
    const SapContact sap(c.p);
    const double mu = c.p.friction, Rt = c.p.R_t, Rn = c.p.R_n;
    const double yr = Uniform(rng, 0.1, 1.0);
    const double off = 1 + 1e-15 * Uniform(rng, -4, 4);
    const double yn = i % 2 ? yr / mu * off : -c.mu_hat() * yr * off;
    const VectorXd v = c.VelocityFromY(yr, Uniform(rng, 0, 2 * kPi), yn);
    const ConstraintSample s = EvaluateConstraint(sap, v);
    const SapContact::Region region = sap.CalcRegion(v);
    ++count[static_cast<int>(region)];
    const std::string where = Where("boundary", i);
    switch (region) {
      case SapContact::Region::kSeparation:
        EXPECT_EQ(MaxAbs(s.G), 0.0) << where;
        EXPECT_EQ(MaxAbs(s.gamma), 0.0) << where;
        break;
      case SapContact::Region::kStiction:
        EXPECT_EQ(s.G(0, 0), 1 / Rt) << where;
        EXPECT_EQ(s.G(0, 2), 0.0) << where;
        EXPECT_EQ(s.G(2, 2), 1 / Rn) << where;
        break;
      case SapContact::Region::kSliding:
        EXPECT_DOUBLE_EQ(s.G(2, 2), 1 / ((1 + mu * (mu * Rt / Rn)) * Rn)) << where;
        EXPECT_GT(s.gamma(2), 0) << where;
        break;
    }
  }
  // Both sides of both boundaries were met.
  for (const int n : count) EXPECT_GT(n, 200);
}

TEST(SapContactTest, ExactlyZeroTangentialVelocity) {
  // v_t = 0 ⇒ y_t = 0, y_r = 0: stiction for v_n < v̂, separation for v_n ≥ v̂; no 0/0.
  std::mt19937 rng(15);
  for (int i = 0; i < 500; ++i) {
    const SapCase c = RandomSap(rng);
    const SapContact sap(c.p);
    const double yn = Uniform(rng, -1, 1);
    const VectorXd v = Vector3d(0, 0, c.p.vhat_n - c.p.R_n * yn);
    const std::string where = Where("v_t = 0", i);
    EXPECT_TRUE(IsWellFormed(sap, v)) << where;
    const ConstraintSample s = EvaluateConstraint(sap, v);
    EXPECT_EQ(s.gamma(0), 0.0);
    EXPECT_EQ(s.gamma(1), 0.0);
    if (yn > 0) {
      // v = v̂ − R_n y_n rounds by ~ulp(v̂): y_n is recovered to ~1e-16·|v̂|/R_n.
      EXPECT_NEAR(s.gamma(2), yn,
                  1e-12 * yn + 1e-15 * (std::abs(c.p.vhat_n) + std::abs(v(2))) / c.p.R_n)
          << where;
      EXPECT_DOUBLE_EQ(s.G(0, 0), 1 / c.p.R_t) << where;
      EXPECT_TRUE(MatchesFiniteDifferences(sap, v, c.Step(v), {.relative = 1e-5})) << where;
    } else {
      EXPECT_EQ(s.gamma(2), 0.0) << where;
    }
  }
}

TEST(SapContactTest, FrictionlessIsOneSidedNormal) {
  // μ = 0: the stiction test y_r ≤ μ y_n alone would accept y_t = 0, y_n < 0 (pulling).
  SapContact::Data p{.friction = 0, .R_t = 1e-3, .R_n = 1e-2, .vhat_n = 0.05};
  const SapContact sap(p);
  for (double vt : {0.0, 0.3}) {
    for (double vn : {-0.2, 0.0, 0.05, 0.2}) {
      const VectorXd v = Vector3d(vt, -vt, vn);
      const std::string where = "vt=" + std::to_string(vt) + " vn=" + std::to_string(vn);
      EXPECT_TRUE(IsWellFormed(sap, v)) << where;
      const ConstraintSample s = EvaluateConstraint(sap, v);
      const double expected_gn = std::max(0.0, -(vn - p.vhat_n) / p.R_n);
      EXPECT_NEAR(s.gamma(2), expected_gn, 1e-12) << where;
      EXPECT_EQ(s.gamma(0), 0.0) << where;
      EXPECT_EQ(s.gamma(1), 0.0) << where;
      EXPECT_NEAR(s.ell, 0.5 * p.R_n * expected_gn * expected_gn, 1e-12) << where;
    }
  }
}

TEST(SapContactTest, MakeDataByHand) {
  // δt = 1 ms, τ_d = 0.1 s, φ0 = −1 mm, w_t = 2, w_n = 3 kg⁻¹, μ = 0.5.
  // k = 1e6: compliance 1/(1e-3·1e6·0.101) = 9.90e-3 < near-rigid 3/(4π²) = 7.599e-2.
  auto p =
      SapContact::MakeData({.stiffness_N_per_m = 1e6, .relaxation_time_s = 0.1, .friction = 0.5},
                           1e-3, -1e-3, {2.0, 3.0});
  EXPECT_NEAR(p.R_n, 3.0 / (4 * kPi * kPi), 1e-15);
  EXPECT_NEAR(p.R_t, 2e-3, 1e-18);
  EXPECT_NEAR(p.vhat_n, 1e-3 / 0.101, 1e-15);
  EXPECT_EQ(p.friction, 0.5);
  // k = 1e3: compliance 1/(1e-3·1e3·0.101) = 9.901 wins.
  p = SapContact::MakeData({.stiffness_N_per_m = 1e3, .relaxation_time_s = 0.1, .friction = 0.5},
                           1e-3, -1e-3, {2.0, 3.0});
  EXPECT_NEAR(p.R_n, 1.0 / 0.101, 1e-12);
  // σ, β honoured.
  p = SapContact::MakeData({.stiffness_N_per_m = 1e9,
                            .relaxation_time_s = 0.0,
                            .friction = 0.5,
                            .sigma = 1e-2,
                            .beta = 0.5},
                           1e-3, 2e-3, {2.0, 3.0});
  EXPECT_NEAR(p.R_t, 2e-2, 1e-17);
  EXPECT_NEAR(p.R_n, 0.25 * 3.0 / (4 * kPi * kPi), 1e-15);
  EXPECT_NEAR(p.vhat_n, -2.0, 1e-12);
}

TEST(SapContactTest, ZeroStiffnessIsInactiveWithoutNaN) {
  const auto p =
      SapContact::MakeData({.stiffness_N_per_m = 0.0, .relaxation_time_s = 0.1, .friction = 0.5},
                           1e-3, -1e-3, {2.0, 3.0});
  EXPECT_TRUE(std::isinf(p.R_n));
  const SapContact sap(p);
  for (const VectorXd& v : {VectorXd(Vector3d(0, 0, 0)), VectorXd(Vector3d(0.1, 0, -1)),
                            VectorXd(Vector3d(0, 0, -1e3))}) {
    EXPECT_TRUE(IsWellFormed(sap, v)) << "k = 0";
    const ConstraintSample s = EvaluateConstraint(sap, v);
    EXPECT_EQ(s.ell, 0.0);
    EXPECT_EQ(MaxAbs(s.gamma), 0.0);
    EXPECT_EQ(MaxAbs(s.G), 0.0);
    EXPECT_EQ(sap.CalcRegion(v), SapContact::Region::kSeparation);
  }
}

TEST(SapContactTest, ConvexAlongRandomSegments) {
  std::mt19937 rng(16);
  for (int i = 0; i < 3000; ++i) {
    const SapCase c = RandomSap(rng);
    const SapContact sap(c.p);
    const double scale = std::max(c.p.R_t, c.p.R_n);
    const VectorXd a = Vector3d(Normal(rng, scale), Normal(rng, scale), Normal(rng, scale));
    const VectorXd b = Vector3d(Normal(rng, scale), Normal(rng, scale), Normal(rng, scale));
    EXPECT_TRUE(IsConvexAlongSegment(sap, a, b)) << Where("SAP convexity", i);
    EXPECT_TRUE(IsWellFormed(sap, a)) << Where("SAP random", i);
    EXPECT_GE(ConstraintCost(sap, a), 0.0);
  }
}

// ============================================================================================
// Hunt & Crossley normal (§2.2).

// The law written directly from §2.2, independent of the implementation.
double ReferenceImpulse(const HuntCrossleyNormal& hc, double vn) {
  return hc.dt_s * hc.stiffness_N_per_m * std::max(hc.penetration_m - hc.dt_s * vn, 0.0) *
         std::max(1 - hc.dissipation_s_per_m * vn, 0.0);
}

// ℓ_n(v) = ∫_v^{v̂} n: n is a quadratic polynomial on [v, v̂], so Simpson's rule is exact.
double ReferencePotential(const HuntCrossleyNormal& hc, double vn, double vhat) {
  if (vn >= vhat) return 0;
  return (vhat - vn) / 6 *
         (ReferenceImpulse(hc, vn) + 4 * ReferenceImpulse(hc, 0.5 * (vn + vhat)) +
          ReferenceImpulse(hc, vhat));
}

double ReferenceOpening(const HuntCrossleyNormal& hc) {
  const double d = hc.dissipation_s_per_m;
  return std::min(hc.penetration_m / hc.dt_s,
                  d > 0 ? 1 / d : std::numeric_limits<double>::infinity());
}

HuntCrossleyNormal RandomNormal(std::mt19937& rng) {
  HuntCrossleyNormal hc;
  hc.dt_s = LogUniform(rng, -4, -2);
  hc.stiffness_N_per_m = LogUniform(rng, 3, 8);
  hc.dissipation_s_per_m = Uniform(rng, 0, 1) < 0.15 ? 0.0 : Uniform(rng, 0, 100);
  hc.penetration_m = Normal(rng, 1e-3);
  return hc;
}

// The normal law as a one-row Constraint of v_n (ℓ_n, n, −n' from Potential, Impulse and
// ImpulseDerivativeNeg), so the shared checks apply to it; Evaluate must agree with them.
class HuntCrossleyConstraint final : public Constraint {
 public:
  explicit HuntCrossleyConstraint(const HuntCrossleyNormal& hc) : hc_(hc) {}
  int num_rows() const override { return 1; }
  double Evaluate(const Eigen::Ref<const VectorXd>& vc, Eigen::Ref<VectorXd> gamma,
                  MatrixXd* G) const override {
    gamma(0) = hc_.Impulse(vc(0));
    if (G != nullptr) (*G)(0, 0) = hc_.ImpulseDerivativeNeg(vc(0));
    return hc_.Potential(vc(0));
  }

 private:
  HuntCrossleyNormal hc_;
};

VectorXd Scalar(double x) { return VectorXd::Constant(1, x); }

double NormalStep(double vn, double vhat) {
  return 1e-7 * (std::abs(vn) + (std::isfinite(vhat) ? std::abs(vhat) : 0) + 1e-6);
}

TEST(HuntCrossleyNormalTest, ImpulseByHand) {
  HuntCrossleyNormal hc{
      .dt_s = 1e-3, .stiffness_N_per_m = 1e6, .dissipation_s_per_m = 50, .penetration_m = 1e-3};
  // v̂ = min(1e-3/1e-3, 1/50) = 0.02 m/s.
  EXPECT_DOUBLE_EQ(hc.OpeningVelocity(), 0.02);
  // v_n = −0.1: 1e-3·1e6·(1e-3 + 1e-4)·(1 + 5) = 6.6 N·s.
  EXPECT_NEAR(hc.Impulse(-0.1), 6.6, 1e-12);
  // v_n = 0.01: 1e3·(1e-3 − 1e-5)·(1 − 0.5) = 0.495 N·s.
  EXPECT_NEAR(hc.Impulse(0.01), 0.495, 1e-12);
  // −n' = δt·k·[δt(1 − d v) + d(x0 − δt v)] at v = 0.01: 1e3·[1e-3·0.5 + 50·9.9e-4] = 50.
  EXPECT_NEAR(hc.ImpulseDerivativeNeg(0.01), 50.0, 1e-10);
  // ℓ_n(0.01) = ∫_{0.01}^{0.02} 1e3(1e-3 − 1e-3 s)(1 − 50 s) ds
  //           = ∫ (1 − s)(1 − 50 s) ds = [s − 51 s²/2 + 50 s³/3] = 0.0024916666…
  EXPECT_NEAR(hc.Potential(0.01), 0.01 - 51 * (4e-4 - 1e-4) / 2 + 50 * (8e-6 - 1e-6) / 3, 1e-15);
  EXPECT_EQ(hc.Impulse(0.02), 0.0);
  EXPECT_EQ(hc.Potential(0.03), 0.0);
  // d = 0: v̂ = x0/δt = 1 m/s, n = δt k (x0 − δt v).
  hc.dissipation_s_per_m = 0;
  EXPECT_DOUBLE_EQ(hc.OpeningVelocity(), 1.0);
  EXPECT_NEAR(hc.Impulse(0.5), 0.5, 1e-12);
  EXPECT_NEAR(hc.Potential(0.5), 1e3 * 1e-3 * 0.5 * 0.5 / 2, 1e-15);  // δt²k·u²/2
  // Separated within the margin, x0 = −1 mm: v̂ = −1 m/s; acts only if approaching faster.
  hc.dissipation_s_per_m = 50;
  hc.penetration_m = -1e-3;
  EXPECT_DOUBLE_EQ(hc.OpeningVelocity(), -1.0);
  EXPECT_EQ(hc.Impulse(-0.5), 0.0);
  // v = −2: 1e3·(−1e-3 + 2e-3)·(1 + 100) = 101 N·s.
  EXPECT_NEAR(hc.Impulse(-2.0), 101.0, 1e-10);
}

TEST(HuntCrossleyNormalTest, RandomPointsMatchReferenceAndDerivatives) {
  std::mt19937 rng(21);
  int active = 0, open = 0;
  for (int i = 0; i < 5000; ++i) {
    const HuntCrossleyNormal hc = RandomNormal(rng);
    const double vhat = ReferenceOpening(hc);
    EXPECT_DOUBLE_EQ(hc.OpeningVelocity(), vhat);
    const double vn = (std::isfinite(vhat) ? vhat : 0) + Normal(rng, 0.05);
    const double h = NormalStep(vn, vhat);
    if (std::abs(vn - vhat) < 100 * h) continue;
    const std::string where = Where("HC", i);
    const double n = hc.Impulse(vn), dn = hc.ImpulseDerivativeNeg(vn), ell = hc.Potential(vn);
    ASSERT_TRUE(std::isfinite(n) && std::isfinite(dn) && std::isfinite(ell)) << where;
    double n2 = kNaN, dn2 = kNaN;
    EXPECT_EQ(hc.Evaluate(vn, &n2, &dn2), ell) << where;
    EXPECT_EQ(n2, n) << where;
    EXPECT_EQ(dn2, dn) << where;
    const double n_ref = ReferenceImpulse(hc, vn);
    EXPECT_NEAR(n, n_ref, 1e-9 * n_ref) << where;
    const double ell_ref = ReferencePotential(hc, vn, vhat);
    EXPECT_NEAR(ell, ell_ref, 1e-10 * ell_ref) << where;
    EXPECT_GE(ell, 0.0) << where;
    // n = −ℓ_n', −n' = ℓ_n'' ≥ 0.
    EXPECT_TRUE(MatchesFiniteDifferences(HuntCrossleyConstraint(hc), Scalar(vn), Scalar(h),
                                         {.relative = 1e-6}))
        << where;
    if (vn < vhat) {
      ++active;
      EXPECT_GT(n, 0.0) << where;
    } else {
      ++open;
      EXPECT_EQ(n, 0.0) << where;
      EXPECT_EQ(ell, 0.0) << where;
      EXPECT_EQ(dn, 0.0) << where;
    }
  }
  EXPECT_GT(active, 1000);
  EXPECT_GT(open, 1000);
}

TEST(HuntCrossleyNormalTest, OpeningVelocityKinks) {
  // v_n = v̂ with v̂ = x0/δt (elastic part opens first) and with v̂ = 1/d (dissipation first).
  std::mt19937 rng(22);
  int elastic = 0, dissipative = 0;
  for (int i = 0; i < 2000; ++i) {
    const HuntCrossleyNormal hc = RandomNormal(rng);
    const double vhat = hc.OpeningVelocity();
    const double h = NormalStep(vhat, vhat);
    const bool elastic_first = hc.penetration_m / hc.dt_s <= 1 / hc.dissipation_s_per_m;
    (elastic_first ? elastic : dissipative)++;
    const std::string where = Where(elastic_first ? "v̂ = x0/δt" : "v̂ = 1/d", i);
    EXPECT_EQ(hc.Impulse(vhat), 0.0) << where;
    EXPECT_EQ(hc.Potential(vhat), 0.0) << where;
    // One-sided: from the open side n' = 0, from the active side −n'(v̂⁻) = slope of n.
    const double fwd = -(hc.Impulse(vhat + h) - hc.Impulse(vhat)) / h;
    const double bwd = -(hc.Impulse(vhat) - hc.Impulse(vhat - h)) / h;
    const double dn = hc.ImpulseDerivativeNeg(vhat);
    EXPECT_EQ(fwd, 0.0) << where;
    EXPECT_TRUE(std::abs(dn - fwd) <= 1e-5 * bwd || std::abs(dn - bwd) <= 1e-5 * bwd) << where;
    // The active-side slope by hand: δt k [δt(1 − d v̂) + d(x0 − δt v̂)].
    const double k = hc.stiffness_N_per_m, d = hc.dissipation_s_per_m, dt = hc.dt_s;
    const double slope = dt * k * (dt * (1 - d * vhat) + d * (hc.penetration_m - dt * vhat));
    // Backward difference of the quadratic n: off by n''·h/2, n'' = 2δt·δt·k·d.
    EXPECT_NEAR(bwd, slope, 1e-5 * slope + dt * dt * k * d * h) << where;
    EXPECT_NEAR(hc.ImpulseDerivativeNeg(vhat - 1e-9 * std::abs(vhat) - 1e-300), slope, 1e-6 * slope)
        << where;
    // ℓ is C¹ (the central difference of ℓ still gives n(v̂) = 0 to O(h)), −n'(v̂) is one of
    // the one-sided slopes and the Hessian of one side.
    const double off = 1e-3 * h;
    EXPECT_TRUE(IsKinkConsistent(HuntCrossleyConstraint(hc), Scalar(vhat), Scalar(h),
                                 {Scalar(vhat - off), Scalar(vhat + off)}, {.relative = 1e-5}))
        << where;
  }
  EXPECT_GT(elastic, 100);
  EXPECT_GT(dissipative, 100);
}

TEST(HuntCrossleyNormalTest, PotentialIsConvex) {
  std::mt19937 rng(23);
  for (int i = 0; i < 3000; ++i) {
    const HuntCrossleyNormal hc = RandomNormal(rng);
    const double a = Normal(rng, 0.5), b = Normal(rng, 0.5);
    EXPECT_TRUE(IsConvexAlongSegment(HuntCrossleyConstraint(hc), Scalar(a), Scalar(b))) << i;
  }
}

TEST(HuntCrossleyNormalTest, ForceFormWithVanishingStiffness) {
  // Hydroelastic face (§5): f0 = A·p0 finite while k = A·g → 0. Then
  // n = δt·(f0 − δt k v)₊(1 − d v)₊ → δt·f0·(1 − d v)₊, v̂ → 1/d.
  HuntCrossleyNormal hc{.dt_s = 1e-3, .stiffness_N_per_m = 0, .dissipation_s_per_m = 20};
  hc.elastic_force_N = 10.0;
  EXPECT_DOUBLE_EQ(hc.ElasticForce(), 10.0);
  EXPECT_DOUBLE_EQ(hc.OpeningVelocity(), 0.05);
  EXPECT_NEAR(hc.Impulse(-0.1), 1e-2 * 3, 1e-15);
  // ℓ(v) = δt f0 d u²/2, u = 0.05 − v.
  EXPECT_NEAR(hc.Potential(-0.1), 1e-2 * 20 * 0.15 * 0.15 / 2, 1e-15);
  EXPECT_NEAR(hc.ImpulseDerivativeNeg(-0.1), 1e-2 * 20, 1e-15);
  // Continuous in k → 0.
  HuntCrossleyNormal soft = hc;
  soft.stiffness_N_per_m = 1e-9;
  for (double v : {-1.0, -0.1, 0.0, 0.04}) {
    EXPECT_NEAR(soft.Impulse(v), hc.Impulse(v), 1e-12) << v;
    EXPECT_NEAR(soft.Potential(v), hc.Potential(v), 1e-12) << v;
  }
  // Same law as the stiffness·penetration form when f0 = k·x0.
  HuntCrossleyNormal a{
      .dt_s = 2e-3, .stiffness_N_per_m = 3e5, .dissipation_s_per_m = 5, .penetration_m = 2e-3};
  HuntCrossleyNormal b = a;
  b.penetration_m = 123;  // ignored when f0 is given
  b.elastic_force_N = 3e5 * 2e-3;
  for (double v : {-1.0, 0.1, 0.5, 0.9, 1.5}) {
    EXPECT_NEAR(a.Impulse(v), b.Impulse(v), 1e-12 * (1 + a.Impulse(v))) << v;
    EXPECT_NEAR(a.Potential(v), b.Potential(v), 1e-12 * (1 + a.Potential(v))) << v;
  }
  // k = 0 and d = 0: constant impulse δt·f0 that never opens; potential −δt f0 v.
  hc.dissipation_s_per_m = 0;
  EXPECT_TRUE(std::isinf(hc.OpeningVelocity()));
  EXPECT_DOUBLE_EQ(hc.Impulse(3.0), 1e-2);
  EXPECT_DOUBLE_EQ(hc.Potential(3.0), -3e-2);
  EXPECT_EQ(hc.ImpulseDerivativeNeg(3.0), 0.0);
  // k = 0 with f0 ≤ 0: never in contact.
  hc.elastic_force_N = -1.0;
  for (double v : {-1e3, 0.0, 1.0}) {
    EXPECT_EQ(hc.Impulse(v), 0.0);
    EXPECT_EQ(hc.Potential(v), 0.0);
  }
  // k = 0 in the penetration form: f0 = 0, nothing.
  HuntCrossleyNormal none{
      .dt_s = 1e-3, .stiffness_N_per_m = 0, .dissipation_s_per_m = 0, .penetration_m = 1e-3};
  for (double v : {-1e3, 0.0, 1.0}) {
    EXPECT_EQ(none.Impulse(v), 0.0);
    EXPECT_EQ(none.Potential(v), 0.0);
    EXPECT_EQ(none.ImpulseDerivativeNeg(v), 0.0);
  }
}

TEST(HuntCrossleyNormalTest, FarSeparatedPairHasNoCostOffset) {
  // x0 = −0.1 m at δt = 1 ms: v̂ = −100 m/s. ℓ must be exactly 0 for v_n ≥ v̂ and accurate
  // just below (no cancellation between two large N⁺ values).
  HuntCrossleyNormal hc{
      .dt_s = 1e-3, .stiffness_N_per_m = 1e6, .dissipation_s_per_m = 50, .penetration_m = -0.1};
  EXPECT_EQ(hc.Potential(0.0), 0.0);
  EXPECT_EQ(hc.Potential(-99.0), 0.0);
  // u = 1e-3: ℓ = δt²k(1 − d v̂)u²/2 + δt²k·d·u³/3 = 5001·1e-6/2 + 50·1e-9/3.
  const double v = -100 - 1e-3;
  EXPECT_NEAR(hc.Potential(v), ReferencePotential(hc, v, -100.0), 1e-9 * 2.5e-3);
  EXPECT_NEAR(hc.Potential(v), 5001 * 1e-6 / 2 + 50 * 1e-9 / 3, 1e-9 * 2.5e-3);
}

// ============================================================================================
// Lagged (§2.3).

double SoftNormReference(double vt_norm, double eps) {
  return std::sqrt(vt_norm * vt_norm + eps * eps) - eps;
}

LaggedContact::Data RandomLagged(std::mt19937& rng) {
  LaggedContact::Data p;
  p.normal = RandomNormal(rng);
  p.friction = Uniform(rng, 0, 1) < 0.05 ? 0.0 : Uniform(rng, 0.1, 1.5);
  p.lagged_normal_impulse = std::abs(Normal(rng, 1e-2));
  p.epsilon_m_per_s = LogUniform(rng, -5, -3);
  return p;
}

// Tangential step relative to the soft-norm curvature scale sqrt(‖v_t‖² + ε²).
VectorXd ContactStep(const VectorXd& v, double eps, double vhat) {
  const double s = std::hypot(v.head<2>().norm(), eps);
  return Vector3d(1e-4 * s, 1e-4 * s, NormalStep(v(2), vhat));
}

TEST(LaggedContactTest, RandomPointsMatchFiniteDifferences) {
  std::mt19937 rng(31);
  int active = 0, open = 0;
  for (int i = 0; i < 4000; ++i) {
    const auto p = RandomLagged(rng);
    const LaggedContact c(p);
    const double vhat = p.normal.OpeningVelocity();
    // Tangential speeds from well inside ε to far beyond it; v_t = 0 exactly sometimes.
    const double speed = Uniform(rng, 0, 1) < 0.1 ? 0.0 : LogUniform(rng, -7, -0.5);
    const double angle = Uniform(rng, 0, 2 * kPi);
    const VectorXd v =
        Vector3d(speed * std::cos(angle), speed * std::sin(angle), vhat + Normal(rng, 0.05));
    const VectorXd h = ContactStep(v, p.epsilon_m_per_s, vhat);
    if (std::abs(v(2) - vhat) < 100 * h(2)) continue;
    (v(2) < vhat ? active : open)++;
    const std::string where = Where("Lagged", i);
    EXPECT_TRUE(MatchesFiniteDifferences(c, v, h, {.relative = 1e-5})) << where;
    const ConstraintSample s = EvaluateConstraint(c, v);
    EXPECT_GE(s.ell, 0.0) << where;
    // Normal is exactly Hunt & Crossley, independent of v_t (consistent).
    EXPECT_EQ(s.gamma(2), p.normal.Impulse(v(2))) << where;
    // Friction never exceeds μγ_n0 and opposes v_t.
    const double bound = p.friction * p.lagged_normal_impulse;
    EXPECT_LE(s.gamma.head<2>().norm(), bound * (1 + 1e-14)) << where;
    EXPECT_LE(s.gamma.head<2>().dot(v.head<2>()), 0.0) << where;
    if (v(2) >= vhat) {
      EXPECT_EQ(s.gamma(2), 0.0) << where;
    }
  }
  EXPECT_GT(active, 1000);
  EXPECT_GT(open, 1000);
}

TEST(LaggedContactTest, NormalKink) {
  std::mt19937 rng(32);
  for (int i = 0; i < 1000; ++i) {
    const auto p = RandomLagged(rng);
    const LaggedContact c(p);
    const double vhat = p.normal.OpeningVelocity();
    const double speed = Uniform(rng, 0, 1) < 0.2 ? 0.0 : LogUniform(rng, -6, -1);
    const VectorXd v = Vector3d(speed, -0.5 * speed, vhat);
    const VectorXd h = ContactStep(v, p.epsilon_m_per_s, vhat);
    const double off = 1e-3 * h(2);
    EXPECT_TRUE(IsKinkConsistent(
        c, v, h, {Vector3d(v(0), v(1), vhat - off), Vector3d(v(0), v(1), vhat + off)},
        {.relative = 1e-4}))
        << Where("Lagged v_n = v̂", i);
    // The normal contributes nothing at v̂: ℓ = μγ_n0‖v_t‖_s only.
    const double friction_cost = p.friction * p.lagged_normal_impulse *
                                 SoftNormReference(speed * std::hypot(1.0, 0.5), p.epsilon_m_per_s);
    EXPECT_NEAR(ConstraintCost(c, v), friction_cost, 1e-6 * friction_cost + 1e-300);
  }
}

TEST(LaggedContactTest, FrictionSaturatesAtLaggedCoulombBound) {
  LaggedContact::Data p;
  p.normal = HuntCrossleyNormal{
      .dt_s = 1e-3, .stiffness_N_per_m = 1e6, .dissipation_s_per_m = 50, .penetration_m = 1e-3};
  p.friction = 0.5;
  p.lagged_normal_impulse = LaggedContact::LaggedNormalImpulse(p.normal, -0.1);
  EXPECT_NEAR(p.lagged_normal_impulse, 1e-3 * 1e6 * 1e-3 * 6, 1e-12);  // 6 N·s
  p.epsilon_m_per_s = 1e-4;
  const LaggedContact c(p);
  const double bound = 0.5 * 6;
  for (double speed : {0.1, 1.0, 10.0}) {  // ‖v_t‖ ≥ 1e3·ε
    const VectorXd v = Vector3d(0.6 * speed, -0.8 * speed, 0.0);
    const ConstraintSample s = EvaluateConstraint(c, v);
    const double eps_ratio = 1e-4 / speed;
    EXPECT_NEAR(s.gamma.head<2>().norm(), bound, bound * eps_ratio * eps_ratio) << speed;
    EXPECT_NEAR(s.gamma(0) / bound, -0.6, 1e-6);
    EXPECT_NEAR(s.gamma(1) / bound, 0.8, 1e-6);
    // Normal impulse at v_n = 0: δt k x0 = 1 N·s, regardless of slip.
    EXPECT_NEAR(s.gamma(2), 1.0, 1e-12);
  }
  // Below ε it is viscous: γ_t ≈ −μγ_n0 v_t/ε, Hessian μγ_n0/ε·I at v_t = 0.
  const ConstraintSample s0 = EvaluateConstraint(c, Vector3d(0, 0, 0));
  EXPECT_EQ(s0.gamma(0), 0.0);
  EXPECT_EQ(s0.gamma(1), 0.0);
  EXPECT_NEAR(s0.G(0, 0), bound / 1e-4, 1e-9);
  EXPECT_NEAR(s0.G(1, 1), bound / 1e-4, 1e-9);
  EXPECT_EQ(s0.G(0, 1), 0.0);
  // γ_n0 = 0 when the previous step was already separating fast (1 − d v_n0 ≤ 0) or separated.
  EXPECT_EQ(LaggedContact::LaggedNormalImpulse(p.normal, 0.05), 0.0);
  HuntCrossleyNormal sep = p.normal;
  sep.penetration_m = -1e-3;
  EXPECT_EQ(LaggedContact::LaggedNormalImpulse(sep, -1.0), 0.0);
}

TEST(LaggedContactTest, RegularizedEpsilon) {
  // ε = max(v_s, σ·w_t·μ·γ_n0).
  EXPECT_DOUBLE_EQ(LaggedContact::RegularizedEpsilon(1e-4, 1e-3, 10.0, 0.5, 0.2), 1e-3);
  EXPECT_DOUBLE_EQ(LaggedContact::RegularizedEpsilon(1e-4, 1e-3, 10.0, 0.5, 1e-3), 1e-4);
  EXPECT_DOUBLE_EQ(LaggedContact::RegularizedEpsilon(1e-4, 1e-3, 10.0, 0.0, 1e3), 1e-4);
}

TEST(LaggedContactTest, RegularizedMatchesFiniteDifferencesAndCapsTheStictionStiffness) {
  // Regularized Lagged (§2.3): the constraint the world builds with ε = max(v_s, σ·w_t·μ·γ_n0)
  // and γ_n0 from a previous normal velocity. Same checks as the plain model, and the point of
  // the regularization: the friction Hessian at v_t = 0, μγ_n0/ε, never exceeds 1/(σ·w_t).
  std::mt19937 rng(35);
  int regularized = 0;
  for (int i = 0; i < 2000; ++i) {
    auto p = RandomLagged(rng);
    p.lagged_normal_impulse = LaggedContact::LaggedNormalImpulse(p.normal, Normal(rng, 0.05));
    const double v_s = LogUniform(rng, -5, -3), sigma = 1e-3, w_t = LogUniform(rng, -1, 3);
    p.epsilon_m_per_s =
        LaggedContact::RegularizedEpsilon(v_s, sigma, w_t, p.friction, p.lagged_normal_impulse);
    if (p.epsilon_m_per_s > v_s) ++regularized;
    const LaggedContact c(p);
    const double vhat = p.normal.OpeningVelocity();
    const std::string where = Where("regularized Lagged", i);
    // Stiction stiffness at v_t = 0 in the active region.
    const ConstraintSample s0 = EvaluateConstraint(c, Vector3d(0, 0, vhat - 0.01));
    const double cap = p.friction * p.lagged_normal_impulse / p.epsilon_m_per_s;
    EXPECT_NEAR(s0.G(0, 0), cap, 1e-12 * cap) << where;
    EXPECT_LE(s0.G(0, 0), (1 + 1e-12) / (sigma * w_t)) << where;
    // Random tangential speeds around ε, at most 0.3 m/s (as in the plain model's test: beyond
    // that the friction cost μγ_n0‖v_t‖ swamps the normal part's central differences).
    const double speed = std::min(0.3, p.epsilon_m_per_s * LogUniform(rng, -2, 2));
    const double angle = Uniform(rng, 0, 2 * kPi);
    const VectorXd v =
        Vector3d(speed * std::cos(angle), speed * std::sin(angle), vhat + Normal(rng, 0.05));
    const VectorXd h = ContactStep(v, p.epsilon_m_per_s, vhat);
    if (std::abs(v(2) - vhat) < 100 * h(2)) continue;
    EXPECT_TRUE(MatchesFiniteDifferences(c, v, h, {.relative = 1e-5})) << where;
    const double e = p.epsilon_m_per_s;
    const VectorXd a = Vector3d(Normal(rng, e), Normal(rng, e), Normal(rng, 0.1));
    const VectorXd b = Vector3d(Normal(rng, e), Normal(rng, e), Normal(rng, 0.1));
    EXPECT_TRUE(IsConvexAlongSegment(c, a, b)) << where;
  }
  EXPECT_GT(regularized, 400);
}

// Degenerates parameter `which` (0–4) of those the lagged and similar models share: ε (0 and
// 1e-300), the stiffness, the dissipation, the friction.
template <typename Parameters>
void DegenerateSharedParameter(int which, Parameters* p) {
  switch (which) {
    case 0:
      p->epsilon_m_per_s = 0;
      break;
    case 1:
      p->epsilon_m_per_s = 1e-300;
      break;
    case 2:
      p->normal.stiffness_N_per_m = 0;
      break;
    case 3:
      p->normal.dissipation_s_per_m = 0;
      break;
    case 4:
      p->friction = 0;
      break;
  }
}

// Sample i of a degenerate-parameter test: well formed, no negative cost.
template <typename Contact>
void ExpectDegenerateWellFormed(const typename Contact::Data& p, int i, const char* what,
                                std::mt19937& rng) {
  const Contact c(p);
  const double vt = (i % 2) ? 0.0 : Normal(rng, 1e-3);
  const VectorXd v = Vector3d(vt, 0.0, Normal(rng, 0.1));
  EXPECT_TRUE(IsWellFormed(c, v)) << Where(what, i);
  EXPECT_GE(ConstraintCost(c, v), 0.0);
}

// Convexity along 3000 random segments (tangential velocities of scale `vt_scale`).
template <typename Contact, typename RandomParameters>
void ExpectConvexAlongRandomSegments(const RandomParameters& random_parameters, double vt_scale,
                                     const char* what, std::mt19937& rng) {
  for (int i = 0; i < 3000; ++i) {
    const Contact c(random_parameters(rng));
    const VectorXd a = Vector3d(Normal(rng, vt_scale), Normal(rng, vt_scale), Normal(rng, 0.1));
    const VectorXd b = Vector3d(Normal(rng, vt_scale), Normal(rng, vt_scale), Normal(rng, 0.1));
    EXPECT_TRUE(IsConvexAlongSegment(c, a, b)) << Where(what, i);
  }
}

TEST(LaggedContactTest, DegenerateParametersGiveNoNaN) {
  std::mt19937 rng(33);
  for (int i = 0; i < 500; ++i) {
    LaggedContact::Data p = RandomLagged(rng);
    if (i % 6 == 5) {
      p.lagged_normal_impulse = 0;
    } else {
      DegenerateSharedParameter(i % 6, &p);
    }
    ExpectDegenerateWellFormed<LaggedContact>(p, i, "Lagged degenerate", rng);
  }
}

TEST(LaggedContactTest, ConvexAlongRandomSegments) {
  std::mt19937 rng(34);
  ExpectConvexAlongRandomSegments<LaggedContact>(RandomLagged, 1e-3, "Lagged convexity", rng);
}

// ============================================================================================
// Similar (§2.4).

SimilarContact::Data RandomSimilar(std::mt19937& rng) {
  SimilarContact::Data p;
  p.normal = RandomNormal(rng);
  p.friction = Uniform(rng, 0, 1) < 0.05 ? 0.0 : Uniform(rng, 0.1, 1.5);
  p.epsilon_m_per_s = LogUniform(rng, -5, -3);
  return p;
}

TEST(SimilarContactTest, RandomPointsMatchFiniteDifferences) {
  std::mt19937 rng(41);
  int active = 0, open = 0;
  for (int i = 0; i < 4000; ++i) {
    const auto p = RandomSimilar(rng);
    const SimilarContact c(p);
    const double vhat = p.normal.OpeningVelocity();
    const double mu = p.friction;
    const double speed = Uniform(rng, 0, 1) < 0.1 ? 0.0 : LogUniform(rng, -7, -0.5);
    const double angle = Uniform(rng, 0, 2 * kPi);
    const double z = vhat + Normal(rng, 0.05);
    const double vn = z + mu * SoftNormReference(speed, p.epsilon_m_per_s);
    const VectorXd v = Vector3d(speed * std::cos(angle), speed * std::sin(angle), vn);
    const VectorXd h = ContactStep(v, p.epsilon_m_per_s, vhat);
    if (std::abs(z - vhat) < 100 * (h(2) + mu * h(0))) continue;
    (z < vhat ? active : open)++;
    const std::string where = Where("Similar", i);
    EXPECT_TRUE(MatchesFiniteDifferences(c, v, h, {.relative = 1e-5})) << where;
    const ConstraintSample s = EvaluateConstraint(c, v);
    EXPECT_GE(s.ell, 0.0) << where;
    // γ_n = n(z); friction μ·n(z)·ŝ opposing v_t.
    const double n_ref = ReferenceImpulse(p.normal, z);
    EXPECT_NEAR(s.gamma(2), n_ref, 1e-9 * n_ref + 1e-300) << where;
    const double s_len = std::hypot(speed, p.epsilon_m_per_s);
    EXPECT_NEAR(s.gamma.head<2>().norm(), mu * n_ref * speed / s_len, 1e-9 * n_ref + 1e-300)
        << where;
    EXPECT_LE(s.gamma.head<2>().dot(v.head<2>()), 0.0) << where;
    if (z >= vhat) {
      EXPECT_EQ(s.ell, 0.0) << where;
      EXPECT_EQ(MaxAbs(s.gamma), 0.0) << where;
      EXPECT_EQ(MaxAbs(s.G), 0.0) << where;
    }
  }
  EXPECT_GT(active, 1000);
  EXPECT_GT(open, 1000);
}

TEST(SimilarContactTest, ZeroForceSetIsExactlyTheShiftedCone) {
  // γ = 0 exactly iff v_n ≥ μ‖v_t‖_s + v̂.
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; ++i) {
    auto p = RandomSimilar(rng);
    p.friction = Uniform(rng, 0.1, 1.5);
    const SimilarContact c(p);
    const double vhat = p.normal.OpeningVelocity();
    const double speed = Uniform(rng, 0, 1) < 0.1 ? 0.0 : LogUniform(rng, -6, -0.5);
    const double boundary = vhat + p.friction * SoftNormReference(speed, p.epsilon_m_per_s);
    const double tiny = 1e-9 * (std::abs(boundary) + std::abs(vhat) + 1e-6);
    const std::string where = Where("Similar zero set", i);
    const ConstraintSample above = EvaluateConstraint(c, Vector3d(speed, 0, boundary + tiny));
    EXPECT_EQ(MaxAbs(above.gamma), 0.0) << where;
    EXPECT_EQ(above.ell, 0.0) << where;
    const ConstraintSample below = EvaluateConstraint(c, Vector3d(speed, 0, boundary - tiny));
    EXPECT_GT(below.gamma(2), 0.0) << where;
    EXPECT_GT(below.ell, 0.0) << where;
  }
}

TEST(SimilarContactTest, OpeningKinkAndZeroTangentialVelocity) {
  std::mt19937 rng(43);
  for (int i = 0; i < 1000; ++i) {
    const auto p = RandomSimilar(rng);
    const SimilarContact c(p);
    const double vhat = p.normal.OpeningVelocity();
    const double speed = (i % 3 == 0) ? 0.0 : LogUniform(rng, -6, -1);
    const double vn = vhat + p.friction * SoftNormReference(speed, p.epsilon_m_per_s);
    const VectorXd v = Vector3d(0.0, speed, vn);
    const VectorXd h = ContactStep(v, p.epsilon_m_per_s, vhat);
    const double off = 1e-3 * h(2);
    // Which side of z = v̂ the point falls on is decided by round-off; on the active side the
    // one-sided differences carry an O(h·∂G) error that reaches a few 1e-4 of G here.
    EXPECT_TRUE(IsKinkConsistent(c, v, h,
                                 {Vector3d(0.0, speed, vn - off), Vector3d(0.0, speed, vn + off)},
                                 {.relative = 1e-3}))
        << Where("Similar z = v̂", i);
    // v_t = 0 exactly in the active region: no friction, tangential Hessian μ n/ε.
    const VectorXd w = Vector3d(0, 0, vhat - 0.01);
    EXPECT_TRUE(IsWellFormed(c, w)) << Where("Similar v_t = 0", i);
    const ConstraintSample s = EvaluateConstraint(c, w);
    EXPECT_EQ(s.gamma(0), 0.0);
    EXPECT_EQ(s.gamma(1), 0.0);
    const double n = p.normal.Impulse(vhat - 0.01);
    EXPECT_NEAR(s.G(0, 0), p.friction * n / p.epsilon_m_per_s, 1e-12 * (1 + s.G(0, 0)));
    EXPECT_TRUE(
        MatchesFiniteDifferences(c, w, ContactStep(w, p.epsilon_m_per_s, vhat), {.relative = 1e-5}))
        << Where("Similar v_t = 0 FD", i);
  }
}

TEST(SimilarContactTest, DegenerateParametersGiveNoNaN) {
  std::mt19937 rng(44);
  for (int i = 0; i < 500; ++i) {
    SimilarContact::Data p = RandomSimilar(rng);
    DegenerateSharedParameter(i % 5, &p);
    ExpectDegenerateWellFormed<SimilarContact>(p, i, "Similar degenerate", rng);
  }
}

TEST(SimilarContactTest, ConvexAlongRandomSegments) {
  std::mt19937 rng(45);
  ExpectConvexAlongRandomSegments<SimilarContact>(RandomSimilar, 0.05, "Similar convexity", rng);
}

// ============================================================================================
// Vanishing along a line (the line search skips such constraints): whenever a contact says it
// vanishes on v_c + α Δv_c, α ∈ [0, α_max], ℓ, γ and G are exactly zero at points all along it.
// Segments are drawn around the opening boundary so that both answers occur often.

// Returns whether c vanishes along the segment, after checking 65 points of it when it says so.
bool CheckVanishing(const Constraint& c, const Vector3d& vc, const Vector3d& dvc, double alpha_max,
                    const char* label, int i) {
  if (!c.VanishesAlong(vc, dvc, alpha_max)) return false;
  for (int k = 0; k <= 64; ++k) {
    const double alpha = alpha_max * k / 64.0;
    const VectorXd p = vc + alpha * dvc;
    const ConstraintSample s = EvaluateConstraint(c, p);
    EXPECT_TRUE(s.ell == 0 && s.gamma.isZero(0) && s.G.isZero(0))
        << Where(label, i) << " at α = " << alpha << ": ℓ = " << s.ell
        << ", γ = " << s.gamma.transpose() << "\nG =\n"
        << s.G;
  }
  return true;
}

// Ends at v_n = v̂ + w·N(0, 1) (w: the scale of v̂), tangential speeds up to 10 w.
std::pair<Vector3d, Vector3d> SegmentAroundOpening(std::mt19937& rng, double vhat,
                                                   double alpha_max) {
  const double w = std::isfinite(vhat) ? std::abs(vhat) + 1e-3 : 1.0;
  const double base = std::isfinite(vhat) ? vhat : 0.0;
  const Vector3d start(Normal(rng, 10 * w), Normal(rng, 10 * w), base + Normal(rng, w));
  const Vector3d end(Normal(rng, 10 * w), Normal(rng, 10 * w), base + Normal(rng, w));
  return {start, (end - start) / alpha_max};
}

TEST(VanishesAlongTest, SapSegmentsThatSeparateThroughout) {
  std::mt19937 rng(71);
  int vanishing = 0;
  for (int i = 0; i < 4000; ++i) {
    const SapCase c = RandomSap(rng);
    const SapContact contact(c.p);
    const double alpha_max = Uniform(rng, 1, 3);
    // Ends in y-space around the separation cone y_n = −μ̂ y_r.
    const auto end = [&] {
      const double yr = LogUniform(rng, -3, 0);
      return c.VelocityFromY(yr, Uniform(rng, 0, 2 * kPi), -c.mu_hat() * yr + Normal(rng, yr));
    };
    const VectorXd a = end(), b = end();
    vanishing += CheckVanishing(contact, a, (b - a) / alpha_max, alpha_max, "SAP", i);
  }
  EXPECT_GT(vanishing, 400);
  EXPECT_LT(vanishing, 3600);
}

TEST(VanishesAlongTest, LaggedSegmentsThatStayOpen) {
  std::mt19937 rng(72);
  int vanishing = 0;
  for (int i = 0; i < 4000; ++i) {
    LaggedContact::Data p = RandomLagged(rng);
    if (i % 2 == 0) p.lagged_normal_impulse = 0;  // no friction: the normal alone decides
    const LaggedContact contact(p);
    const double alpha_max = Uniform(rng, 1, 3);
    const auto [vc, dvc] = SegmentAroundOpening(rng, p.normal.OpeningVelocity(), alpha_max);
    vanishing += CheckVanishing(contact, vc, dvc, alpha_max, "Lagged", i);
  }
  EXPECT_GT(vanishing, 300);
  EXPECT_LT(vanishing, 2000);
}

TEST(VanishesAlongTest, SimilarSegmentsThatStayOpen) {
  std::mt19937 rng(73);
  int vanishing = 0;
  for (int i = 0; i < 4000; ++i) {
    const SimilarContact::Data p = RandomSimilar(rng);
    const SimilarContact contact(p);
    const double alpha_max = Uniform(rng, 1, 3);
    auto [vc, dvc] = SegmentAroundOpening(rng, p.normal.OpeningVelocity(), alpha_max);
    // Slower slip half of the time: with ‖v_t‖ ≫ |v̂| the cone μ‖v_t‖ would close almost all.
    if (i % 2 == 0) {
      vc.head<2>() *= 0.01;
      dvc.head<2>() *= 0.01;
    }
    vanishing += CheckVanishing(contact, vc, dvc, alpha_max, "Similar", i);
  }
  EXPECT_GT(vanishing, 300);
  EXPECT_LT(vanishing, 3600);
}

// ============================================================================================
// Regime prediction (§4.1). The model a contact gives for the regime its Newton step enters is
// that regime's own quadratic extended back to v_c: at a point p inside the regime,
// γ(p) = γ_model − G_model·(p − v_c) and G(p) = G_model.

struct Prediction {
  bool predicted = false;
  Vector3d gamma = Vector3d::Zero();
  Eigen::Matrix3d G = Eigen::Matrix3d::Zero();
};

Prediction Predict(const Constraint& c, const Vector3d& vc, const Vector3d& dvc) {
  VectorXd gamma = VectorXd::Zero(3);
  MatrixXd G = MatrixXd::Zero(3, 3);
  Prediction out;
  out.predicted = c.PredictRegime(vc, dvc, gamma, &G);
  out.gamma = gamma;
  out.G = G;
  return out;
}

// γ(p) and G(p) against the model extended from v_c, relative to the model's scale.
::testing::AssertionResult ModelHoldsAt(const Constraint& c, const Prediction& m,
                                        const Vector3d& vc, const Vector3d& p, double tolerance) {
  const testing::ConstraintSample at_p = EvaluateConstraint(c, p);
  const Vector3d gamma_model = m.gamma - m.G * (p - vc);
  const double scale = MaxAbs(m.G) * (p - vc).norm() + m.gamma.norm() + 1e-300;
  const double gamma_error = (at_p.gamma - gamma_model).norm() / scale;
  const double G_error = MaxAbs(at_p.G - m.G) / (MaxAbs(m.G) + 1e-300);
  if (!m.predicted || gamma_error > tolerance || G_error > tolerance ||
      !m.G.isApprox(m.G.transpose()) ||
      m.G.selfadjointView<Eigen::Lower>().eigenvalues().minCoeff() < -1e-12 * MaxAbs(m.G)) {
    return ::testing::AssertionFailure()
           << "predicted " << m.predicted << ", γ error " << gamma_error << ", G error " << G_error
           << "\nG_model =\n"
           << m.G << "\nG(p) =\n"
           << at_p.G;
  }
  return ::testing::AssertionSuccess();
}

TEST(RegimePredictionTest, SapStepIntoStictionGivesStictionsQuadratic) {
  std::mt19937 rng(61);
  for (int i = 0; i < 1000; ++i) {
    const SapCase c = RandomSap(rng);
    const SapContact contact(c.p);
    const double yn = LogUniform(rng, -3, 0);
    const double angle = Uniform(rng, 0, 2 * kPi);
    // From sliding (y_r = 3μy_n) to stiction (y_r = ½μy_n, opposite side: the step crosses).
    const Vector3d v_slide = c.VelocityFromY(3 * c.p.friction * yn, angle, yn);
    const Vector3d v_stick = c.VelocityFromY(0.5 * c.p.friction * yn, angle + kPi, yn);
    const Prediction m = Predict(contact, v_slide, v_stick - v_slide);
    EXPECT_TRUE(ModelHoldsAt(contact, m, v_slide, v_stick, 1e-9)) << Where("SAP into stiction", i);
    // Stuck already, or sliding on (the step moves away from stiction): Newton's own model.
    EXPECT_FALSE(Predict(contact, v_stick, v_slide - v_stick).predicted) << Where("SAP stuck", i);
    const Vector3d faster(0.2 * v_slide(0), 0.2 * v_slide(1), 0);
    EXPECT_FALSE(Predict(contact, v_slide, faster).predicted) << Where("SAP slides", i);
  }
}

TEST(RegimePredictionTest, LaggedStepThroughStictionGivesTheSoftNormsQuadraticAtRest) {
  std::mt19937 rng(62);
  int predicted = 0;
  for (int i = 0; i < 1000; ++i) {
    LaggedContact::Data p = RandomLagged(rng);
    p.friction = Uniform(rng, 0.1, 1.5);
    p.lagged_normal_impulse = LogUniform(rng, -4, -1);
    const LaggedContact contact(p);
    const double eps = p.epsilon_m_per_s;
    const double angle = Uniform(rng, 0, 2 * kPi);
    const double slip = eps * LogUniform(rng, 1, 4);  // 10 … 10⁴ stiction widths
    const double vn = p.normal.OpeningVelocity() - 1e-3;
    const Vector3d vc(slip * std::cos(angle), slip * std::sin(angle), vn);
    // The step overshoots rest by 10 %: Newton's model (no curvature along the slip) sees no
    // reason to stop at v_t = 0. At rest p = (0, 0, v_n) the soft norm's quadratic holds.
    const Vector3d dvc(-1.1 * vc(0), -1.1 * vc(1), 0);
    const Prediction m = Predict(contact, vc, dvc);
    ASSERT_TRUE(m.predicted) << Where("Lagged through stiction", i);
    ++predicted;
    EXPECT_TRUE(ModelHoldsAt(contact, m, vc, Vector3d(0, 0, vn), 1e-12))
        << Where("Lagged through stiction", i);
    // Slowing to 70 % of its slip, or speeding up: no prediction.
    EXPECT_FALSE(Predict(contact, vc, Vector3d(-0.3 * vc(0), -0.3 * vc(1), 0)).predicted)
        << Where("Lagged slows", i);
    EXPECT_FALSE(Predict(contact, vc, Vector3d(vc(0), vc(1), 0)).predicted)
        << Where("Lagged speeds up", i);
  }
  EXPECT_EQ(predicted, 1000);
}

TEST(RegimePredictionTest, LaggedAndSimilarStepClosingAContactGiveTheClosedSideAtOpening) {
  std::mt19937 rng(63);
  for (int i = 0; i < 1000; ++i) {
    HuntCrossleyNormal hc = RandomNormal(rng);
    hc.penetration_m = LogUniform(rng, -6, -3);
    const double vhat = hc.OpeningVelocity();
    const double width = std::abs(vhat) + 1e-3;
    const Vector3d vc(0, 0, vhat + 0.5 * width);  // open, no slip (Similar's z = v_n)
    const Vector3d dvc(0, 0, -width);             // the step closes it
    // Just inside the closed side, n is linear in v̂ − v_n to first order.
    const double delta = 1e-9 * width;
    const Vector3d p(0, 0, vhat - delta);
    LaggedContact::Data lagged;
    lagged.normal = hc;
    lagged.friction = 0.5;
    lagged.lagged_normal_impulse = 1e-3;
    lagged.epsilon_m_per_s = 1e-4;
    SimilarContact::Data similar;
    similar.normal = hc;
    similar.friction = 0.5;
    similar.epsilon_m_per_s = 1e-4;
    for (const Constraint* c : std::initializer_list<const Constraint*>{
             new LaggedContact(lagged), new SimilarContact(similar)}) {
      const std::unique_ptr<const Constraint> owned(c);
      const Prediction m = Predict(*c, vc, dvc);
      ASSERT_TRUE(m.predicted) << Where("closing", i);
      // n = δt·(a + b·u)·(c + d·u) at u = δ: −n' = k + 2·δt·b·d·δ and n = k·δ + δt·b·d·δ².
      const double bd = hc.dt_s * hc.dt_s * hc.stiffness_N_per_m * hc.dissipation_s_per_m;
      EXPECT_NEAR(m.G(2, 2), EvaluateConstraint(*c, p).G(2, 2),
                  2.01 * bd * delta + 1e-9 * m.G(2, 2))
          << Where("closing stiffness", i);
      EXPECT_NEAR(m.gamma(2) - m.G(2, 2) * (p(2) - vc(2)), EvaluateConstraint(*c, p).gamma(2),
                  1.01 * bd * delta * delta + 1e-14 * m.G(2, 2) * std::abs(p(2) - vc(2)))
          << Where("closing impulse", i);
      // Staying open: nothing to predict.
      EXPECT_FALSE(Predict(*c, vc, Vector3d(0, 0, -0.4 * width)).predicted) << Where("open", i);
    }
  }
}

TEST(RegimePredictionTest, SimilarStepThroughStictionGivesTheQuadraticAtRest) {
  std::mt19937 rng(64);
  for (int i = 0; i < 1000; ++i) {
    SimilarContact::Data p = RandomSimilar(rng);
    p.friction = Uniform(rng, 0.1, 1.5);
    const SimilarContact contact(p);
    const double vhat = p.normal.OpeningVelocity();
    if (!std::isfinite(vhat)) continue;
    const double vn = vhat - LogUniform(rng, -4, -1);  // pressed: n(v_n) > 0
    const double slip = p.epsilon_m_per_s * LogUniform(rng, 1, 4);
    const Vector3d vc(slip, -0.5 * slip, vn);
    const Prediction m = Predict(contact, vc, Vector3d(-1.1 * vc(0), -1.1 * vc(1), 0));
    EXPECT_TRUE(ModelHoldsAt(contact, m, vc, Vector3d(0, 0, vn), 1e-12))
        << Where("Similar through stiction", i);
  }
}

}  // namespace
}  // namespace contactlab
