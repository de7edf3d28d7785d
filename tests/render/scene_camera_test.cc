// A scene camera (CameraSpec) as the renderer's Camera: the frame convention (+z_C forward,
// +x_C right, +y_C down in the image), attached cameras moving with their body, the image shift.
#include "render/scene_camera.h"

#include <gtest/gtest.h>

#include <cmath>

#include "render/camera.h"
#include "render/view_projection.h"

namespace contactlab {
namespace {

Eigen::Vector3f Project(const Eigen::Matrix4f& m, const Eigen::Vector3f& p) {
  const Eigen::Vector4f c = m * p.homogeneous();
  return c.head<3>() / c.w();
}

// At (1, 0, 0.5) looking along −x_W with z_W up in the image: x_C = +y_W, y_C = −z_W.
CameraSpec FrontCamera() {
  CameraSpec spec;
  spec.name = "front";
  spec.X_PC.linear().col(0) = Eigen::Vector3d(0, 1, 0);
  spec.X_PC.linear().col(1) = Eigen::Vector3d(0, 0, -1);
  spec.X_PC.linear().col(2) = Eigen::Vector3d(-1, 0, 0);
  spec.X_PC.translation() = Eigen::Vector3d(1, 0, 0.5);
  spec.fov_y_rad = M_PI / 2;
  return spec;
}

TEST(SceneCamera, LooksAlongZWithXRightAndYDownInTheImage) {
  Snapshot snapshot;
  const Camera c = SceneCameraView(FrontCamera(), snapshot);
  ASSERT_TRUE(c.X_WC.has_value());
  EXPECT_TRUE(c.Eye().isApprox(Eigen::Vector3f(1, 0, 0.5)));
  EXPECT_TRUE(c.target.isApprox(Eigen::Vector3f(1 - kSceneCameraTargetDistance_m, 0, 0.5)));
  const Eigen::Matrix4f m = ViewProjection(c, snapshot, 1.0f);
  const Eigen::Vector3f centre = Project(m, Eigen::Vector3f(0, 0, 0.5));
  EXPECT_NEAR(centre.x(), 0, 1e-5f);
  EXPECT_NEAR(centre.y(), 0, 1e-5f);
  EXPECT_GT(centre.z(), -1);
  EXPECT_LT(centre.z(), 1);
  // 90° field of view: a point 1 m away and 0.5 m off the axis is half way to the edge.
  EXPECT_NEAR(Project(m, Eigen::Vector3f(0, 0.5f, 0.5f)).x(), 0.5f, 1e-5f);  // +x_C: right
  EXPECT_NEAR(Project(m, Eigen::Vector3f(0, 0, 1.0f)).y(), 0.5f, 1e-5f);     // −y_C: up
  // Behind the camera: outside the depth range.
  const Eigen::Vector4f behind = m * Eigen::Vector4f(2, 0, 0.5, 1);
  EXPECT_LT(behind.w(), 0);
}

TEST(SceneCamera, AnAttachedCameraMovesWithItsBody) {
  CameraSpec spec = FrontCamera();
  spec.body = 0;
  spec.X_PC.translation() = Eigen::Vector3d(0.1, 0, 0);
  Snapshot snapshot;
  Eigen::Isometry3d X_WB = Eigen::Isometry3d::Identity();
  X_WB.translation() = Eigen::Vector3d(0, 0, 1);
  X_WB.linear() = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  snapshot.body_poses = {X_WB};
  const Eigen::Isometry3d X_WC = SceneCameraPose(spec, snapshot);
  EXPECT_TRUE(X_WC.translation().isApprox(Eigen::Vector3d(0, 0.1, 1)));
  EXPECT_TRUE(X_WC.linear().col(2).isApprox(Eigen::Vector3d(0, -1, 0)));  // −x_B turned 90°
  EXPECT_NEAR(spec.X_PC.linear().determinant(), 1.0, 1e-12);              // a rotation
  // Without a pose for the body (another scene's snapshot): the pose as given.
  snapshot.body_poses.clear();
  EXPECT_TRUE(SceneCameraPose(spec, snapshot).isApprox(spec.X_PC));
}

TEST(SceneCamera, ShiftMovesTheImageInNormalizedDeviceCoordinates) {
  Snapshot snapshot;
  Camera c = SceneCameraView(FrontCamera(), snapshot);
  c.shift_ndc = Eigen::Vector2f(0.25f, -0.5f);
  const Eigen::Vector3f centre = Project(ViewProjection(c, snapshot, 1.5f), {0, 0, 0.5f});
  EXPECT_NEAR(centre.x(), 0.25f, 1e-5f);
  EXPECT_NEAR(centre.y(), -0.5f, 1e-5f);
}

}  // namespace
}  // namespace contactlab
