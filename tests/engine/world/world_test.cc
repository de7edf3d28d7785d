// World: the assembled problem on real scenes — dense and supernodal solves agree, the cost
// never increases, the Hessian is SPD, reset is exact, free flight is exact.
#include "engine/world/world.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <cmath>

#include "test_support/approximations.h"
#include "test_support/pendulum_scene.h"
#include "test_support/pile_scene.h"

namespace contactlab {
namespace {

SceneSpec Pile(int n, ContactApproximation model) { return testing::PileScene(n, 2e-3, model); }

class WorldModels : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(WorldModels, DenseAndSparseFactorizationsAgree) {
  // The three linear-solver paths (dense, tree-block, CHOLMOD) factor the same H: one Newton
  // iteration (direction and exact line search) from the same state must give the same velocity to
  // 1e-10. Converged solutions would instead differ by the conditioning times the stopping
  // tolerance. Regime prediction is off: its stiction models (curvature μγ/ε) make the step's H
  // ill-conditioned enough that the two factorizations' round-off, not their agreement, would be
  // compared.
  const SceneSpec scene = Pile(12, GetParam());
  World reference(scene), dense(scene), block(scene), sparse(scene);
  ConvexSolverParameters p;
  p.max_iterations = 1;
  p.predict_regimes = false;
  p.linear_solver = LinearSolverType::kDense;
  dense.solver().set_parameters(p);
  p.linear_solver = LinearSolverType::kBlockSparse;
  block.solver().set_parameters(p);
  p.linear_solver = LinearSolverType::kSupernodal;
  sparse.solver().set_parameters(p);
  const auto level = spdlog::get_level();
  spdlog::set_level(spdlog::level::off);  // one iteration is "not converged" by design
  int compared = 0;
  for (int step = 0; step < 400; ++step) {
    for (World* w : {&dense, &block, &sparse}) {
      w->SetState(reference.q(), reference.v());
      ASSERT_TRUE(w->Step());
    }
    ASSERT_TRUE(reference.Step());
    ASSERT_TRUE(reference.last_stats().converged);
    EXPECT_EQ(dense.last_stats().linear_solver_used, LinearSolverType::kDense);
    EXPECT_EQ(block.last_stats().linear_solver_used, LinearSolverType::kBlockSparse);
    EXPECT_EQ(sparse.last_stats().linear_solver_used, LinearSolverType::kSupernodal);
    if (dense.last_solver_stats().iterations == 1 && dense.last_stats().num_contacts > 0) {
      const double scale = 1 + dense.v().norm();
      ASSERT_LT((dense.v() - block.v()).norm(), 1e-10 * scale) << "step " << step;
      ASSERT_LT((dense.v() - sparse.v()).norm(), 1e-10 * scale) << "step " << step;
      ++compared;
    }
  }
  spdlog::set_level(level);
  EXPECT_GT(compared, 100);
}

TEST_P(WorldModels, CostNeverIncreasesAndHessianIsSpd) {
  World world(Pile(8, GetParam()));
  world.solver().set_record_cost_history(true);
  int multi_iteration_steps = 0, checked_hessians = 0;
  for (int step = 0; step < 400; ++step) {
    ASSERT_TRUE(world.Step());
    const ConvexSolverStats& s = world.last_solver_stats();
    ASSERT_TRUE(s.converged) << "step " << step;
    for (size_t k = 1; k < s.cost_history.size(); ++k) {
      ASSERT_LE(s.cost_history[k], s.cost_history[k - 1] + 1e-14 * std::abs(s.cost_history[0]))
          << "step " << step << " iteration " << k;
    }
    multi_iteration_steps += s.iterations >= 2;
    if (step % 40 == 0 && world.last_stats().num_contacts > 0) {
      // H = A + Jᵀ G J at the solution: symmetric positive definite, and the derivative of
      // the gradient (finite differences along random directions).
      const ConvexProblem& problem = world.last_problem();
      Eigen::VectorXd v = world.v(), g0, g1, g2;
      Eigen::MatrixXd H, unused;
      world.solver().EvaluateCost(problem, v, &g0, &H);
      EXPECT_LT((H - H.transpose()).norm(), 1e-12 * H.norm());
      Eigen::LLT<Eigen::MatrixXd> llt(H);
      EXPECT_EQ(llt.info(), Eigen::Success);
      const Eigen::VectorXd dir = Eigen::VectorXd::Random(v.size()).normalized();
      const double h = 1e-7;
      world.solver().EvaluateCost(problem, v + h * dir, &g1, nullptr);
      world.solver().EvaluateCost(problem, v - h * dir, &g2, nullptr);
      const Eigen::VectorXd fd = (g1 - g2) / (2 * h);
      EXPECT_LT((fd - H * dir).norm(), 1e-4 * (1 + (H * dir).norm())) << "step " << step;
      ++checked_hessians;
    }
  }
  EXPECT_GT(multi_iteration_steps, 0);
  EXPECT_GT(checked_hessians, 3);
}

INSTANTIATE_TEST_SUITE_P(AllModels, WorldModels, ::testing::ValuesIn(testing::kAllApproximations),
                         testing::ApproximationTestName);

TEST_P(WorldModels, ContactStatesWithinTheMargin) {
  // A sphere of radius 5 cm, its lowest point 5 mm above the floor (inside the 1 cm margin):
  // moving up it is separating, creeping down too slowly to be pushed it is in the margin
  // (SAP pushes once v_n < v̂_n = −φ0/(δt + τ_d) ≈ −0.049 m/s); neither carries a force, and
  // φ0 + δt·v_n is the distance after the step. Every contact of the margin is in the problem
  // here (no contact-reach rule); with the default rule the creeping sphere's 5 mm are out of
  // its reach δt(1 + μ)(2·0.01 + 0.5) m/s ≈ 1.9 mm — except for SAP, whose horizon δt + τ_d is
  // 0.102 s (docs/contact-model.md §4.3).
  for (const double vz : {1.0, -0.01}) {
    SceneSpec s = Pile(1, GetParam());
    s.bodies[1].initial_pose.translation() = Eigen::Vector3d(0, 0, 0.055);
    s.bodies[1].initial_velocity << 0, 0, 0, 0, 0, vz;
    World reached(s);
    ASSERT_TRUE(reached.Step());
    const bool out_of_reach = vz < 0 && GetParam() != ContactApproximation::kSap;
    EXPECT_EQ(reached.last_stats().num_out_of_reach, out_of_reach ? 1 : 0);
    EXPECT_EQ(reached.contacts().size(), out_of_reach ? 0u : 1u);
    World world(s);
    world.set_contact_reach_rule(std::nullopt);
    ASSERT_TRUE(world.Step());
    ASSERT_EQ(world.contacts().size(), 1u);
    const ContactResult& c = world.contacts()[0];
    EXPECT_NEAR(c.signed_distance_m, 0.005, 1e-12);
    EXPECT_EQ(c.normal_force_W.norm(), 0.0);
    EXPECT_EQ(c.state, vz > 0 ? ContactResult::State::kSeparating : ContactResult::State::kMargin);
    EXPECT_NEAR(c.signed_distance_end_m,
                c.signed_distance_m + s.contact_settings.dt_s * c.normal_velocity, 1e-15);
    EXPECT_EQ(c.gliding_offset_m, 0.0);  // no slip
  }
}

TEST(World, FreeFlightIsExactUnderGravity) {
  SceneSpec s = Pile(1, ContactApproximation::kLagged);
  s.bodies.erase(s.bodies.begin());  // no floor
  s.bodies[0].initial_velocity << 0, 0, 0, 1.0, 0, 2.0;
  World world(s);
  const Eigen::Vector3d p0 = world.BodyPose(0).translation();
  const int steps = 500;
  for (int i = 0; i < steps; ++i) ASSERT_TRUE(world.Step());
  // Symplectic Euler: v_n = v0 + n g δt, p_n = p0 + δt Σ v_k (k = 1..n).
  const double dt = s.contact_settings.dt_s, g = -9.81;
  const double vz = 2.0 + steps * g * dt;
  const double pz = p0.z() + dt * (2.0 * steps + g * dt * steps * (steps + 1) / 2.0);
  EXPECT_NEAR(world.BodyVelocity(0)[5], vz, 1e-12);
  EXPECT_NEAR(world.BodyPose(0).translation().z(), pz, 1e-10);
  EXPECT_NEAR(world.BodyPose(0).translation().x(), p0.x() + 1.0 * steps * dt, 1e-10);
}

TEST(World, ResetRestoresTheInitialStateBitForBit) {
  World world(Pile(6, ContactApproximation::kLagged));
  const Eigen::VectorXd q0 = world.q(), v0 = world.v();
  for (int i = 0; i < 200; ++i) world.Step();
  EXPECT_GT((world.q() - q0).norm(), 1e-3);
  world.Reset();
  EXPECT_EQ(world.q(), q0);
  EXPECT_EQ(world.v(), v0);
  EXPECT_EQ(world.time(), 0.0);
  // And the replay is deterministic.
  World other(Pile(6, ContactApproximation::kLagged));
  for (int i = 0; i < 100; ++i) {
    world.Step();
    other.Step();
  }
  EXPECT_EQ(world.q(), other.q());
}

// A non-finite or absurd state (a corrupted SetState, a blown-up run) fails the step, naming
// the body, and leaves the state as it was; it is never a mere non-convergence.
TEST(World, AnInvalidStateFailsTheStepNamingTheBody) {
  World world(Pile(6, ContactApproximation::kLagged));
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(world.Step());
  EXPECT_TRUE(world.failure().empty());
  const int body = 3;
  const int mb = world.multibody_index(body);
  const std::string name = world.scene().bodies[body].body.name;
  for (const char* which : {"velocity", "position"}) {
    Eigen::VectorXd q = world.q(), v = world.v();
    if (std::string(which) == "velocity") {
      v[world.multibody().velocity_start(mb) + 4] = NAN;
    } else {
      q[world.multibody().position_start(mb) + 2] = 1e300;  // z of the floating body
    }
    world.SetState(q, v, world.time());
    const double t = world.time();
    EXPECT_FALSE(world.Step()) << which;
    EXPECT_NE(world.failure().find("body '" + name + "' has a non-finite or absurd " + which),
              std::string::npos)
        << world.failure();
    EXPECT_EQ(world.time(), t);
    EXPECT_EQ(world.q(), q);  // the last state, kept
    world.Reset();
    EXPECT_TRUE(world.Step());
    EXPECT_TRUE(world.failure().empty());
  }
}

TEST(World, RestingBoxCarriesItsWeightOnFourCorners) {
  SceneSpec s = Pile(2, ContactApproximation::kLagged);
  s.bodies.pop_back();
  s.bodies[1].geometries[0].shape = Shape::Box(Eigen::Vector3d(0.05, 0.05, 0.05));
  s.bodies[1].body.inertia.inertia_about_com_B =
      SolidInertia(s.bodies[1].geometries[0].shape, s.bodies[1].body.inertia.mass_kg);
  s.bodies[1].initial_pose = Eigen::Isometry3d::Identity();
  s.bodies[1].initial_pose.translation().z() = 0.05;
  s.bodies[1].initial_velocity.setZero();
  World world(s);
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(world.Step());
  const double weight = s.bodies[1].body.inertia.mass_kg * 9.81;
  EXPECT_GE(world.last_stats().num_contacts, 4);
  EXPECT_NEAR(world.NetNormalForce(1).z(), weight, 1e-3 * weight);
  EXPECT_LT(world.NetFrictionForce(1).norm(), 1e-6 * weight);
  EXPECT_LT(world.BodyVelocity(1).norm(), 1e-6);
  // Static penetration mg/k per unit of total stiffness: 4 corners in parallel.
  const double z = world.BodyPose(1).translation().z();
  EXPECT_NEAR(0.05 - z, weight / (4 * 1e6), 0.05 * weight / (4 * 1e6));
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

double JointAngle(const World& w) { return w.q()[w.multibody().position_start(0)]; }

TEST(WorldJointConstraints, PdControllerHoldsAgainstGravityWithTheStaticError) {
  // Rotation about +y by q tips the bob at (l, 0, 0) downwards for q > 0; gravity torque about
  // the joint is m g l cos q. At rest the PD balances it: Kp (q_d − q) = m g l cos q.
  const double m = 1.0, l = 0.5, g = 9.81, kp = 500, kd = 20;
  SceneSpec s = testing::PendulumScene(m, l);
  s.bodies[0].pd = JointPdSpec{kp, kd, 100.0, 0.0, 0.0, 0.0};
  World w(s);
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE(w.Step());
  const double q = JointAngle(w);
  EXPECT_NEAR(kp * (0.0 - q) * -1.0, m * g * l * std::cos(q), 1e-3 * m * g * l);
  EXPECT_GT(q, 0);
  EXPECT_LT(std::abs(w.v()[0]), 1e-6);
}

TEST(WorldJointConstraints, EffortLimitSaturatesAtThePhysicalTorque) {
  // With e_max below the gravity torque the controller cannot hold the link: it accelerates
  // as the free pendulum minus exactly e_max.
  const double m = 1.0, l = 0.5, g = 9.81, e_max = 2.0;
  SceneSpec s = testing::PendulumScene(m, l);
  // Stiff enough that the unsaturated PD would hold the link within the first step.
  s.bodies[0].pd = JointPdSpec{1e5, 1e4, e_max, 0.0, 0.0, 0.0};
  World w(s);
  ASSERT_TRUE(w.Step());
  EXPECT_TRUE(w.last_stats().converged);
  EXPECT_NEAR(w.solver().impulses()[0], -e_max * s.contact_settings.dt_s,
              1e-12);  // saturated: γ = −δt e_max
  const double I = m * l * l + 1e-6;
  const double expected_accel = (m * g * l - e_max) / I;  // q = 0: full gravity torque
  EXPECT_NEAR(w.v()[0] / s.contact_settings.dt_s, expected_accel, 1e-3 * expected_accel);
}

TEST(WorldJointConstraints, JointLimitStopsTheFallingLink) {
  const double lower = -0.3, upper = 0.6;
  SceneSpec s = testing::PendulumScene(1.0, 0.5);
  s.bodies[0].limits = std::make_pair(lower, upper);
  World w(s);
  double max_q = -1e9;
  for (int i = 0; i < 3000; ++i) {
    ASSERT_TRUE(w.Step());
    max_q = std::max(max_q, JointAngle(w));
  }
  // Falls (q grows) onto the upper limit and rests there: near-rigid, tiny overshoot only.
  EXPECT_NEAR(JointAngle(w), upper, 1e-3);
  EXPECT_LT(max_q, upper + 0.02);
  EXPECT_LT(std::abs(w.v()[0]), 1e-3);
}

TEST(WorldJointConstraints, JointLimitStopsALinkFallingOntoItsLowerLimit) {
  // The mirror of the test above: the bob at (−l, 0, 0) rises for q > 0, so the link falls
  // with q decreasing onto the lower limit, whose constraint must push the other way.
  const double lower = -0.6, upper = 0.3, m = 1.0, l = 0.5;
  SceneSpec s = testing::PendulumScene(m, l);
  s.bodies[0].body.inertia.com_B = Eigen::Vector3d(-l, 0, 0);
  s.bodies[0].limits = std::make_pair(lower, upper);
  World w(s);
  double min_q = 1e9;
  for (int i = 0; i < 3000; ++i) {
    ASSERT_TRUE(w.Step());
    min_q = std::min(min_q, JointAngle(w));
  }
  EXPECT_NEAR(JointAngle(w), lower, 1e-3);
  EXPECT_GT(min_q, lower - 0.02);
  EXPECT_LT(std::abs(w.v()[0]), 1e-3);
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

TEST(WorldJointConstraints, PdTargetsMoveTheJointAndResetRestoresThem) {
  SceneSpec s = testing::PendulumScene(1.0, 0.5);
  s.gravity_W.setZero();
  s.bodies[0].pd = JointPdSpec{400, 40, 100.0, 0.0, 0.0, 0.0};
  World w(s);
  w.SetPdTarget(0, 0.5, 0.0);
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(w.Step());
  EXPECT_NEAR(JointAngle(w), 0.5, 1e-6);  // no gravity: no static error
  w.Reset();
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(w.Step());
  EXPECT_NEAR(JointAngle(w), 0.0, 1e-12);  // the original target again
  EXPECT_THROW(w.SetPdTarget(0, NAN, 0), std::invalid_argument);
  EXPECT_THROW(w.SetPdEffortLimit(0, -1), std::invalid_argument);
  SceneSpec no_pd = testing::PendulumScene(1.0, 0.5);
  World w2(no_pd);
  EXPECT_THROW(w2.SetPdTarget(0, 0.1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace contactlab
