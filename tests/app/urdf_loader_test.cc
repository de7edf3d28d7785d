// Robots from URDF: the Panda's kinematics against Franka's published zero configuration,
// joint limits and dofs, and clear errors for bad files.
#include "app/urdf_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/scene_loader.h"
#include "engine/world/world.h"

namespace contactlab {
namespace {

const std::string kPanda = std::string(CONTACTLAB_SOURCE_DIR) + "/assets/robots/panda.urdf";

TEST(UrdfLoader, PandaHasSevenRevoluteJointsTwoFingersAndFranksLimits) {
  SceneSpec scene;
  AddUrdfRobot(kPanda, UrdfOptions{}, &scene);
  World world(scene);
  EXPECT_EQ(world.multibody().num_velocities(), 9);
  const int link4 = scene.FindBody("panda_link4");
  ASSERT_GE(link4, 0);
  ASSERT_TRUE(scene.bodies[link4].limits.has_value());
  EXPECT_DOUBLE_EQ(scene.bodies[link4].limits->first, -3.0718);
  EXPECT_DOUBLE_EQ(scene.bodies[link4].limits->second, -0.0698);
  EXPECT_EQ(scene.bodies[scene.FindBody("panda_leftfinger")].body.joint, JointType::kPrismatic);
}

TEST(UrdfLoader, ZeroConfigurationPutsTheFlangeWhereFrankaSaysAndPointsItDown) {
  // Franka's modified-DH parameters give the flange at (a7, 0, d1 + d3 + d5 − d_F) =
  // (0.088, 0, 0.926) m at q = 0 with its z axis pointing down. The hand sits on the flange.
  SceneSpec scene;
  UrdfOptions options;
  options.initial_positions = {{"panda_joint4", 0.0}};
  AddUrdfRobot(kPanda, options, &scene);
  // q4 = 0 is outside its limit, but kinematics don't care: check the pose only.
  World world(scene);
  const Eigen::Isometry3d X_WH = world.BodyPose(scene.FindBody("panda_hand"));
  EXPECT_LT((X_WH.translation() - Eigen::Vector3d(0.088, 0, 0.926)).norm(), 1e-9);
  EXPECT_NEAR(X_WH.linear().col(2).z(), -1.0, 1e-12);
  // A non-trivial configuration: rotating joint 1 by 90° turns the flange to (0, 0.088, z).
  SceneSpec turned;
  options.initial_positions["panda_joint1"] = M_PI / 2;
  AddUrdfRobot(kPanda, options, &turned);
  World world2(turned);
  EXPECT_LT((world2.BodyPose(turned.FindBody("panda_hand")).translation() -
             Eigen::Vector3d(0, 0.088, 0.926))
                .norm(),
            1e-9);
}

TEST(UrdfLoader, HeldByItsPdControllersTheArmStaysPut) {
  SceneSpec scene = ParseScene(R"(
dt: 1.0e-3
robots:
  - urdf: robots/panda.urdf
    joint_positions: {panda_joint2: -0.3, panda_joint4: -2.2, panda_joint6: 1.9, panda_joint7: 0.8}
    pd: {kp: 20000, kd: 500}
)",
                               std::string(CONTACTLAB_SOURCE_DIR) + "/assets/scenes/inline.yaml");
  World world(scene);
  const Eigen::Isometry3d start = world.BodyPose(scene.FindBody("panda_hand"));
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(world.Step());
  EXPECT_TRUE(world.last_stats().converged);
  // Static sag of a PD under gravity: joint 2 carries ≈ 15 kg at ≈ 0.3 m, i.e. ≈ 45 N·m, so
  // ≈ 45/2e4 = 2.2 mrad, ≈ 1.3 mm at the hand's 0.6 m reach; and the arm is at rest.
  EXPECT_LT(
      (world.BodyPose(scene.FindBody("panda_hand")).translation() - start.translation()).norm(),
      2.5e-3);
  EXPECT_LT(world.v().norm(), 1e-3);
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(UrdfLoader, BadFilesGiveClearErrors) {
  SceneSpec scene;
  EXPECT_THROW(AddUrdfRobot("/no/such/robot.urdf", UrdfOptions{}, &scene), SceneError);
  const std::string garbage = WriteTemp("contactlab_garbage.urdf", "<robot name='x'><link");
  try {
    AddUrdfRobot(garbage, UrdfOptions{}, &scene);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find(garbage), std::string::npos) << e.what();
  }
  const std::string mesh = WriteTemp(
      "contactlab_mesh.urdf",
      "<robot name='m'><link name='a'><inertial><mass value='1'/><inertia ixx='1' ixy='0' "
      "ixz='0' iyy='1' iyz='0' izz='1'/></inertial><collision><geometry><mesh "
      "filename='x.stl'/></geometry></collision></link></robot>");
  try {
    AddUrdfRobot(mesh, UrdfOptions{}, &scene);
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("mesh"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'a'"), std::string::npos) << e.what();
  }
  UrdfOptions unknown_joint;
  unknown_joint.initial_positions = {{"no_such_joint", 0.1}};
  EXPECT_THROW(AddUrdfRobot(kPanda, unknown_joint, &scene), SceneError);
}

}  // namespace
}  // namespace contactlab
