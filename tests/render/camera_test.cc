// Camera math: eye placement, view/projection conventions, orbit/pan/zoom.
#include "render/camera.h"

#include <gtest/gtest.h>

#include <cmath>

namespace contactlab {
namespace {

Eigen::Vector3f Project(const Eigen::Matrix4f& m, const Eigen::Vector3f& p) {
  const Eigen::Vector4f c = m * p.homogeneous();
  return c.head<3>() / c.w();
}

TEST(Camera, EyeOrbitsTargetWithZUp) {
  Camera c;
  c.target = Eigen::Vector3f(1, 2, 3);
  c.distance_m = 2;
  c.yaw_rad = 0;
  c.pitch_rad = 0;
  EXPECT_TRUE(c.Eye().isApprox(Eigen::Vector3f(3, 2, 3)));
  c.pitch_rad = 0.5f;
  EXPECT_NEAR((c.Eye() - c.target).norm(), 2.0f, 1e-5f);
  EXPECT_GT(c.Eye().z(), c.target.z());
}

TEST(Camera, TargetProjectsToCentreAndUpIsUp) {
  Camera c;
  const Eigen::Matrix4f m = c.Projection(1.5f) * c.View();
  const Eigen::Vector3f centre = Project(m, c.target);
  EXPECT_NEAR(centre.x(), 0, 1e-5f);
  EXPECT_NEAR(centre.y(), 0, 1e-5f);
  EXPECT_GT(centre.z(), -1);
  EXPECT_LT(centre.z(), 1);
  // A point above the target appears above the centre.
  EXPECT_GT(Project(m, c.target + Eigen::Vector3f(0, 0, 0.1f)).y(), 0);
  // View space: the eye at the origin, looking down −z.
  const Eigen::Vector4f eye_view = c.View() * c.Eye().homogeneous();
  EXPECT_LT(eye_view.head<3>().norm(), 1e-5f);
  EXPECT_NEAR((c.View() * c.target.homogeneous()).z(), -c.distance_m, 1e-5f);
}

TEST(Camera, OrbitClampsPitchAndZoomScalesDistance) {
  Camera c;
  c.Orbit(0.1f, 10.0f);
  EXPECT_LT(c.pitch_rad, 1.5708f);
  EXPECT_TRUE(c.View().allFinite());
  const float d = c.distance_m;
  c.Zoom(0.5f);
  EXPECT_NEAR(c.distance_m, 0.5f * d, 1e-6f);
  c.Zoom(-1.0f);  // ignored
  EXPECT_NEAR(c.distance_m, 0.5f * d, 1e-6f);
  c.Zoom(1e-9f);
  EXPECT_GT(c.distance_m, 0.0f);
}

TEST(Camera, PanMovesTargetInTheViewPlaneFollowingTheMouse) {
  Camera c;
  c.yaw_rad = 0;
  c.pitch_rad = 0;
  const Eigen::Vector3f before = c.target;
  const float aspect = 2.0f;
  const float height = 2 * c.distance_m * std::tan(0.5f * c.fov_y_rad);
  c.Pan(0.5f, 0.0f, aspect);
  const Eigen::Vector3f moved = c.target - before;
  // Dragging right by half the view moves the target left by half the visible width.
  EXPECT_NEAR(moved.norm(), 0.5f * height * aspect, 1e-5f);
  // ...so the old target is now at the right edge of the view (NDC x = 1).
  const Eigen::Matrix4f m = c.Projection(aspect) * c.View();
  EXPECT_NEAR(Project(m, before).x(), 1.0f, 1e-4f);
  EXPECT_NEAR(Project(m, before).y(), 0.0f, 1e-4f);
  c.Pan(0.0f, 0.25f, aspect);  // drag down: the scene moves down, the target up
  EXPECT_GT(c.target.z(), before.z());
}

}  // namespace
}  // namespace contactlab
