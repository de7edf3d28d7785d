// World state and inputs as the timeline, the ghost and picking use them: restoring a state
// replays the following steps bit for bit; a whole actuation can be copied from another world;
// an external force at a body point acts as Newton–Euler says.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/world/world.h"
#include "test_support/approximations.h"
#include "test_support/hydro_box_scene.h"
#include "test_support/pile_scene.h"

namespace contactlab {
namespace {

// One free body without a floor, at rest, unrotated, without gravity unless asked.
SceneSpec FreeBox(bool gravity) {
  SceneSpec s = testing::PileScene(2, 1e-3);
  s.bodies.erase(s.bodies.begin());  // no floor
  s.bodies.erase(s.bodies.begin());  // the sphere
  s.bodies[0].initial_pose = Eigen::Isometry3d::Identity();
  s.bodies[0].initial_velocity.setZero();
  if (!gravity) s.gravity_W.setZero();
  return s;
}

TEST(WorldExternalForce, AtTheBodyOriginAcceleratesAsForceOverMass) {
  const SceneSpec s = FreeBox(true);
  World world(s);
  const double m = s.bodies[0].body.inertia.mass_kg;
  const Eigen::Vector3d f_W(2.0, -1.0, 3.0);
  world.SetExternalForce({0, Eigen::Vector3d::Zero(), f_W});
  const int steps = 100;
  for (int i = 0; i < steps; ++i) ASSERT_TRUE(world.Step());
  const Eigen::Vector3d expected = steps * s.contact_settings.dt_s * (f_W / m + s.gravity_W);
  EXPECT_LT((world.BodyVelocity(0).tail<3>() - expected).norm(), 1e-12);
  EXPECT_LT(world.BodyVelocity(0).head<3>().norm(), 1e-12);  // no torque about the CoM
}

TEST(WorldExternalForce, OffCentreItAlsoSpinsTheBodyByTheMomentArm) {
  // At rest and unrotated, one step of symplectic Euler: m Δv = δt f, I Δω = δt (r × f), no
  // gyroscopic term while ω = 0.
  const SceneSpec s = FreeBox(false);
  World world(s);
  const SpatialInertiaSpec& inertia = s.bodies[0].body.inertia;
  ASSERT_EQ(inertia.com_B, Eigen::Vector3d::Zero());
  const Eigen::Vector3d r_B(0.05, -0.02, 0.03), f_W(0.0, 4.0, -1.0);
  world.SetExternalForce({0, r_B, f_W});
  ASSERT_TRUE(world.Step());
  const Eigen::Vector3d w_expected =
      s.contact_settings.dt_s * inertia.inertia_about_com_B.inverse() * r_B.cross(f_W);
  EXPECT_LT((world.BodyVelocity(0).head<3>() - w_expected).norm(),
            1e-12 * w_expected.norm() + 1e-15);
  EXPECT_LT(
      (world.BodyVelocity(0).tail<3>() - s.contact_settings.dt_s * f_W / inertia.mass_kg).norm(),
      1e-14);
  // Removed: the body keeps its velocity (no force, no gravity).
  world.SetExternalForce({});
  const Eigen::Matrix<double, 6, 1> V = world.BodyVelocity(0);
  ASSERT_TRUE(world.Step());
  EXPECT_LT((world.BodyVelocity(0).tail<3>() - V.tail<3>()).norm(), 1e-14);
}

TEST(WorldExternalForce, ResetRemovesItAndBadForcesAreRejected) {
  SceneSpec s = testing::PileScene(1, 1e-3);
  World world(s);
  world.SetExternalForce({1, Eigen::Vector3d::Zero(), Eigen::Vector3d(0, 0, 100)});
  world.Reset();
  EXPECT_EQ(world.inputs().external_force.scene_body, -1);
  EXPECT_THROW(world.SetExternalForce({0, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()}),
               std::invalid_argument);  // the static floor
  EXPECT_THROW(world.SetExternalForce({5, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()}),
               std::invalid_argument);
  EXPECT_THROW(world.SetExternalForce({1, Eigen::Vector3d::Zero(), Eigen::Vector3d(NAN, 0, 0)}),
               std::invalid_argument);
  EXPECT_EQ(world.inputs().external_force.scene_body, -1);  // rejected: nothing changed
}

// Steps `world` n times; false if a step failed.
bool StepN(World* world, int n) {
  for (int i = 0; i < n; ++i) {
    if (!world->Step()) return false;
  }
  return true;
}

void ExpectRestoredStepsBitForBit(const SceneSpec& s) {
  World world(s);
  ASSERT_TRUE(StepN(&world, 150));
  const Eigen::VectorXd q = world.q(), v = world.v();
  const double t = world.time();
  ASSERT_TRUE(StepN(&world, 100));
  const Eigen::VectorXd q_end = world.q(), v_end = world.v();
  const double t_end = world.time();
  // The same world, its caches warm from a later state, and a fresh one.
  world.SetState(q, v, t);
  ASSERT_TRUE(StepN(&world, 100));
  EXPECT_EQ(world.q(), q_end);
  EXPECT_EQ(world.v(), v_end);
  EXPECT_EQ(world.time(), t_end);
  World fresh(s);
  fresh.SetState(q, v, t);
  ASSERT_TRUE(StepN(&fresh, 100));
  EXPECT_EQ(fresh.q(), q_end);
  EXPECT_EQ(fresh.v(), v_end);
}

class WorldStateModels : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(WorldStateModels, RestoringAStateReplaysTheStepsBitForBit) {
  ExpectRestoredStepsBitForBit(testing::PileScene(8, 2e-3, GetParam()));
}

TEST_P(WorldStateModels, RestoringAStateReplaysHydroelasticStepsBitForBit) {
  testing::HydroBoxOptions options;
  options.approximation = GetParam();
  ExpectRestoredStepsBitForBit(testing::HydroBoxScene(options));
}

INSTANTIATE_TEST_SUITE_P(All, WorldStateModels, ::testing::ValuesIn(testing::kAllApproximations),
                         testing::ApproximationTestName);

TEST(WorldActuation, CopyingAnotherWorldsActuationDrivesTheSameSteps) {
  SceneSpec s = FreeBox(true);
  SceneBody link;
  link.body.name = "link";
  link.body.joint = JointType::kRevolute;
  link.body.axis = Eigen::Vector3d::UnitY();
  link.body.inertia.mass_kg = 1.0;
  link.body.inertia.com_B = Eigen::Vector3d(0.3, 0, 0);
  link.body.inertia.inertia_about_com_B = 1e-3 * Eigen::Matrix3d::Identity();
  link.initial_velocity = Eigen::VectorXd::Zero(1);
  link.pd = JointPdSpec{400, 40, 100.0, 0.0, 0.0, 0.0};
  s.bodies.push_back(link);
  World leader(s), follower(s);
  leader.SetPdTarget(1, 0.4, 0.1);
  leader.SetPdEffortLimit(1, 5.0);
  follower.SetActuation(leader.inputs().pd);
  ASSERT_TRUE(StepN(&leader, 50));
  ASSERT_TRUE(StepN(&follower, 50));
  EXPECT_EQ(follower.q(), leader.q());
  EXPECT_GT(std::abs(follower.q()[follower.multibody().position_start(1)]),
            1e-3);  // the link moved toward its new target

  std::vector<std::optional<JointPdSpec>> wrong = leader.inputs().pd;
  wrong[0] = JointPdSpec{};  // the free box has no controller
  EXPECT_THROW(follower.SetActuation(wrong), std::invalid_argument);
  wrong = leader.inputs().pd;
  wrong[1]->q_desired = NAN;
  EXPECT_THROW(follower.SetActuation(wrong), std::invalid_argument);
  wrong.pop_back();
  EXPECT_THROW(follower.SetActuation(wrong), std::invalid_argument);
}

}  // namespace
}  // namespace contactlab
