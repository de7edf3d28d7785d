// The shared constraint checks pass a correct constraint and fail each kind of wrong one: a
// wrong gradient, a wrong Hessian, an asymmetric or indefinite Hessian, Cost disagreeing with
// Evaluate, an unwritten output, a non-convex potential, a wrong Hessian or a jump in γ on a
// kink. (A check that cannot fail would let every constraint test pass.)
#include "test_support/constraint_checks.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

namespace contactlab::testing {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// ℓ = ell(v), γ = gamma(v), G = hessian(v) from lambdas: each test writes one (possibly wrong)
// triple.
template <typename Ell, typename Gamma, typename Hessian>
class Callable final : public Constraint {
 public:
  Callable(int n, Ell ell, Gamma gamma, Hessian hessian)
      : n_(n), ell_(ell), gamma_(gamma), hessian_(hessian) {}
  int num_rows() const override { return n_; }
  double Evaluate(const Eigen::Ref<const VectorXd>& vc, Eigen::Ref<VectorXd> gamma,
                  MatrixXd* G) const override {
    const VectorXd v = vc;
    gamma = gamma_(v);
    if (G != nullptr && writes_hessian) *G = hessian_(v);
    return ell_(v) + (G == nullptr ? cost_offset : 0.0);
  }
  double cost_offset = 0;      // makes Cost disagree with Evaluate
  bool writes_hessian = true;  // false: leaves G unwritten

 private:
  int n_;
  Ell ell_;
  Gamma gamma_;
  Hessian hessian_;
};

MatrixXd K() {
  MatrixXd k(2, 2);
  k << 2, 0.5, 0.5, 1;
  return k;
}

// ℓ = ½ vᵀKv, exact derivatives, scaled by the given factors.
auto Quadratic(double gamma_factor = 1, double G_factor = 1) {
  return Callable(
      2, [](const VectorXd& v) { return 0.5 * v.dot(K() * v); },
      [=](const VectorXd& v) -> VectorXd { return -gamma_factor * K() * v; },
      [=](const VectorXd&) -> MatrixXd { return G_factor * K(); });
}

const VectorXd kPoint = (VectorXd(2) << 0.3, -0.7).finished();
const VectorXd kStep = VectorXd::Constant(2, 1e-6);

TEST(ConstraintChecks, PassACorrectConstraint) {
  const auto c = Quadratic();
  EXPECT_TRUE(IsWellFormed(c, kPoint));
  EXPECT_TRUE(MatchesFiniteDifferences(c, kPoint, kStep, {.relative = 1e-8}));
  EXPECT_TRUE(IsConvexAlongSegment(c, kPoint, -kPoint + VectorXd::Ones(2)));
}

TEST(ConstraintChecks, FailAWrongGradientOrHessian) {
  EXPECT_FALSE(MatchesFiniteDifferences(Quadratic(1.001), kPoint, kStep, {.relative = 1e-5}));
  EXPECT_FALSE(MatchesFiniteDifferences(Quadratic(1, 1.001), kPoint, kStep, {.relative = 1e-5}));
  // A wrong gradient also breaks the tangent-plane inequality of convexity.
  EXPECT_FALSE(IsConvexAlongSegment(Quadratic(-1), kPoint, 2 * kPoint));
}

TEST(ConstraintChecks, FailAnAsymmetricOrIndefiniteHessian) {
  const Callable asymmetric(
      2, [](const VectorXd& v) { return 0.5 * v.dot(K() * v); },
      [](const VectorXd& v) -> VectorXd { return -K() * v; },
      [](const VectorXd&) -> MatrixXd {
        MatrixXd G = K();
        G(0, 1) += 1e-6;
        return G;
      });
  EXPECT_FALSE(IsWellFormed(asymmetric, kPoint));
  // ℓ = ½(v₀² − v₁²): consistent derivatives, indefinite, not convex.
  const Callable saddle(
      2, [](const VectorXd& v) { return 0.5 * (v(0) * v(0) - v(1) * v(1)); },
      [](const VectorXd& v) -> VectorXd {
        return VectorXd(-(VectorXd(2) << v(0), -v(1)).finished());
      },
      [](const VectorXd&) -> MatrixXd { return (MatrixXd(2, 2) << 1, 0, 0, -1).finished(); });
  const CentralDifferences fd(saddle, kPoint, kStep);
  EXPECT_LT(MaxAbs(fd.neg_gradient - ConstraintImpulse(saddle, kPoint)), 1e-8);
  EXPECT_LT(MaxAbs(fd.neg_jacobian - EvaluateConstraint(saddle, kPoint).G), 1e-8);
  EXPECT_FALSE(IsWellFormed(saddle, kPoint));
  EXPECT_FALSE(MatchesFiniteDifferences(saddle, kPoint, kStep, {.relative = 1e-5}));
  const VectorXd a = (VectorXd(2) << 0, -1).finished(), b = (VectorXd(2) << 0, 1).finished();
  EXPECT_FALSE(IsConvexAlongSegment(saddle, a, b));
}

TEST(ConstraintChecks, FailCostDisagreeingWithEvaluateOrAnUnwrittenOutput) {
  auto c = Quadratic();
  c.cost_offset = 1e-12;
  EXPECT_FALSE(IsWellFormed(c, kPoint));
  auto no_hessian = Quadratic();
  no_hessian.writes_hessian = false;
  EXPECT_FALSE(IsWellFormed(no_hessian, kPoint));
}

// One row, kink at 0: ℓ = ½ k max(v, 0)², γ = −k max(v, 0), G = k [v > 0] (or `G_at_kink`).
auto OneSided(double G_at_kink) {
  return Callable(
      1, [](const VectorXd& v) { return 0.5 * 3 * std::pow(std::max(v(0), 0.0), 2); },
      [](const VectorXd& v) -> VectorXd { return VectorXd::Constant(1, -3 * std::max(v(0), 0.0)); },
      [=](const VectorXd& v) -> MatrixXd {
        return MatrixXd::Constant(1, 1, v(0) > 0 ? 3.0 : v(0) < 0 ? 0.0 : G_at_kink);
      });
}

TEST(ConstraintChecks, KinkCheckTakesEitherSideAndFailsAnythingElse) {
  const VectorXd zero = VectorXd::Zero(1), h = VectorXd::Constant(1, 1e-6);
  const std::vector<VectorXd> sides = {VectorXd::Constant(1, -1e-9), VectorXd::Constant(1, 1e-9)};
  EXPECT_TRUE(IsKinkConsistent(OneSided(0.0), zero, h, sides, {.relative = 1e-6}));
  EXPECT_TRUE(IsKinkConsistent(OneSided(3.0), zero, h, sides, {.relative = 1e-6}));
  EXPECT_FALSE(IsKinkConsistent(OneSided(1.5), zero, h, sides, {.relative = 1e-6}));
  // A smooth-point check across the kink fails: the stencil must stay in one region.
  EXPECT_FALSE(
      MatchesFiniteDifferences(OneSided(3.0), VectorXd::Constant(1, 1e-7), h, {.relative = 1e-6}));
  // ℓ = |v| is not C¹: γ jumps from +1 to −1.
  const Callable abs(
      1, [](const VectorXd& v) { return std::abs(v(0)); },
      [](const VectorXd& v) -> VectorXd { return VectorXd::Constant(1, v(0) > 0 ? -1.0 : 1.0); },
      [](const VectorXd&) -> MatrixXd { return MatrixXd::Zero(1, 1); });
  EXPECT_FALSE(IsKinkConsistent(abs, zero, h, sides, {.relative = 1e-6}));
}

TEST(ConstraintChecks, ConvexityFailsAboveTheChord) {
  // ℓ = v⁴ − v² (exact derivatives) is concave around 0.
  const Callable w(
      1, [](const VectorXd& v) { return std::pow(v(0), 4) - v(0) * v(0); },
      [](const VectorXd& v) -> VectorXd {
        return VectorXd::Constant(1, -(4 * std::pow(v(0), 3) - 2 * v(0)));
      },
      [](const VectorXd& v) -> MatrixXd { return MatrixXd::Constant(1, 1, 12 * v(0) * v(0) - 2); });
  EXPECT_TRUE(MatchesFiniteDifferences(w, VectorXd::Constant(1, 2.0), VectorXd::Constant(1, 1e-6),
                                       {.relative = 1e-7}));
  EXPECT_FALSE(IsConvexAlongSegment(w, VectorXd::Constant(1, -0.5), VectorXd::Constant(1, 0.5)));
  EXPECT_TRUE(IsConvexAlongSegment(w, VectorXd::Constant(1, 1.0), VectorXd::Constant(1, 2.0)));
}

}  // namespace
}  // namespace contactlab::testing
