// The `cameras:` of a scene file (and a body's `color`): poses from position/look_at/up in the
// camera frame convention of CameraSpec, bodies by name, one clear error per bad entry.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "io/scene_loader.h"

namespace contactlab {
namespace {

const char* kBodies = R"(bodies:
  - name: ground
    type: static
    shapes: [{type: half_space}]
  - name: ball
    mass: 1.0
    position: [0, 0, 0.1]
    color: [0.1, 0.2, 0.3]
    shapes: [{type: sphere, radius: 0.05}]
)";

std::string ErrorOf(const std::string& cameras) {
  try {
    ParseScene(std::string(kBodies) + cameras, "bad.yaml");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(SceneCameras, FixedCameraLooksAlongZWithImageYDown) {
  const SceneSpec s = ParseScene(std::string(kBodies) + R"(cameras:
  - {name: front, position: [1, 0, 0.5], look_at: [0, 0, 0.5], fov_deg: 60}
)",
                                 "ok.yaml");
  ASSERT_EQ(s.cameras.size(), 1u);
  const CameraSpec& c = s.cameras[0];
  EXPECT_EQ(c.name, "front");
  EXPECT_EQ(c.body, -1);
  EXPECT_NEAR(c.fov_y_rad, M_PI / 3, 1e-12);
  // Looking along −x from +x with z up: image right is +y_W, image down is −z_W.
  EXPECT_TRUE(c.X_PC.translation().isApprox(Eigen::Vector3d(1, 0, 0.5)));
  EXPECT_TRUE(c.X_PC.linear().col(2).isApprox(Eigen::Vector3d(-1, 0, 0)));
  EXPECT_TRUE(c.X_PC.linear().col(0).isApprox(Eigen::Vector3d(0, 1, 0)));
  EXPECT_TRUE(c.X_PC.linear().col(1).isApprox(Eigen::Vector3d(0, 0, -1)));
  EXPECT_NEAR(c.X_PC.linear().determinant(), 1.0, 1e-12);
  EXPECT_EQ(s.FindCamera("front"), 0);
  EXPECT_EQ(s.FindCamera("back"), -1);
  ASSERT_TRUE(s.bodies[1].color.has_value());
  EXPECT_TRUE(s.bodies[1].color->isApprox(Eigen::Vector3d(0.1, 0.2, 0.3)));
  EXPECT_FALSE(s.bodies[0].color.has_value());
}

TEST(SceneCameras, AttachedCameraIsInItsBodysFrame) {
  const SceneSpec s = ParseScene(std::string(kBodies) + R"(cameras:
  - {name: eye, body: ball, position: [0, 0, 0.1], look_at: [0, 0, 0], up: [1, 0, 0]}
)",
                                 "ok.yaml");
  ASSERT_EQ(s.cameras.size(), 1u);
  EXPECT_EQ(s.cameras[0].body, s.FindBody("ball"));
  EXPECT_NEAR(s.cameras[0].fov_y_rad, M_PI / 4, 1e-12);  // the default 45°
  // Looking down −z_B with x_B up in the image: image down (+y_C) is −x_B.
  EXPECT_TRUE(s.cameras[0].X_PC.linear().col(2).isApprox(Eigen::Vector3d(0, 0, -1)));
  EXPECT_TRUE(s.cameras[0].X_PC.linear().col(1).isApprox(Eigen::Vector3d(-1, 0, 0)));
}

TEST(SceneCameras, PegInHoleHasTaskAndWristCameras) {
  const SceneSpec s = LoadSceneFile(ResolveScenePath("peg_in_hole"));
  const int task = s.FindCamera("task"), wrist = s.FindCamera("wrist");
  ASSERT_GE(task, 0);
  ASSERT_GE(wrist, 0);
  EXPECT_EQ(s.cameras[task].body, -1);
  EXPECT_EQ(s.cameras[wrist].body, s.FindBody("panda_hand"));
  EXPECT_GE(s.FindBody("panda_hand"), 0);
}

struct BadCamera {
  const char* name;
  std::string yaml;
  std::string fragment;  // what the message must name
};
void PrintTo(const BadCamera& c, std::ostream* os) { *os << c.name; }

class SceneCamerasBadInput : public ::testing::TestWithParam<BadCamera> {};

// The cameras start on line 11 of the scene (after kBodies' ten lines).
TEST_P(SceneCamerasBadInput, OneLineNamingFileLineAndField) {
  const std::string message = ErrorOf(GetParam().yaml);
  ASSERT_FALSE(message.empty()) << "accepted bad input";
  EXPECT_NE(message.find("bad.yaml:1"), std::string::npos) << message;
  EXPECT_NE(message.find(GetParam().fragment), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SceneCamerasBadInput,
    ::testing::Values(
        BadCamera{"NotAList", "cameras: {name: a}\n", "cameras must be a list"},
        BadCamera{"NoName", "cameras:\n  - {position: [1, 0, 0], look_at: [0, 0, 0]}\n",
                  "cameras[0] needs a name"},
        BadCamera{"UnknownField",
                  "cameras:\n  - {name: a, position: [1, 0, 0], look_at: [0, 0, 0], fov: 3}\n",
                  "unknown field 'fov'"},
        BadCamera{"NoLookAt", "cameras:\n  - {name: a, position: [1, 0, 0]}\n",
                  "camera 'a' needs look_at"},
        BadCamera{"LookAtItself",
                  "cameras:\n  - {name: a, position: [1, 0, 0], look_at: [1, 0, 0]}\n",
                  "look_at must differ"},
        BadCamera{"UpAlongView",
                  "cameras:\n  - {name: a, position: [0, 0, 1], look_at: [0, 0, 0]}\n",
                  "up must not point along"},
        BadCamera{"UnknownBody",
                  "cameras:\n  - {name: a, body: hand, position: [1, 0, 0], look_at: [0, 0, 0]}\n",
                  "no body named 'hand'"},
        BadCamera{"FovTooLarge",
                  "cameras:\n  - {name: a, position: [1, 0, 0], look_at: [0, 0, 0], "
                  "fov_deg: 180}\n",
                  "fov_deg must be in (0, 180)"},
        BadCamera{"BadPosition", "cameras:\n  - {name: a, position: [1, 0], look_at: [0, 0, 0]}\n",
                  "camera 'a'.position"},
        BadCamera{"NameTwice",
                  "cameras:\n  - {name: a, position: [1, 0, 0], look_at: [0, 0, 0]}\n"
                  "  - {name: a, position: [2, 0, 0], look_at: [0, 0, 0]}\n",
                  "name used twice"},
        BadCamera{"BadColor", "cameras: []\ngenerators: [{type: peg_block, color: [1, 2, 0]}]\n",
                  "color must be three numbers in [0, 1]"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace contactlab
