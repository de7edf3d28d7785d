// Files dropped on the GUI: a scene file loads as is, a URDF becomes a minimal scene that runs,
// anything else is one clear error.
#include "io/dropped_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "engine/world/world.h"
#include "io/asset_directory.h"
#include "io/scene_loader.h"

namespace contactlab {
namespace {

TEST(DroppedFile, ASceneFileLoadsAsItIs) {
  const SceneSpec scene = LoadDroppedFile(ResolveScenePath("conveyor"));
  EXPECT_EQ(scene.name, "conveyor");
  EXPECT_EQ(scene.bodies.size(), LoadSceneFile(ResolveScenePath("conveyor")).bodies.size());
}

TEST(DroppedFile, AUrdfBecomesAMinimalSceneThatRuns) {
  const std::string urdf = AssetDirectory() + "/robots/panda.urdf";
  const SceneSpec scene = LoadDroppedFile(urdf);
  EXPECT_EQ(scene.name, "panda");
  ASSERT_GT(scene.bodies.size(), 9u);  // the ground and the Panda's links
  EXPECT_EQ(scene.bodies[0].body.name, "ground");
  // Every joint held: by a PD controller, or (the right finger's <mimic>) by a coupler.
  int held = 0;
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    const SceneBody& b = scene.bodies[i];
    const bool one_dof =
        b.body.joint == JointType::kRevolute || b.body.joint == JointType::kPrismatic;
    if (b.kind != SceneBody::Kind::kDynamic || !one_dof) continue;
    const bool coupled = std::any_of(scene.couplers.begin(), scene.couplers.end(),
                                     [&](const CouplerSpec& c) { return c.body_a == int(i); });
    EXPECT_NE(b.pd.has_value(), coupled) << b.body.name;
    ++held;
  }
  EXPECT_EQ(held, 9);  // 7 arm joints and 2 fingers
  ASSERT_EQ(scene.couplers.size(), 1u);
  EXPECT_EQ(scene.bodies[scene.couplers[0].body_a].body.name, "panda_rightfinger");
  EXPECT_EQ(scene.bodies[scene.couplers[0].body_b].body.name, "panda_leftfinger");
  World world(scene);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(world.Step());
  EXPECT_TRUE(world.q().allFinite());
}

TEST(DroppedFile, AnythingElseIsOneClearError) {
  const std::string text = (std::filesystem::temp_directory_path() / "dropped.txt").string();
  std::ofstream(text) << "not a scene\n";
  try {
    LoadDroppedFile(text);
    FAIL() << "a text file loaded";
  } catch (const SceneError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("dropped.txt: not a scene (.yaml) or robot (.urdf) file"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
  EXPECT_THROW(LoadDroppedFile("/nonexistent/robot.urdf"), SceneError);
  std::filesystem::remove(text);
}

}  // namespace
}  // namespace contactlab
