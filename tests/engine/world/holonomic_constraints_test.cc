// Couplers, distances and welds in a World (docs/contact-model.md §3.2) against known answers:
// a pendulum made of a distance constraint swings with the period 2π√(L/g); two sliders coupled
// by a gear ratio accelerate as one body of mass m_b + ρ² m_a, in separate trees and in one; a
// chain of welds under gravity sags by what its regularization (rigid) or its springs
// (compliant) predict.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "engine/world/world.h"
#include "test_support/allocation_counter.h"

namespace contactlab {
namespace {

using Eigen::Isometry3d;
using Eigen::Vector3d;

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;

SceneBody FreeBody(const std::string& name, double mass, const Vector3d& p_W) {
  SceneBody b;
  b.body.name = name;
  b.body.inertia.mass_kg = mass;
  b.body.inertia.inertia_about_com_B = 1e-3 * mass * Eigen::Matrix3d::Identity();
  b.initial_pose.translation() = p_W;
  b.initial_velocity = Eigen::VectorXd::Zero(6);
  return b;
}

DistanceSpec Distance(int a, const Vector3d& p_AP, int b, double distance) {
  DistanceSpec d;
  d.name = "rod";
  d.body_a = a;
  d.body_b = b;
  d.p_AP = p_AP;
  d.parameters.distance_m = distance;
  return d;
}

CouplerSpec Coupler(int a, int b, double gear_ratio) {
  CouplerSpec c;
  c.name = "gear";
  c.body_a = a;
  c.body_b = b;
  c.parameters.gear_ratio = gear_ratio;
  return c;
}

WeldSpec Weld(int a, const Isometry3d& X_AP, int b, const WeldConstraint::Parameters& p = {}) {
  WeldSpec w;
  w.name = "weld";
  w.body_a = a;
  w.body_b = b;
  w.X_AP = X_AP;
  w.parameters = p;
  return w;
}

SceneBody Slider(const std::string& name, double mass, const Vector3d& axis, int parent) {
  SceneBody b;
  b.body.name = name;
  b.body.joint = JointType::kPrismatic;
  b.body.axis = axis;
  b.body.inertia.mass_kg = mass;
  b.parent_scene_index = parent;
  b.initial_velocity = Eigen::VectorXd::Zero(1);
  return b;
}

TEST(HolonomicConstraintsWorld, DistancePendulumSwingsWithThePointMassPeriod) {
  const double L = 0.5, theta0 = 0.1;
  SceneSpec s;
  s.contact_settings.dt_s = 1e-3;
  const Vector3d pivot(0, 0, 1);
  s.bodies.push_back(
      FreeBody("bob", 1.0, pivot + L * Vector3d(std::sin(theta0), 0, -std::cos(theta0))));
  s.distances.push_back(Distance(-1, pivot, 0, L));
  World world(s);
  // Downward crossings of x = 0: one per period.
  std::vector<double> crossings;
  double x_prev = world.BodyPose(0).translation().x(), max_length_error = 0;
  while (world.time() < 3.0) {
    ASSERT_TRUE(world.Step()) << world.failure();
    const Vector3d p = world.BodyPose(0).translation();
    max_length_error = std::max(max_length_error, std::abs((p - pivot).norm() - L));
    if (x_prev > 0 && p.x() <= 0)
      crossings.push_back(world.time() - s.contact_settings.dt_s * p.x() / (p.x() - x_prev));
    x_prev = p.x();
  }
  ASSERT_GE(crossings.size(), 2u);
  const double period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  // Small-amplitude period with its first correction θ0²/16.
  const double expected = 2 * kPi * std::sqrt(L / kG) * (1 + theta0 * theta0 / 16);
  EXPECT_NEAR(period, expected, 5e-3 * expected);
  EXPECT_LT(max_length_error, 1e-5);
}

// Force F on slider a, coupled q_a = ρ q_b: q̈_b = ρ F / (m_b + ρ² m_a) (virtual work).
void ExpectCoupledSlidersAccelerateAsOneBody(bool same_tree) {
  const double m_a = 2.0, m_b = 0.5, rho = -1.5, force = 3.0, duration = 0.5;
  SceneSpec s;
  s.contact_settings.dt_s = 1e-3;
  s.gravity_W.setZero();
  int parent = -1;
  if (same_tree) {
    s.bodies.push_back(Slider("base", 1.0, Vector3d::UnitZ(), -1));
    parent = 0;
  }
  s.bodies.push_back(Slider("a", m_a, Vector3d::UnitX(), parent));
  s.bodies.push_back(Slider("b", m_b, Vector3d::UnitY(), parent));
  const int a = s.FindBody("a"), b = s.FindBody("b");
  s.couplers.push_back(Coupler(a, b, rho));
  World world(s);
  world.SetExternalForce({.scene_body = a, .f_Q_W = Vector3d(force, 0, 0)});
  double max_violation = 0;
  const int steps = static_cast<int>(std::lround(duration / s.contact_settings.dt_s));
  for (int i = 0; i < steps; ++i) {
    ASSERT_TRUE(world.Step()) << world.failure();
    const double q_a = world.BodyPose(a).translation().x(),
                 q_b = world.BodyPose(b).translation().y();
    max_violation = std::max(max_violation, std::abs(q_a - rho * q_b));
  }
  const double acceleration = rho * force / (m_b + rho * rho * m_a);
  // Symplectic Euler from rest: q_N = a δt² N(N + 1)/2.
  const double expected_q_b =
      acceleration * s.contact_settings.dt_s * s.contact_settings.dt_s * steps * (steps + 1) / 2;
  EXPECT_NEAR(world.BodyPose(b).translation().y(), expected_q_b, 1e-3 * std::abs(expected_q_b));
  EXPECT_LT(max_violation, 1e-6 * std::abs(expected_q_b));
  if (same_tree) {
    EXPECT_NEAR(world.BodyPose(0).translation().z(), 0.0, 1e-12);  // no force along z
  }
}

TEST(HolonomicConstraintsWorld, CoupledSlidersInTwoTreesAccelerateAsOneBody) {
  ExpectCoupledSlidersAccelerateAsOneBody(false);
}

TEST(HolonomicConstraintsWorld, CoupledSlidersInOneTreeAccelerateAsOneBody) {
  ExpectCoupledSlidersAccelerateAsOneBody(true);
}

// Body A welded to the world at its centre, body B welded 0.2 m below A. At rest each weld's
// translation row carries the weight below it, F, and sags by g = R δt (δt + τ) F (§3.1): with
// rigid rows R is the near-rigid β² w/(4π²) (β = 0.1), w = Σ 1/m of the bodies the row moves; with
// springs it is F/k, two springs in series.
void ExpectWeldChainSagsAsPredicted(const HolonomicCompliance& translation) {
  const double m_a = 2.0, m_b = 0.7, dt = 1e-3;
  SceneSpec s;
  s.contact_settings.dt_s = dt;
  s.bodies.push_back(FreeBody("a", m_a, Vector3d(0, 0, 1.0)));
  s.bodies.push_back(FreeBody("b", m_b, Vector3d(0, 0, 0.8)));
  WeldConstraint::Parameters p;
  p.translation = translation;
  Isometry3d X_WP = Isometry3d::Identity(), X_AP = Isometry3d::Identity();
  X_WP.translation() = Vector3d(0, 0, 1.0);
  X_AP.translation() = Vector3d(0, 0, -0.2);
  s.welds.push_back(Weld(-1, X_WP, 0, p));
  s.welds.push_back(Weld(0, X_AP, 1, p));
  World world(s);
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(world.Step()) << world.failure();
  auto sag = [&](double w, double F) {
    const double tau = translation.relaxation_time_s;
    const double R = std::max(translation.beta * translation.beta * w / (4 * kPi * kPi),
                              1 / (dt * translation.stiffness * (dt + tau)));
    return R * dt * (dt + tau) * F;
  };
  const double sag_a = sag(1 / m_a, (m_a + m_b) * kG);
  const double sag_b = sag(1 / m_a + 1 / m_b, m_b * kG);
  const double z_a = world.BodyPose(0).translation().z(), z_b = world.BodyPose(1).translation().z();
  EXPECT_NEAR(1.0 - z_a, sag_a, 1e-2 * sag_a);
  EXPECT_NEAR((z_a - 0.2) - z_b, sag_b, 1e-2 * sag_b);
  EXPECT_LT(world.BodyVelocity(1).norm(), 1e-6);
  if (std::isfinite(translation.stiffness)) {
    EXPECT_NEAR(sag_a, (m_a + m_b) * kG / translation.stiffness, 1e-12);
    EXPECT_NEAR(sag_b, m_b * kG / translation.stiffness, 1e-12);
  }
}

TEST(HolonomicConstraintsWorld, RigidWeldChainSagsByItsRegularization) {
  ExpectWeldChainSagsAsPredicted({});
}

TEST(HolonomicConstraintsWorld, CompliantWeldChainSagsLikeTwoSpringsInSeries) {
  ExpectWeldChainSagsAsPredicted({.stiffness = 1e4, .relaxation_time_s = 0.05});
}

// A kinematic body's prescribed velocity enters the rows as their bias: a body welded to a belt
// running at 0.1 m/s (no gravity) is carried along, 0.1 m in 1 s, its weld staying closed.
TEST(HolonomicConstraintsWorld, AWeldToAKinematicBodyCarriesItAlong) {
  SceneSpec s;
  s.gravity_W.setZero();
  SceneBody belt;
  belt.body.name = "belt";
  belt.kind = SceneBody::Kind::kKinematic;
  belt.motion.speed_m_per_s = 0.1;
  s.bodies.push_back(belt);
  s.bodies.push_back(FreeBody("box", 1.0, Vector3d(0, 0, 0.2)));
  Isometry3d X_AP = Isometry3d::Identity();
  X_AP.translation() = Vector3d(0, 0, 0.2);
  s.welds.push_back(Weld(0, X_AP, 1));
  World world(s);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(world.Step()) << world.failure();
  EXPECT_NEAR(world.BodyPose(1).translation().x(), 0.1, 1e-6);
  EXPECT_NEAR(world.BodyVelocity(1)(3), 0.1, 1e-6);
  EXPECT_LT((world.BodyPose(1).translation() - world.BodyPose(0) * X_AP.translation()).norm(),
            1e-6);
}

// Two free bodies, no gravity, welded with the frames apart: P on body A (spinning) and Q on
// body B, 5 cm apart with the same orientation. The assembled rows are the rate of the weld's
// constraint function (§3.2): J v = ġ, with g = [θ; p_WQ − p_WP] (θ the rotation vector of
// R_WQ R_WPᵀ) differentiated along the bodies' rigid motion — exact where θ = 0. A row built at
// the wrong point (v of A at Q instead of at P) differs by ω_A × (p_WQ − p_WP).
SceneSpec ViolatedWeldScene(const Vector3d& offset_m, double initial_angle_rad) {
  SceneSpec s;
  s.gravity_W.setZero();
  s.bodies.push_back(FreeBody("a", 1.5, Vector3d(0.1, -0.2, 0.9)));
  s.bodies.push_back(FreeBody("b", 0.8, Vector3d(0.35, -0.1, 0.75)));
  s.bodies[0].initial_pose.linear() =
      Eigen::AngleAxisd(0.6, Vector3d(1, -2, 0.5).normalized()).toRotationMatrix();
  s.bodies[1].initial_pose.linear() =
      Eigen::AngleAxisd(-0.3, Vector3d(0.2, 1, 1).normalized()).toRotationMatrix();
  // Body A spins fast, so v at P and v at Q of A differ by ~0.15 m/s.
  s.bodies[0].initial_velocity << 1.0, -2.0, 2.5, 0.1, 0.05, -0.2;
  s.bodies[1].initial_velocity << -0.3, 0.4, 0.2, -0.1, 0.2, 0.1;
  Isometry3d X_AP = Isometry3d::Identity();
  X_AP.linear() = Eigen::AngleAxisd(0.4, Vector3d(0, 1, 1).normalized()).toRotationMatrix();
  X_AP.translation() = Vector3d(0.12, 0.05, -0.08);
  const Isometry3d X_WA = s.bodies[0].initial_pose, X_WB = s.bodies[1].initial_pose;
  // Q: P's pose moved by offset_m and turned by initial_angle_rad about a fixed world axis.
  Isometry3d X_WQ = X_WA * X_AP;
  X_WQ.translation() += offset_m;
  X_WQ.linear() =
      Eigen::AngleAxisd(initial_angle_rad, Vector3d(1, 1, -1).normalized()) * X_WQ.linear();
  WeldSpec w = Weld(0, X_AP, 1);
  w.X_BQ = X_WB.inverse() * X_WQ;
  s.welds.push_back(w);
  return s;
}

// g = [θ; p_WQ − p_WP] of the weld of `s` at the given body poses.
WeldConstraint::Vector6d WeldValue(const SceneSpec& s, const Isometry3d& X_WA,
                                   const Isometry3d& X_WB) {
  const Isometry3d X_WP = X_WA * s.welds[0].X_AP, X_WQ = X_WB * s.welds[0].X_BQ;
  const Eigen::AngleAxisd relative(X_WQ.linear() * X_WP.linear().transpose());
  WeldConstraint::Vector6d g;
  g << relative.angle() * relative.axis(), X_WQ.translation() - X_WP.translation();
  return g;
}

// The pose a body reaches after time s at constant world twist V = [ω; v_origin].
Isometry3d Moved(const Isometry3d& X_WB, const Eigen::Matrix<double, 6, 1>& V, double s) {
  Isometry3d X = X_WB;
  const Vector3d w = V.head<3>();
  if (w.norm() > 0) X.linear() = Eigen::AngleAxisd(s * w.norm(), w.normalized()) * X.linear();
  X.translation() += s * V.tail<3>();
  return X;
}

TEST(HolonomicConstraintsWorld, ViolatedWeldRowsAreTheRateOfItsConstraintFunction) {
  const SceneSpec s = ViolatedWeldScene(Vector3d(0.03, -0.04, 0.0), 0.0);
  World world(s);
  const Isometry3d X_WA = world.BodyPose(0), X_WB = world.BodyPose(1);
  const Eigen::Matrix<double, 6, 1> V_A = world.BodyVelocity(0), V_B = world.BodyVelocity(1);
  const Eigen::VectorXd v0 = world.v();
  const WeldConstraint::Vector6d g0 = WeldValue(s, X_WA, X_WB);
  ASSERT_NEAR(g0.head<3>().norm(), 0.0, 1e-12);
  ASSERT_NEAR(g0.tail<3>().norm(), 0.05, 1e-12);  // starts violated
  ASSERT_TRUE(world.Step()) << world.failure();
  // The problem of that step: its weld rows at the step's start.
  const ConvexProblem& problem = world.last_problem();
  ASSERT_EQ(problem.num_constraints(), 1);
  ASSERT_EQ(problem.num_constraint_rows(), 6);
  ASSERT_EQ(problem.num_velocities(), v0.size());
  Eigen::VectorXd vc;
  problem.MultiplyJ(v0, &vc);
  vc += problem.bias().head(6);
  // Central differences along the rigid motion (their error is O(h²), far below 1e-8).
  const double h = 1e-5;
  const WeldConstraint::Vector6d rate = (WeldValue(s, Moved(X_WA, V_A, h), Moved(X_WB, V_B, h)) -
                                         WeldValue(s, Moved(X_WA, V_A, -h), Moved(X_WB, V_B, -h))) /
                                        (2 * h);
  EXPECT_LT((vc - rate).norm(), 1e-8 * rate.norm())
      << "J v  = " << vc.transpose() << "\ng_dot = " << rate.transpose();
  // The rate is not that of P = Q: A's spin moves P and Q differently.
  const Vector3d p_WP = (X_WA * s.welds[0].X_AP).translation();
  const Vector3d p_WQ = (X_WB * s.welds[0].X_BQ).translation();
  EXPECT_GT(V_A.head<3>().cross(p_WQ - p_WP).norm(), 0.1);
}

// The same pair starting 5 mm and 0.01 rad apart: a rigid weld closes the gap in one step, v̂ =
// −g/δt (§3.1), to what the near-rigid regularization leaves (β²/(4π²) ≈ 2.5e-4 of it) and the
// rigid motion's second-order terms within the step add (δt² ω² r: under 2 % of the gap here);
// then it stays closed. With no external force the pair's linear momentum stays what it was.
TEST(HolonomicConstraintsWorld, AWeldThatStartsViolatedCloses) {
  const SceneSpec s = ViolatedWeldScene(Vector3d(0.003, -0.004, 0.0), 0.01);
  World world(s);
  const double m_a = 1.5, m_b = 0.8;
  auto momentum = [&] {
    // p = Σ m v_com, v_com = v_origin + ω × (p_com − p_origin); the com is at the origin here.
    return (m_a * world.BodyVelocity(0).tail<3>() + m_b * world.BodyVelocity(1).tail<3>()).eval();
  };
  const Vector3d momentum0 = momentum();
  const WeldConstraint::Vector6d g0 = WeldValue(s, world.BodyPose(0), world.BodyPose(1));
  ASSERT_NEAR(g0.head<3>().norm(), 0.01, 1e-12);
  ASSERT_NEAR(g0.tail<3>().norm(), 0.005, 1e-12);
  ASSERT_TRUE(world.Step()) << world.failure();
  const WeldConstraint::Vector6d g1 = WeldValue(s, world.BodyPose(0), world.BodyPose(1));
  EXPECT_LT(g1.head<3>().norm(), 2e-2 * g0.head<3>().norm()) << g1.transpose();
  EXPECT_LT(g1.tail<3>().norm(), 2e-2 * g0.tail<3>().norm()) << g1.transpose();
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(world.Step()) << world.failure();
  const WeldConstraint::Vector6d g = WeldValue(s, world.BodyPose(0), world.BodyPose(1));
  EXPECT_LT(g.head<3>().norm(), 1e-6) << g.transpose();
  EXPECT_LT(g.tail<3>().norm(), 1e-6) << g.transpose();
  EXPECT_LT((momentum() - momentum0).norm(), 1e-9 * momentum0.norm());
}

TEST(HolonomicConstraintsWorld, WarmStepsWithEveryKindDoNotAllocate) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  SceneSpec base;
  base.bodies.push_back(FreeBody("a", 1.0, Vector3d(0, 0, 1)));
  base.bodies.push_back(FreeBody("b", 1.0, Vector3d(0, 0, 0.5)));
  base.bodies.push_back(Slider("c", 1.0, Vector3d::UnitX(), -1));
  base.bodies.push_back(Slider("d", 1.0, Vector3d::UnitY(), 2));
  Isometry3d X_WP = Isometry3d::Identity();
  X_WP.translation() = Vector3d(0, 0, 1);
  for (const char* kind : {"weld", "distance", "coupler"}) {
    SCOPED_TRACE(kind);
    SceneSpec s = base;
    if (kind == std::string("weld")) s.welds.push_back(Weld(-1, X_WP, 0));
    if (kind == std::string("distance"))
      s.distances.push_back(Distance(0, Vector3d::Zero(), 1, 0.5));
    if (kind == std::string("coupler")) s.couplers.push_back(Coupler(3, 2, 0.5));
    World world(s);
    for (int i = 0; i < 50; ++i) ASSERT_TRUE(world.Step()) << world.failure();
    testing::ScopedAllocationCount counter;
    for (int i = 0; i < 20; ++i) world.Step();
    EXPECT_EQ(counter.count(), 0) << counter.new_count() << " through operator new";
    EXPECT_EQ(world.last_problem().num_constraints(), 1);
  }
}

TEST(HolonomicConstraintsWorld, ConstraintsOnUnknownOrStaticBodiesAreRejected) {
  SceneSpec s;
  s.bodies.push_back(FreeBody("a", 1.0, Vector3d::Zero()));
  s.bodies.push_back(Slider("b", 1.0, Vector3d::UnitX(), -1));
  SceneSpec bad = s;
  bad.welds.push_back(Weld(-1, Isometry3d::Identity(), 5));
  EXPECT_THROW(World{bad}, std::invalid_argument);
  bad = s;
  bad.distances.push_back(Distance(0, Vector3d::Zero(), 0, 1.0));
  EXPECT_THROW(World{bad}, std::invalid_argument);
  bad = s;
  bad.couplers.push_back(Coupler(0, 1, 1.0));  // a is floating
  EXPECT_THROW(World{bad}, std::invalid_argument);
  bad = s;
  bad.distances.push_back(Distance(-1, Vector3d::Zero(), 0, 0.0));
  EXPECT_THROW(World{bad}, std::invalid_argument);
}

}  // namespace
}  // namespace contactlab
