// The GUI's choice of cameras: defaults per scene, --camera names, the free camera taking over
// from a scene camera, where the inset goes.
#include "ui/view/camera_views.h"

#include <gtest/gtest.h>

#include <cmath>

#include "render/camera.h"
#include "render/scene_camera.h"

namespace contactlab {
namespace {

SceneSpec WithCameras(std::initializer_list<const char*> names) {
  SceneSpec scene;
  scene.name = "s";
  for (const char* n : names) {
    CameraSpec c;
    c.name = n;
    c.X_PC = Eigen::Isometry3d(Eigen::Translation3d(1, -1, 1));
    c.X_PC.linear() = Eigen::AngleAxisd(2.0, Eigen::Vector3d(1, 1, 0).normalized()).matrix();
    scene.cameras.push_back(c);
  }
  return scene;
}

TEST(CameraViews, TaskIsTheMainViewAndWristTheInsetByDefault) {
  const SceneSpec robot = WithCameras({"wrist", "task"});
  CameraViews v = DefaultCameraViews(robot, "");
  EXPECT_EQ(v.main, 1);
  EXPECT_EQ(v.inset, 0);
  v = DefaultCameraViews(robot, "wrist");
  EXPECT_EQ(v.main, 0);
  EXPECT_EQ(v.inset, 1);  // a second view: the task's
  v = DefaultCameraViews(robot, kFreeCameraName);
  EXPECT_EQ(v.main, -1);
  // Another scene without them: the free camera, no inset.
  v = DefaultCameraViews(WithCameras({"overhead"}), "wrist");
  EXPECT_EQ(v.main, -1);
  EXPECT_EQ(v.inset, -1);
}

TEST(CameraViews, AnUnknownNameIsOneLineListingTheCameras) {
  const SceneSpec robot = WithCameras({"task", "wrist"});
  EXPECT_EQ(CheckCameraName(robot, ""), "");
  EXPECT_EQ(CheckCameraName(robot, "wrist"), "");
  EXPECT_EQ(CheckCameraName(robot, "free"), "");
  EXPECT_EQ(CheckCameraName(robot, "elbow"),
            "--camera elbow: scene 's' has no camera of that name (cameras: free, task, wrist)");
}

TEST(CameraViews, TheFreeCameraTakesOverWhereTheSceneCameraLooked) {
  const SceneSpec scene = WithCameras({"task"});
  Snapshot snapshot;
  const Camera fixed = SceneCameraView(scene.cameras[0], snapshot);
  const Camera orbit = OrbitFrom(fixed);
  EXPECT_FALSE(orbit.X_WC.has_value());
  EXPECT_TRUE(orbit.Eye().isApprox(fixed.Eye(), 1e-4f));
  EXPECT_TRUE(orbit.target.isApprox(fixed.target, 1e-5f));
  EXPECT_FLOAT_EQ(orbit.fov_y_rad, fixed.fov_y_rad);
}

TEST(CameraViews, APointIsOverTheInsetOnlyWhenTheViewsShowOne) {
  auto scene = std::make_shared<SceneSpec>();
  scene->cameras.resize(2);
  Snapshot snapshot;
  snapshot.scene = scene;
  CameraViews views;
  views.inset = 1;
  const InsetRect r = ComputeInsetRect(1280, 720, views.inset_height_fraction);
  EXPECT_TRUE(OverInset(snapshot, views, 1280, 720, r.x + 0.5f * r.w, r.y + 0.5f * r.h));
  EXPECT_TRUE(OverInset(snapshot, views, 1280, 720, r.x + 1, r.y + r.h - 1));
  EXPECT_FALSE(OverInset(snapshot, views, 1280, 720, r.x - 1, r.y + 0.5f * r.h));
  EXPECT_FALSE(OverInset(snapshot, views, 1280, 720, r.x + 0.5f * r.w, r.y + r.h + 1));
  views.inset = -1;  // none shown: the whole window is the main view's
  EXPECT_FALSE(OverInset(snapshot, views, 1280, 720, r.x + 0.5f * r.w, r.y + 0.5f * r.h));
  views.inset = 2;  // no such camera: nothing is drawn there
  EXPECT_FALSE(OverInset(snapshot, views, 1280, 720, r.x + 0.5f * r.w, r.y + 0.5f * r.h));
}

TEST(CameraViews, TheInsetSitsTopRightWithinTheWindow) {
  const InsetRect r = ComputeInsetRect(1280, 720, 0.3f);
  EXPECT_FLOAT_EQ(r.h, 216.0f);
  EXPECT_FLOAT_EQ(r.w, 288.0f);  // 4:3
  EXPECT_FLOAT_EQ(r.x + r.w, 1270.0f);
  EXPECT_GT(r.y, 0.0f);
  EXPECT_LT(r.y + r.h, 720.0f);
}

}  // namespace
}  // namespace contactlab
