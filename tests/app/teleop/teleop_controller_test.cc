// TeleopController (issue 4): a commanded TCP twist moves the Panda's hand accordingly in the
// World (the IK itself is tested in engine_control_test); the grip force is a live effort limit;
// bad configurations are rejected.
#include "app/teleop/teleop_controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "app/headless/headless_runner.h"
#include "io/scene_loader.h"
#include "test_support/build_paths.h"

namespace contactlab {
namespace {

SceneSpec PegScene() {
  return LoadSceneFile(contactlab::testing::SourceDirectory() + "/assets/scenes/peg_in_hole.yaml");
}

Eigen::Vector3d RotationVector(const Eigen::Matrix3d& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

void RunTeleop(World* world, TeleopController* teleop, const TeleopCommand& command,
               double duration) {
  const int steps = static_cast<int>(std::llround(duration / world->dt()));
  for (int i = 0; i < steps; ++i) {
    teleop->Update(command, world);
    ASSERT_TRUE(world->Step());
  }
}

TEST(TeleopControllerTest, FindsThePandaInThePegScene) {
  const SceneSpec scene = PegScene();
  const std::optional<TeleopConfig> config = FindTeleopConfig(scene);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->arm_bodies.size(), 7u);
  EXPECT_EQ(config->finger_bodies.size(), 2u);
  EXPECT_EQ(scene.bodies[config->hand_body].body.name, "panda_hand");
  EXPECT_FALSE(FindTeleopConfig(scene, "other_"));
  EXPECT_NE(scene.teleop.script_path.find("teleop/insert_peg.csv"), std::string::npos);
}

TEST(TeleopControllerTest, StartsAtTheSceneTargetsWithTheTcpBetweenThePads) {
  const SceneSpec scene = PegScene();
  World world(scene);
  TeleopController teleop(world, *FindTeleopConfig(scene));
  // Ready pose: hand at (0.30689, 0, 0.59028), z down; TCP 0.0839 m below.
  const Eigen::Vector3d p = teleop.state().target_tcp_W.translation();
  EXPECT_NEAR(p.x(), 0.3068906, 1e-6);
  EXPECT_NEAR(p.y(), 0.0, 1e-9);
  EXPECT_NEAR(p.z(), 0.5902821 - 0.0839, 1e-6);
  EXPECT_NEAR(teleop.state().target_tcp_W.linear()(2, 2), -1.0, 1e-9);
}

// World-frame twist for 0.5 s: the measured TCP moves by V·0.5 s (translation and rotation)
// within 3 %, and moves at V over the second half (past the PD's lag).
TEST(TeleopControllerTest, WorldTwistMovesTheHandAccordingly) {
  const SceneSpec scene = PegScene();
  World world(scene);
  TeleopController teleop(world, *FindTeleopConfig(scene));
  RunTeleop(&world, &teleop, TeleopCommand{.grip = 1.0}, 0.05);  // settle under gravity
  const Eigen::Isometry3d X0 = teleop.state().tcp_W;
  TeleopCommand c;
  c.linear_m_per_s = Eigen::Vector3d(0.04, -0.03, 0.05);
  c.angular_rad_per_s = Eigen::Vector3d(0.1, -0.2, 0.4);
  c.grip = 1.0;
  RunTeleop(&world, &teleop, c, 0.25);
  teleop.Update(c, &world);
  const Eigen::Isometry3d X_mid = teleop.state().tcp_W;
  ASSERT_TRUE(world.Step());
  RunTeleop(&world, &teleop, c, 0.249);
  teleop.Update(c, &world);
  const Eigen::Isometry3d X_end = teleop.state().tcp_W;
  ASSERT_TRUE(world.Step());
  RunTeleop(&world, &teleop, TeleopCommand{.grip = 1.0}, 0.1);  // come to rest
  teleop.Update(TeleopCommand{.grip = 1.0}, &world);
  const Eigen::Isometry3d X1 = teleop.state().tcp_W;

  const Eigen::Vector3d expected_p = 0.5 * c.linear_m_per_s;
  const Eigen::Vector3d expected_r = 0.5 * c.angular_rad_per_s;
  const Eigen::Vector3d moved = X1.translation() - X0.translation();
  const Eigen::Vector3d turned = RotationVector(X1.linear() * X0.linear().transpose());
  EXPECT_LT((moved - expected_p).norm(), 0.03 * expected_p.norm()) << moved.transpose();
  EXPECT_LT((turned - expected_r).norm(), 0.03 * expected_r.norm()) << turned.transpose();
  // Velocity over the second half of the motion.
  const Eigen::Vector3d v = (X_end.translation() - X_mid.translation()) / 0.25;
  const Eigen::Vector3d w = RotationVector(X_end.linear() * X_mid.linear().transpose()) / 0.25;
  EXPECT_LT((v - c.linear_m_per_s).norm(), 0.03 * c.linear_m_per_s.norm()) << v.transpose();
  EXPECT_LT((w - c.angular_rad_per_s).norm(), 0.03 * c.angular_rad_per_s.norm()) << w.transpose();
  EXPECT_LT(teleop.state().position_error_m, 1e-3);
  EXPECT_EQ(teleop.state().ik_failures, 0);
}

// Under error control (docs/contact-model.md §1.2) every step has its own size, and a step may
// end before its planned end (World::next_dt) when attempts are rejected inside World::Step:
// the target pose integrates the twist over the time actually stepped, the part past a step's
// end taken back at the next Update. After any number of steps, some rejected, the target is the
// start plus the twist times the time stepped and the coming step's planned size.
TEST(TeleopControllerTest, UnderErrorControlTheTargetMovesByTheTwistOverTheTimeStepped) {
  World world(PegScene());
  ContactOverrides o;
  o.integrator = TimeIntegration::ErrorControlled(1e-6);
  world.SetOverrides(o);
  TeleopController teleop(world, *FindTeleopConfig(world.scene()));
  const Eigen::Vector3d p0 = teleop.state().target_tcp_W.translation();
  TeleopCommand c;
  c.linear_m_per_s = Eigen::Vector3d(0.04, -0.03, 0.05);
  c.grip = 1.0;
  int rejected = 0, steps = 0;
  while (world.time() < 0.05) {
    teleop.Update(c, &world);
    ASSERT_TRUE(world.Step());
    rejected += world.last_stats().num_rejected;
    ++steps;
  }
  teleop.Update(c, &world);
  const double planned_end_s = world.time() + world.next_dt();
  const Eigen::Vector3d expected = p0 + planned_end_s * c.linear_m_per_s;
  EXPECT_LT((teleop.state().target_tcp_W.translation() - expected).norm(), 1e-12);
  EXPECT_GT(rejected, 0) << "some steps ended before their planned end";
  EXPECT_GT(steps, 50) << "variable steps, not δt_max's";
}

// A tool-frame twist: the hand's z points down, so +z in the tool frame moves the hand down.
TEST(TeleopControllerTest, ToolFrameTwistIsRotatedIntoTheWorld) {
  const SceneSpec scene = PegScene();
  World world(scene);
  TeleopController teleop(world, *FindTeleopConfig(scene));
  const int hand = scene.FindBody("panda_hand");
  const Eigen::Vector3d p0 = world.BodyPose(hand).translation();
  TeleopCommand c;
  c.linear_m_per_s = Eigen::Vector3d(0, 0, 0.05);
  c.frame = CommandFrame::kTool;
  c.grip = 1.0;
  RunTeleop(&world, &teleop, c, 0.5);
  RunTeleop(&world, &teleop, TeleopCommand{.grip = 1.0}, 0.1);
  const Eigen::Vector3d moved = world.BodyPose(hand).translation() - p0;
  EXPECT_NEAR(moved.z(), -0.025, 0.03 * 0.025);
  EXPECT_NEAR(moved.head<2>().norm(), 0.0, 5e-4);
}

// Sum of the normal forces one body's contacts apply to another [N].
double PairNormalForce(const World& world, int a, int b) {
  double f = 0;
  for (const ContactResult& c : world.contacts()) {
    if ((c.body_a == a && c.body_b == b) || (c.body_a == b && c.body_b == a)) {
      f += c.normal_force_W.norm();
    }
  }
  return f;
}

TEST(TeleopControllerTest, GripForceIsALiveEffortLimit) {
  const SceneSpec scene = PegScene();
  World world(scene);
  TeleopController teleop(world, *FindTeleopConfig(scene));
  const int peg = scene.FindBody("peg");
  const int left = scene.FindBody("panda_leftfinger"), right = scene.FindBody("panda_rightfinger");
  RunTeleop(&world, &teleop, TeleopCommand{.grip = 1.0}, 0.1);
  EXPECT_NEAR(PairNormalForce(world, peg, left), 30.0, 0.6);
  EXPECT_NEAR(PairNormalForce(world, peg, right), 30.0, 0.6);
  teleop.SetGripForce(50.0);
  EXPECT_EQ(teleop.grip_force(), 50.0);
  RunTeleop(&world, &teleop, TeleopCommand{.grip = 1.0}, 0.1);
  EXPECT_NEAR(PairNormalForce(world, peg, left), 50.0, 1.0);
  EXPECT_NEAR(PairNormalForce(world, peg, right), 50.0, 1.0);
  EXPECT_EQ(teleop.state().grip_force_N, 50.0);
  teleop.SetGripForce(1e6);  // clamped
  EXPECT_EQ(teleop.grip_force(), teleop.config().max_grip_force_N);
  teleop.SetGripForce(std::nan(""));  // ignored
  EXPECT_EQ(teleop.grip_force(), teleop.config().max_grip_force_N);
}

// The peg scene starts with the peg in the hand: a device that starts open (the keyboard) does
// not drop it; its first toggle to closed takes over, the next one opens both fingers.
TEST(TeleopControllerTest, OpeningTheGripperOpensBothFingers) {
  SceneSpec scene = PegScene();
  World world(scene);
  const TeleopConfig config = *FindTeleopConfig(scene);
  ASSERT_TRUE(config.initial_grip);
  EXPECT_EQ(*config.initial_grip, 1.0);
  TeleopController teleop(world, config);
  // Before any step the state shows the grip in force: the scene's, closed (the panel's line).
  EXPECT_TRUE(teleop.state().grip_latched);
  EXPECT_EQ(teleop.state().command.grip, 1.0);
  RunTeleop(&world, &teleop, TeleopCommand{.grip = 0.0}, 0.2);
  EXPECT_EQ(teleop.state().finger_target_m, 0.0);  // latched closed
  EXPECT_TRUE(teleop.state().grip_latched);
  EXPECT_EQ(teleop.state().command.grip, 1.0);
  EXPECT_NEAR(teleop.state().finger_opening_m, 0.008, 2e-4);
  RunTeleop(&world, &teleop, TeleopCommand{.grip = 1.0}, 0.1);  // the device takes over
  EXPECT_EQ(teleop.state().finger_target_m, 0.0);
  EXPECT_FALSE(teleop.state().grip_latched);
  RunTeleop(&world, &teleop, TeleopCommand{.grip = 0.0}, 1.0);
  const Multibody& mb = world.multibody();
  for (const char* name : {"panda_leftfinger", "panda_rightfinger"}) {
    const int b = world.multibody_index(scene.FindBody(name));
    EXPECT_NEAR(world.q()[mb.position_start(b)], 0.04, 1e-3) << name;
  }
  EXPECT_NEAR(teleop.state().finger_target_m, 0.04, 1e-12);
}

TEST(TeleopControllerTest, RejectsBadConfigurations) {
  const SceneSpec scene = PegScene();
  World world(scene);
  TeleopConfig config = *FindTeleopConfig(scene);
  TeleopConfig no_pd = config;
  no_pd.arm_bodies[0] = scene.FindBody("peg");  // floating, no PD
  EXPECT_THROW(TeleopController(world, no_pd), std::invalid_argument);
  TeleopConfig bad_hand = config;
  bad_hand.hand_body = scene.FindBody("table");  // static
  EXPECT_THROW(TeleopController(world, bad_hand), std::invalid_argument);
}

SceneSpec SpatulaScene() {
  return LoadSceneFile(contactlab::testing::SourceDirectory() + "/assets/scenes/spatula_slip.yaml");
}

// Issue 36: the WSG-50 of spatula_slip, welded to the world, is found as a gripper without an
// arm; the Panda's configuration is the one it always was (no program, 30 N of 70 N).
TEST(TeleopControllerTest, FindsAGripperFixedToTheWorldAndThePandaAsBefore) {
  const SceneSpec scene = SpatulaScene();
  const std::optional<TeleopConfig> c = FindTeleopConfig(scene);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->arm_bodies.empty());
  EXPECT_EQ(scene.bodies[c->hand_body].body.name, "wsg50_body");
  ASSERT_EQ(c->finger_bodies.size(), 2u);
  EXPECT_EQ(scene.bodies[c->finger_bodies[0]].body.name, "wsg50_left_finger");
  EXPECT_EQ(scene.bodies[c->finger_bodies[1]].body.name, "wsg50_right_finger");
  EXPECT_EQ(c->finger_open_m, 0.055);  // the URDF's limits
  EXPECT_EQ(c->finger_closed_m, 0.0);
  ASSERT_TRUE(c->initial_grip);  // starts 10 mm open, holding the spatula
  EXPECT_EQ(*c->initial_grip, 1.0);
  EXPECT_EQ(c->max_grip_force_N, 80.0);  // the URDF's effort
  ASSERT_TRUE(c->grip_force_program);
  EXPECT_EQ(c->grip_force_program->high_N, 16.0);
  EXPECT_EQ(c->grip_force_N, 16.0);  // the wave at t = 0
  EXPECT_TRUE(c->X_HandTcp.isApprox(Eigen::Isometry3d::Identity()));

  const SceneSpec peg = PegScene();
  EXPECT_FALSE(FindFixedGripperConfig(peg));  // the Panda's hand is not welded to the world
  const TeleopConfig panda = *FindTeleopConfig(peg);
  EXPECT_EQ(panda.arm_bodies.size(), 7u);
  EXPECT_FALSE(panda.grip_force_program);
  EXPECT_EQ(panda.grip_force_N, 30.0);
  EXPECT_EQ(panda.max_grip_force_N, 70.0);
}

// The fixed gripper: a twist moves nothing (no IK: the target is the measured tool pose), the
// grip force follows the program at each step's start time (a 0.05 s wave, half duty, at
// δt = 10 ms: steps at t = 0, 0.01, 0.02 high, 0.03, 0.04 low), the leader's effort limit twice
// that (two coupled fingers). The slider stops the program; Reset follows it again.
TEST(TeleopControllerTest, AFixedGripperIgnoresTwistsAndFollowsTheGripProgram) {
  SceneSpec scene = SpatulaScene();
  scene.teleop.grip_force_square_wave = GripForceSquareWave{2.0, 12.0, 0.05, 0.5};
  World world(scene);
  TeleopController teleop(world, *FindTeleopConfig(scene));
  const int leader = teleop.config().finger_bodies[0];
  const Eigen::Isometry3d X_WT0 = teleop.state().tcp_W;
  TeleopCommand move{.grip = 1.0};
  move.linear_m_per_s = Eigen::Vector3d(0.1, 0, 0);
  move.angular_rad_per_s = Eigen::Vector3d(0, 0, 0.5);
  for (const double expected_N : {12.0, 12.0, 12.0, 2.0, 2.0}) {
    teleop.Update(move, &world);
    EXPECT_EQ(teleop.grip_force(), expected_N) << "t = " << world.time();
    EXPECT_EQ(world.inputs().pd[leader]->effort_limit, 2 * expected_N);
    ASSERT_TRUE(world.Step());
  }
  EXPECT_TRUE(teleop.state().ik_ok);
  EXPECT_TRUE(teleop.state().target_tcp_W.isApprox(X_WT0, 1e-12));
  EXPECT_TRUE(teleop.state().tcp_W.isApprox(X_WT0, 1e-12));
  EXPECT_TRUE(teleop.following_grip_program());
  teleop.FollowGripProgram(false);  // the slider
  teleop.SetGripForce(5.0);
  world.Reset();
  teleop.Update(move, &world);  // t = 0: the program would say 12 N
  EXPECT_EQ(teleop.grip_force(), 5.0);
  EXPECT_FALSE(teleop.following_grip_program());
  teleop.Reset(world);
  EXPECT_TRUE(teleop.following_grip_program());
  EXPECT_EQ(teleop.grip_force(), 12.0);
}

SceneSpec GraspBallScene() {
  return LoadSceneFile(contactlab::testing::SourceDirectory() + "/assets/scenes/grasp_ball.yaml");
}

// Issue 38: grasp_ball's joint program (teleop.joint_sines) sets, before every step, the PD
// targets of panda_joint1 and panda_joint2 to q0 + 0.25 sin(ω t) at the rate 0.25 ω cos(ω t)
// with t the step's end (ω = 1 and 2 rad/s; q0 = 0 and −π/4), exactly, and holds the other arm
// joints at the scene's targets; a twist changes nothing. The joints then follow their sines
// within the PD's tracking error: past the start (the rates' targets jump to 0.25 and 0.5 rad/s
// at t = 0, and the drives saturate at 87 N·m while they catch up), within 1 mrad, and at
// t = π/2 s joint 1 stands at its crest q0 + 0.25 rad.
TEST(TeleopControllerTest, AJointProgramSetsItsSinesAtEachStepsEndAndHoldsTheOtherJoints) {
  const SceneSpec scene = GraspBallScene();
  World world(scene);
  const TeleopConfig config = *FindTeleopConfig(scene);
  ASSERT_EQ(config.joint_sines.size(), 2u);
  TeleopController teleop(world, config);
  EXPECT_TRUE(teleop.drives_joints());
  const int link1 = scene.FindBody("panda_link1"), link2 = scene.FindBody("panda_link2");
  const double q2_0 = -0.7853981634;
  TeleopCommand move{.grip = 1.0};
  move.linear_m_per_s = Eigen::Vector3d(0.1, 0, 0);
  move.angular_rad_per_s = Eigen::Vector3d(0, 0, 0.5);
  const Multibody& mb = world.multibody();
  auto q = [&](int body) { return world.q()[mb.position_start(world.multibody_index(body))]; };
  double max_error = 0;
  const int steps = static_cast<int>(std::lround(0.5 * M_PI / world.dt()));
  for (int k = 0; k < steps; ++k) {
    teleop.Update(move, &world);
    const double t = world.time() + world.dt();
    const auto& pd = world.inputs().pd;
    ASSERT_DOUBLE_EQ(pd[link1]->q_desired, 0.25 * std::sin(t)) << "t = " << t;
    ASSERT_DOUBLE_EQ(pd[link1]->v_desired, 0.25 * std::cos(t));
    ASSERT_DOUBLE_EQ(pd[link2]->q_desired, q2_0 + 0.25 * std::sin(2 * t));
    ASSERT_DOUBLE_EQ(pd[link2]->v_desired, 0.5 * std::cos(2 * t));
    for (int i = 2; i < 7; ++i) {
      const int b = config.arm_bodies[i];
      ASSERT_EQ(pd[b]->q_desired, scene.bodies[b].pd->q_desired) << scene.bodies[b].body.name;
      ASSERT_EQ(pd[b]->v_desired, 0.0);
    }
    ASSERT_TRUE(world.Step());
    if (world.time() > 0.25) {
      max_error = std::max({max_error, std::abs(q(link1) - 0.25 * std::sin(world.time())),
                            std::abs(q(link2) - q2_0 - 0.25 * std::sin(2 * world.time()))});
    }
  }
  EXPECT_LT(max_error, 1e-3);
  EXPECT_NEAR(world.time(), 0.5 * M_PI, 0.5 * world.dt());
  EXPECT_NEAR(q(link1), 0.25, 1e-3);
  EXPECT_TRUE(teleop.state().ik_ok);

  TeleopConfig finger = config;  // the program drives arm joints only
  finger.joint_sines[0].body = config.finger_bodies[0];
  try {
    TeleopController bad(world, finger);
    ADD_FAILURE() << "a finger accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not one of the arm's joints"), std::string::npos);
  }
}

TEST(TeleopControllerTest, HeadlessNeedsTeleopAndInputTogether) {
  const SceneSpec scene = PegScene();
  World world(scene);
  TeleopController teleop(world, *FindTeleopConfig(scene));
  HeadlessOptions options;
  options.duration_s = 0.01;
  options.teleop = &teleop;
  EXPECT_THROW(RunHeadless(&world, options), std::invalid_argument);
}

}  // namespace
}  // namespace contactlab
