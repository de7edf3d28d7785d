// Drumwright & Shell's grasping example (SAC '09 §5; assets/scenes/grasp_ball.yaml, issue 38):
// the Panda holds a golf ball (r = 21.35 mm, 45.93 g) between its pads with 2 N each (μ = 1)
// while its shoulder joints follow sin(t)/4 and sin(2t)/4 rad (teleop.joint_sines). Known
// answers: held still the ball creeps at the models' stiction speeds; moving, it drifts outward
// from joint 2's axis by the step's chord error ½ δt ω² R. Short runs at δt = 1 ms (under a
// second each in Release); the 25 s runs per model are the study studies/grasp_drift's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "app/teleop/slip_meter.h"
#include "app/teleop/teleop_program.h"
#include "physics_test_util.h"
#include "test_support/run_contactlab.h"

namespace contactlab {
namespace {

constexpr double kRadius_m = 0.02135, kMass_kg = 0.04593, kGrip_N = 2.0, kMu = 1.0, kG = 9.81;
const Eigen::Vector3d kShoulder_W(0, 0, 0.333);  // a point on joint 2's axis (world y at q1 = 0)

// The scene stepped through the teleop controller (which runs the joint program), with the slip
// meter on the ball in the hand.
struct GraspBallRig {
  GraspBallRig(SceneSpec s, ContactApproximation model)
      : scene(WithModel(std::move(s), model)),
        world(scene),
        teleop(world, *FindTeleopConfig(scene)),
        meter(world, scene.held_object->body, scene.held_object->hand) {}
  static SceneSpec WithModel(SceneSpec s, ContactApproximation model) {
    ContactOverrides o;
    o.approximation = model;
    ApplyOverrides(o, &s.contact_settings);
    return s;
  }
  // Steps until `t_s` (the grip closed, as the headless run's keyboard leaves it); false on a
  // failed step.
  bool RunUntil(double t_s) {
    while (world.time() < t_s - 0.5 * world.dt()) {
      teleop.Update(TeleopCommand{.grip = 1.0}, &world);
      if (!world.Step()) return false;
      meter.Observe(world);
    }
    return true;
  }
  // The mean slip of the ball in the hand over the next `steps` steps [m/s], in H.
  Eigen::Vector3d MeanSlip(int steps) {
    const Eigen::Vector3d p0 = meter.reading().X_HB.translation();
    const double t0 = world.time();
    EXPECT_TRUE(RunUntil(t0 + steps * world.dt()));
    return (meter.reading().X_HB.translation() - p0) / (world.time() - t0);
  }
  SceneSpec scene;
  World world;
  TeleopController teleop;
  SlipMeter meter;
};

SceneSpec WithAmplitudes(double a1, double a2) {
  SceneSpec scene = testing::LoadBuiltinScene("grasp_ball");
  scene.teleop.joint_sines.at(0).amplitude = a1;
  scene.teleop.joint_sines.at(1).amplitude = a2;
  return scene;
}

TEST(GraspBallScene, IsAGolfBallBetweenThePadsAndTheShoulderSinesOfThePaper) {
  const SceneSpec scene = testing::LoadBuiltinScene("grasp_ball");
  const int ball = scene.FindBody("ball");
  ASSERT_GE(ball, 0);
  EXPECT_EQ(scene.bodies[ball].body.inertia.mass_kg, kMass_kg);
  EXPECT_EQ(scene.bodies[ball].geometries.at(0).shape.radius_m, kRadius_m);
  ASSERT_TRUE(scene.held_object.has_value());
  EXPECT_EQ(scene.held_object->body, ball);
  EXPECT_EQ(scene.held_object->hand, scene.FindBody("panda_hand"));
  // The URDF's joints go by their names: panda_jointN moves panda_linkN.
  ASSERT_EQ(scene.teleop.joint_sines.size(), 2u);
  EXPECT_EQ(scene.FindJoint("panda_joint1"), scene.FindBody("panda_link1"));
  EXPECT_EQ(scene.teleop.joint_sines[0].body, scene.FindBody("panda_link1"));
  EXPECT_EQ(scene.teleop.joint_sines[1].body, scene.FindBody("panda_link2"));
  EXPECT_EQ(scene.teleop.joint_sines[0].amplitude, 0.25);
  EXPECT_EQ(scene.teleop.joint_sines[1].amplitude, 0.25);
  EXPECT_EQ(scene.teleop.joint_sines[0].angular_frequency_rad_per_s, 1.0);
  EXPECT_EQ(scene.teleop.joint_sines[1].angular_frequency_rad_per_s, 2.0);
  EXPECT_TRUE(HasJointProgram(scene));
  EXPECT_EQ(JointProgramLabel(scene), "panda_joint1 0.25 sin(1 t), panda_joint2 0.25 sin(2 t)");
  EXPECT_EQ(FindTeleopConfig(scene)->grip_force_N, kGrip_N);
  EXPECT_EQ(scene.duration_s, 25.0);
  EXPECT_EQ(scene.contact_settings.dt_s, 1e-3);
  EXPECT_EQ(scene.contact_settings.approximation, ContactApproximation::kLagged);
  for (const SceneBody& b : scene.bodies) {
    for (const GeometrySpec& g : b.geometries) {
      EXPECT_EQ(g.hydroelastic.model, ContactModel::kPoint) << b.body.name << ": point contact";
    }
  }
  // The ball's centre is the tool point, midway between the pads 0.0839 m along the hand's z
  // (to the scene file's 1e-10 m), and each pad's inner face, 2 mm beyond its finger joint,
  // touches it.
  const World world(scene);
  const Eigen::Vector3d p_HB = world.BodyPose(scene.held_object->hand).inverse(Eigen::Isometry) *
                               world.BodyPose(ball).translation();
  EXPECT_LT((p_HB - Eigen::Vector3d(0, 0, 0.0839)).norm(), 1e-9) << p_HB.transpose();
  for (const char* finger : {"panda_leftfinger", "panda_rightfinger"}) {
    EXPECT_NEAR(scene.bodies[scene.FindBody(finger)].initial_position + 0.002, kRadius_m, 1e-15);
  }
}

// Held still (amplitudes 0) the ball creeps down the fingers (+z of the z-down hand) at the
// model's stiction speed once the grip has settled: Lagged's and Similar's soft norm (§2.3)
// v_s r/√(1 − r²) with r = m g/(2 μ F) = 0.113, 11.34 µm/s; SAP's regularized stiction (§2.1),
// where a sticking contact's slip is R_t times its impulse, σ w_t (m g/2) δt, with the ball's
// tangential inverse mass at a pad w_t ≈ 1/m + r²/I = 3.5/m (the finger's tree adds a little):
// 17.2 µm/s, whatever the ball's mass or the grip. Measured: 11.336, 11.336 and 17.34 µm/s.
TEST(GraspBall, HeldStillTheBallCreepsAtTheModelsStictionSpeed) {
  const double r = kMass_kg * kG / (2 * kMu * kGrip_N);
  const double soft_norm = 1e-4 * r / std::sqrt(1 - r * r);
  const double sap = 1e-3 * 3.5 * kG / 2 * 1e-3;
  for (const auto& [model, expected, tolerance] :
       {std::tuple{ContactApproximation::kLagged, soft_norm, 0.001},
        std::tuple{ContactApproximation::kSimilar, soft_norm, 0.001},
        std::tuple{ContactApproximation::kSap, sap, 0.03}}) {
    SCOPED_TRACE(ContactApproximationName(model));
    GraspBallRig rig(WithAmplitudes(0, 0), model);
    ASSERT_TRUE(rig.RunUntil(0.5));
    const Eigen::Vector3d v = rig.MeanSlip(500);
    EXPECT_NEAR(v.z(), expected, tolerance * expected);
    EXPECT_LT(v.head<2>().norm(), 0.01 * expected) << "straight down the fingers";
    EXPECT_TRUE(rig.meter.reading().held);
  }
}

// Moving, the time step adds a drift no friction takes back: a step moves the floating ball by
// δt v (symplectic Euler: the velocity at the step's end, the contacts holding it to the hand's),
// the hand along the arc its joint turns by δt ω, and the arc falls short of the tangent by
// ½ δt² ω² R radially (the chain's velocity-product acceleration, docs/architecture.md §5, The
// slip meter). So with joint 2 alone turning, the ball creeps outward from its axis at
// ½ δt ω² R, on top of the held-still creep. At t = π s joint 2 turns at its fastest, ω = 0.5
// rad/s, its acceleration 0, and stands at q0 (the hand's z straight down again); R = 0.352 m
// from the axis: 44.1 µm/s outward plus 11.3 µm/s down. Measured within 0.4 %; the test allows
// 2 % of the whole (a drift that scaled with δt otherwise, or came from the contact model's
// creep alone, would be off by 80 %).
TEST(GraspBall, MovingTheBallDriftsOutwardByTheStepsChordError) {
  GraspBallRig rig(WithAmplitudes(0, 0.25), ContactApproximation::kLagged);
  ASSERT_TRUE(rig.RunUntil(M_PI - 0.005));
  const Eigen::Vector3d v_H = rig.MeanSlip(10);
  const Eigen::Isometry3d X_WH = rig.world.BodyPose(rig.scene.held_object->hand);
  Eigen::Vector3d radial_W =
      rig.world.BodyPose(rig.scene.held_object->body).translation() - kShoulder_W;
  radial_W.y() = 0;  // ⊥ joint 2's axis, world y
  const double R = radial_W.norm(), omega = 0.5, dt = rig.world.dt();
  EXPECT_NEAR(R, 0.35248, 1e-4);
  const double r = kMass_kg * kG / (2 * kMu * kGrip_N);
  const Eigen::Vector3d expected_H =
      X_WH.linear().transpose() * (0.5 * dt * omega * omega * radial_W) +
      Eigen::Vector3d(0, 0, 1e-4 * r / std::sqrt(1 - r * r));
  EXPECT_LT((v_H - expected_H).norm(), 0.02 * expected_H.norm())
      << "v_H " << 1e6 * v_H.transpose() << " µm/s, expected " << 1e6 * expected_H.transpose();
}

// The check of the scene as the headless binary runs it: 0.5 s under Lagged (the
// scene's model) with its joint program and no --input. The joints follow their sines within
// 2 mrad (the drives saturate for the first 10 ms, joint 2 lagging 1.7 mrad at most; 0.1 mrad
// after 0.25 s) and the ball stays in the hand: its drift stays below 0.1 mm (the paper's
// final drift), the most it could gather here — Lagged's first step carries no friction (the
// normal force it lags is zero at the start), so the ball falls behind the hand's first-step
// acceleration, δt²(g + 47 m/s²) < 60 µm, and then creeps at most 11.3 + 44 µm/s (held-still
// creep and chord error at joint 2's fastest) for 0.5 s, 28 µm. Measured 15 µm.
TEST(GraspBall, HeadlessTheJointsFollowTheSinesAndTheBallStaysInTheHand) {
  const std::string stem = "/tmp/contactlab_grasp_ball_" + std::to_string(getpid());
  const auto r = testing::RunContactlab("--headless --scene grasp_ball --duration 0.5 --log " +
                                        stem + ".csv --summary " + stem + ".json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("joint program drives the arm"), std::string::npos) << r.output;
  std::ifstream in(stem + ".csv");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> columns;
  std::stringstream header(line);
  for (std::string c; std::getline(header, c, ',');) columns.push_back(c);
  auto column = [&](const std::string& name) {
    const auto it = std::find(columns.begin(), columns.end(), name);
    EXPECT_NE(it, columns.end()) << name;
    return it - columns.begin();
  };
  const auto t_col = column("t"), q1_col = column("panda_link1.q"),
             q2_col = column("panda_link2.q"), drift_col = column("held_object.drift_m"),
             held_col = column("held_object.held");
  int rows = 0;
  double max_drift = 0, max_error = 0;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) row.push_back(std::stod(f));
    const double t = row.at(t_col);
    max_error = std::max({max_error, std::abs(row.at(q1_col) - 0.25 * std::sin(t)),
                          std::abs(row.at(q2_col) + 0.7853981634 - 0.25 * std::sin(2 * t))});
    max_drift = std::max(max_drift, row.at(drift_col));
    EXPECT_EQ(row.at(held_col), 1.0) << "t = " << t;
    ++rows;
  }
  std::filesystem::remove(stem + ".csv");
  EXPECT_EQ(rows, 500);
  EXPECT_LT(max_error, 2e-3);
  EXPECT_LT(max_drift, 1e-4);
  EXPECT_GT(max_drift, 1e-6) << "a drift column reading zero would pass the bound";
  std::ifstream summary_in(stem + ".json");
  const std::string summary(std::istreambuf_iterator<char>(summary_in), {});
  std::filesystem::remove(stem + ".json");
  EXPECT_NE(summary.find("\"failed\": false"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"held_at_end\": true"), std::string::npos) << summary;
}

}  // namespace
}  // namespace contactlab
