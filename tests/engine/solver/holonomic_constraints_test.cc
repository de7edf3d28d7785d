// Coupler, distance and weld constraints (docs/contact-model.md §3.1–§3.2): the regularization
// by hand, γ = −∂ℓ/∂v_c and G = −∂γ/∂v_c by finite differences, convexity, the constraint
// values against geometry, and the steady drift a load leaves (the spring F/k, and its rigid
// limit at the near-rigid floor) through the real solver.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "engine/solver/convex_solver.h"
#include "engine/solver/coupler_constraint.h"
#include "engine/solver/distance_constraint.h"
#include "engine/solver/weld_constraint.h"
#include "test_support/constraint_checks.h"

namespace contactlab {
namespace {

using Eigen::Vector3d;
using Eigen::VectorXd;
using Vector6d = WeldConstraint::Vector6d;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kFourPiSquared = 4 * std::numbers::pi * std::numbers::pi;
constexpr double kBetaSquared = 0.01;  // the default β = 0.1

CouplerConstraint::Parameters Coupler(double gear_ratio, double offset = 0,
                                      HolonomicCompliance compliance = {}) {
  CouplerConstraint::Parameters p;
  p.gear_ratio = gear_ratio;
  p.offset = offset;
  p.compliance = compliance;
  return p;
}

DistanceConstraint::Parameters Distance(double d, HolonomicCompliance compliance = {}) {
  DistanceConstraint::Parameters p;
  p.distance_m = d;
  p.compliance = compliance;
  return p;
}

TEST(HolonomicConstraint, RigidRowsTakeTheNearRigidRegularization) {
  const double dt = 2e-3, w = 0.5, g0 = 0.01;
  const CouplerConstraint c(Coupler(1.0), dt, g0, 0.0, w, 7.0);  // rigid, τ = 0: w = 0.5 + 7
  EXPECT_DOUBLE_EQ(c.data().R(0), kBetaSquared * (w + 7.0) / kFourPiSquared);
  EXPECT_DOUBLE_EQ(c.data().vhat(0), -g0 / dt);
}

TEST(HolonomicConstraint, CompliantRowsAreASpringDamper) {
  // k = 100 N/m, τ = 0.05 s on a light body: the compliance term 1/(δt k (δt + τ)) dominates.
  const double dt = 1e-3, k = 100, tau = 0.05, w = 1.0;
  const DistanceConstraint c(Distance(0.2, {.stiffness = k, .relaxation_time_s = tau}), dt, 0.25,
                             w);
  EXPECT_DOUBLE_EQ(c.data().R(0), 1.0 / (dt * k * (dt + tau)));
  EXPECT_DOUBLE_EQ(c.data().vhat(0), -0.05 / (dt + tau));
  // The impulse is the spring-damper's over the step: γ = −δt (k (g0 + δt v) + τ k v).
  const double v = 0.3;
  const testing::ConstraintSample s = testing::EvaluateConstraint(c, VectorXd::Constant(1, v));
  EXPECT_NEAR(s.gamma(0), -dt * (k * (0.05 + dt * v) + tau * k * v), 1e-15);
}

TEST(HolonomicConstraint, CouplerGearRatioWeighsTheSecondDof) {
  const CouplerConstraint::Parameters p = Coupler(-2.0, 0.1);
  EXPECT_DOUBLE_EQ(CouplerConstraint::ConstraintValue(p, 0.3, 0.5), 0.3 + 2.0 * 0.5 - 0.1);
  const CouplerConstraint c(p, 1e-3, 0.3, 0.5, 1.0, 3.0);
  EXPECT_DOUBLE_EQ(c.data().R(0), kBetaSquared * (1.0 + 4.0 * 3.0) / kFourPiSquared);
}

TEST(HolonomicConstraint, BadParametersAreRejected) {
  EXPECT_THROW(Coupler(kInf).Validate(), std::invalid_argument);
  EXPECT_THROW(Coupler(1, std::nan("")).Validate(), std::invalid_argument);
  EXPECT_THROW(Distance(0).Validate(), std::invalid_argument);
  EXPECT_THROW(Distance(1, {.stiffness = 0}).Validate(), std::invalid_argument);
  WeldConstraint::Parameters weld;
  weld.rotation.relaxation_time_s = -1;
  EXPECT_THROW(weld.Validate(), std::invalid_argument);
  weld.rotation.relaxation_time_s = 0;
  weld.translation.beta = std::nan("");
  EXPECT_THROW(weld.Validate(), std::invalid_argument);
  EXPECT_NO_THROW(Distance(1).Validate());
}

// Every row of every kind: γ and G against central differences, convex along segments.
TEST(HolonomicConstraint, ImpulseAndHessianMatchFiniteDifferences) {
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> u(-1, 1);
  WeldConstraint::Parameters weld;
  weld.translation = {.stiffness = 1e4, .relaxation_time_s = 0.01};
  Vector6d g0, w;
  for (int i = 0; i < 6; ++i) g0(i) = 0.01 * u(rng), w(i) = 0.5 + std::abs(u(rng));
  const WeldConstraint weld_constraint(weld, 1e-3, g0, w);
  const CouplerConstraint coupler(Coupler(0.7), 1e-3, 0.02, 0.01, 2.0, 1.0);
  const DistanceConstraint distance(Distance(0.1, {.stiffness = 1e3}), 1e-3, 0.11, 4.0);
  for (const Constraint* c :
       {static_cast<const Constraint*>(&weld_constraint), static_cast<const Constraint*>(&coupler),
        static_cast<const Constraint*>(&distance)}) {
    const int n = c->num_rows();
    for (int trial = 0; trial < 20; ++trial) {
      VectorXd vc(n), vc2(n);
      for (int i = 0; i < n; ++i) vc(i) = 10 * u(rng), vc2(i) = 10 * u(rng);
      EXPECT_TRUE(testing::MatchesFiniteDifferences(*c, vc, VectorXd::Constant(n, 1e-4),
                                                    {.relative = 1e-7}))
          << n << " rows, trial " << trial;
      EXPECT_TRUE(testing::IsConvexAlongSegment(*c, vc, vc2)) << n << " rows, trial " << trial;
    }
  }
}

TEST(HolonomicConstraint, DistanceDirectionPointsFromPToQ) {
  EXPECT_TRUE(DistanceConstraint::Direction(Vector3d(1, 1, 1), Vector3d(1, 4, 5))
                  .isApprox(Vector3d(0, 0.6, 0.8), 1e-15));
  EXPECT_EQ(DistanceConstraint::Direction(Vector3d(1, 1, 1), Vector3d(1, 1, 1)), Vector3d::UnitX());
}

// g = [θ; p]: the rotation vector of Q relative to P in the world, and ġ = v_c = [ω_Q − ω_P;
// v_Q − v_P] where θ = 0 (the rate is exact there, first order elsewhere).
TEST(HolonomicConstraint, WeldValueIsTheRelativeRotationVectorAndOffset) {
  Eigen::Isometry3d X_WP = Eigen::Isometry3d::Identity();
  X_WP.linear() = Eigen::AngleAxisd(0.4, Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  X_WP.translation() = Vector3d(0.1, -0.2, 0.3);
  const Vector3d axis_W = Vector3d(-1, 0.5, 2).normalized();
  Eigen::Isometry3d X_WQ = X_WP;
  X_WQ.linear() = Eigen::AngleAxisd(0.25, axis_W) * X_WP.linear();
  X_WQ.translation() += Vector3d(0.01, 0.02, -0.03);
  const Vector6d g = WeldConstraint::ConstraintValue(X_WP, X_WQ);
  EXPECT_TRUE(g.head<3>().isApprox(0.25 * axis_W, 1e-14)) << g.transpose();
  EXPECT_TRUE(g.tail<3>().isApprox(Vector3d(0.01, 0.02, -0.03), 1e-14)) << g.transpose();

  const Vector3d w_WP(0.3, -0.1, 0.2), w_WQ(-0.5, 0.4, 0.9);
  const double h = 1e-6;
  Eigen::Isometry3d X_WPh = X_WP, X_WQh = X_WP;
  X_WPh.linear() = Eigen::AngleAxisd(h * w_WP.norm(), w_WP.normalized()) * X_WP.linear();
  X_WQh.linear() = Eigen::AngleAxisd(h * w_WQ.norm(), w_WQ.normalized()) * X_WP.linear();
  const Vector6d rate = WeldConstraint::ConstraintValue(X_WPh, X_WQh) / h;
  EXPECT_TRUE(rate.head<3>().isApprox(w_WQ - w_WP, 1e-5)) << rate.transpose();
}

// A unit mass on one dof under a steady force F, held by a row to a fixed dof: stepping with
// the real solver, the row settles where the potential's impulse balances the load,
// g = R δt (δt + τ) F — F/k for a spring, and the near-rigid floor β² w δt² F/(4π²) as k → ∞.
double SettledValue(const CouplerConstraint::Parameters& p, double dt, double force) {
  ConvexProblem problem;
  problem.Reset({1});
  problem.mutable_tree_A(0)(0, 0) = 1.0;
  ConvexSolver solver;
  double q = 0, v = 0;
  VectorXd v_next = VectorXd::Zero(1);
  for (int step = 0; step < 4000; ++step) {
    problem.ClearConstraints();
    problem.mutable_free_motion_velocity()(0) = v + dt * force;
    const CouplerConstraint c(p, dt, q, 0.0, 1.0, 0.0);
    const int k = problem.AddConstraint(&c, 0, -1);
    problem.mutable_jacobian(k, 0)(0, 0) = 1.0;
    const ConvexSolverStats stats = solver.Solve(problem, &v_next);
    EXPECT_TRUE(stats.converged) << "step " << step;
    v = v_next(0);
    q += dt * v;
  }
  return q;
}

TEST(HolonomicConstraint, SteadyDriftIsTheSpringAndTheRigidLimitIsTheNearRigidFloor) {
  const double dt = 1e-3, force = 10.0;
  const double near_rigid_R = kBetaSquared / kFourPiSquared;  // w = 1
  // Springs that δt resolves (1e4 … 1e8 N/m on 1 kg), then stiffer than the near-rigid rule.
  for (const double k : {1e4, 1e6, 1e8, 1e10, 1e12, kInf}) {
    // Critically damped where the spring is resolved, so that 4 s of steps settle it.
    const double tau = std::isfinite(k) ? 2 / std::sqrt(k) : 0;
    const CouplerConstraint::Parameters p =
        Coupler(1.0, 0.0, {.stiffness = k, .relaxation_time_s = tau});
    const double R = std::max(near_rigid_R, 1.0 / (dt * k * (dt + tau)));
    const double expected = R * dt * (dt + tau) * force;
    EXPECT_NEAR(SettledValue(p, dt, force), expected, 1e-6 * expected) << "k = " << k;
    if (k <= 1e8) {
      EXPECT_NEAR(expected, force / k, 1e-12 * force / k) << "k = " << k;
    } else {
      EXPECT_EQ(R, near_rigid_R) << "k = " << k;
    }
  }
  EXPECT_NEAR(SettledValue(Coupler(1.0), dt, force), near_rigid_R * dt * dt * force,
              1e-6 * near_rigid_R * dt * dt * force);
}

}  // namespace
}  // namespace contactlab
