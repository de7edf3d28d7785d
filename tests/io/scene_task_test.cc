// The task keys of scene files (src/io/scene_task.cc): `held_object` names a body and a hand;
// `teleop` a script, a circle or joint sines and a grip force, constant or a square wave. Bad
// entries are one line naming the file, the line and the field.
#include "io/scene_task.h"

#include <gtest/gtest.h>

#include <string>

#include "io/scene_loader.h"

namespace contactlab {
namespace {

const std::string kBodies = R"(
bodies:
  - name: hand
    type: static
    shapes: [{type: box, size: [0.1, 0.1, 0.1]}]
  - name: rod
    mass: 1.0
    shapes: [{type: cylinder, radius: 0.01, length: 0.2}]
  - name: arm
    joint: revolute
    axis: [0, 0, 1]
    joint_position: 0.3
    pd: {kp: 100, kd: 10}
    mass: 1.0
    shapes: [{type: box, size: [0.3, 0.02, 0.02], position: [0.15, 0, 0]}]
  - name: slider
    parent: arm
    joint: prismatic
    axis: [1, 0, 0]
    mass: 0.1
    shapes: [{type: box, size: [0.02, 0.02, 0.02]}]
)";

std::string ErrorOf(const std::string& keys) {
  try {
    ParseScene(kBodies + keys, "bad.yaml");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(SceneTask, AbsentKeysLeaveNoHeldObjectAndNoProgram) {
  const SceneSpec scene = ParseScene(kBodies, "task.yaml");
  EXPECT_FALSE(scene.held_object.has_value());
  EXPECT_TRUE(scene.teleop.script_path.empty());
  EXPECT_EQ(scene.teleop.circle_radius_m, 0);
  EXPECT_FALSE(scene.teleop.grip_force_N.has_value());
  EXPECT_FALSE(scene.teleop.grip_force_square_wave.has_value());
  EXPECT_TRUE(scene.teleop.joint_sines.empty());
}

TEST(SceneTask, HeldObjectAndCircleWithASquareWaveGrip) {
  const SceneSpec scene = ParseScene(kBodies + R"(
held_object: {body: rod, hand: hand}
teleop:
  circle: {radius: 0.03, frequency: 1.2}
  grip_force: {square_wave: {low: 1, high: 16, period: 6, duty: 0.75}}
)",
                                     "task.yaml");
  ASSERT_TRUE(scene.held_object.has_value());
  EXPECT_EQ(scene.held_object->body, scene.FindBody("rod"));
  EXPECT_EQ(scene.held_object->hand, scene.FindBody("hand"));
  EXPECT_DOUBLE_EQ(scene.teleop.circle_radius_m, 0.03);
  EXPECT_DOUBLE_EQ(scene.teleop.circle_frequency_Hz, 1.2);
  ASSERT_TRUE(scene.teleop.grip_force_square_wave.has_value());
  EXPECT_DOUBLE_EQ(scene.teleop.grip_force_square_wave->low_N, 1);
  EXPECT_DOUBLE_EQ(scene.teleop.grip_force_square_wave->high_N, 16);
  EXPECT_DOUBLE_EQ(scene.teleop.grip_force_square_wave->period_s, 6);
  EXPECT_DOUBLE_EQ(scene.teleop.grip_force_square_wave->duty, 0.75);
}

// A scene file's body names its own joint (a URDF's joints go by their names: the grasp_ball
// scene's test, tests/physics/grasp_ball_test.cc).
TEST(SceneTask, JointSinesNameAJointWithAPdController) {
  const SceneSpec scene = ParseScene(kBodies + R"(
teleop:
  joint_sines: [{joint: arm, amplitude: 0.25, angular_frequency: 2.0}]
)",
                                     "task.yaml");
  ASSERT_EQ(scene.teleop.joint_sines.size(), 1u);
  EXPECT_EQ(scene.teleop.joint_sines[0].body, scene.FindBody("arm"));
  EXPECT_EQ(scene.FindJoint("arm"), scene.FindBody("arm"));
  EXPECT_DOUBLE_EQ(scene.teleop.joint_sines[0].amplitude, 0.25);
  EXPECT_DOUBLE_EQ(scene.teleop.joint_sines[0].angular_frequency_rad_per_s, 2.0);
}

TEST(SceneTask, AConstantGripForce) {
  const SceneSpec scene = ParseScene(kBodies + "teleop: {grip_force: 20}\n", "task.yaml");
  ASSERT_TRUE(scene.teleop.grip_force_N.has_value());
  EXPECT_DOUBLE_EQ(*scene.teleop.grip_force_N, 20);
}

struct BadCase {
  const char* name;
  std::string yaml;
  std::string expected_fragment;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

class SceneTaskBadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(SceneTaskBadInput, ClearOneLineError) {
  const BadCase& c = GetParam();
  const std::string message = ErrorOf(c.yaml);
  ASSERT_FALSE(message.empty()) << "accepted bad input";
  EXPECT_NE(message.find("bad.yaml:"), std::string::npos) << message;
  EXPECT_NE(message.find(c.expected_fragment), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SceneTaskBadInput,
    ::testing::Values(
        BadCase{"UnknownHeldBody", "held_object: {body: ball, hand: hand}\n", "ball"},
        BadCase{"HeldObjectWithoutHand", "held_object: {body: rod}\n", "hand"},
        BadCase{"HeldInItself", "held_object: {body: rod, hand: rod}\n", "same body"},
        BadCase{"UnknownTeleopKey", "teleop: {sript: a.csv}\n", "sript"},
        BadCase{"ScriptAndCircle", "teleop: {script: a.csv, circle: {radius: 0.03}}\n", "not both"},
        BadCase{"NegativeRadius", "teleop: {circle: {radius: -0.03}}\n", "radius"},
        BadCase{"NegativeFrequency", "teleop: {circle: {frequency: -1}}\n", "frequency"},
        BadCase{"ZeroGripForce", "teleop: {grip_force: 0}\n", "grip_force"},
        BadCase{"DutyAboveOne",
                "teleop: {grip_force: {square_wave: {low: 1, high: 16, period: 6, duty: 1.5}}}\n",
                "duty"},
        BadCase{"SquareWaveWithoutPeriod",
                "teleop: {grip_force: {square_wave: {low: 1, high: 16, duty: 0.5}}}\n", "period"},
        BadCase{"GripForceText", "teleop: {grip_force: strong}\n", "grip_force"},
        BadCase{"UnknownJoint",
                "teleop: {joint_sines: [{joint: elbow, amplitude: 0.1, angular_frequency: 1}]}\n",
                "teleop.joint_sines[0].joint: no joint named 'elbow'"},
        BadCase{"JointWithoutPd",
                "teleop: {joint_sines: [{joint: slider, amplitude: 0.1, angular_frequency: 1}]}\n",
                "teleop.joint_sines[0].joint: 'slider' is not a revolute or prismatic joint with "
                "a PD controller"},
        BadCase{"FloatingBodyAsJoint",
                "teleop: {joint_sines: [{joint: rod, amplitude: 0.1, angular_frequency: 1}]}\n",
                "'rod' is not a revolute or prismatic joint"},
        BadCase{"NegativeAmplitude",
                "teleop: {joint_sines: [{joint: arm, amplitude: -0.1, angular_frequency: 1}]}\n",
                "teleop.joint_sines[0].amplitude must be non-negative"},
        BadCase{"NanAmplitude",
                "teleop: {joint_sines: [{joint: arm, amplitude: .nan, angular_frequency: 1}]}\n",
                "teleop.joint_sines[0].amplitude"},
        BadCase{"InfiniteAngularFrequency",
                "teleop: {joint_sines: [{joint: arm, amplitude: 0.1, angular_frequency: .inf}]}\n",
                "teleop.joint_sines[0].angular_frequency must be finite"},
        BadCase{"NegativeAngularFrequency",
                "teleop: {joint_sines: [{joint: arm, amplitude: 0.1, angular_frequency: -2}]}\n",
                "teleop.joint_sines[0].angular_frequency must be non-negative"},
        BadCase{"JointSineWithoutAmplitude",
                "teleop: {joint_sines: [{joint: arm, angular_frequency: 1}]}\n",
                "teleop.joint_sines[0] needs 'amplitude'"},
        BadCase{"UnknownJointSineKey",
                "teleop: {joint_sines: [{joint: arm, amplitude: 0.1, frequency: 1}]}\n",
                "unknown field 'frequency'"},
        BadCase{"SameJointTwice",
                "teleop: {joint_sines: [{joint: arm, amplitude: 0.1, angular_frequency: 1}, "
                "{joint: arm, amplitude: 0.2, angular_frequency: 2}]}\n",
                "teleop.joint_sines[1].joint: the same joint as entry 0"},
        BadCase{"JointSinesNotAList", "teleop: {joint_sines: {joint: arm}}\n",
                "teleop.joint_sines: a list"},
        BadCase{"JointSinesAndCircle",
                "teleop: {circle: {radius: 0.03}, "
                "joint_sines: [{joint: arm, amplitude: 0.1, angular_frequency: 1}]}\n",
                "teleop.joint_sines: the joint program drives the arm alone"},
        BadCase{"JointSinesAndScript",
                "teleop: {script: a.csv, "
                "joint_sines: [{joint: arm, amplitude: 0.1, angular_frequency: 1}]}\n",
                "not with a script or a circle"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace contactlab
