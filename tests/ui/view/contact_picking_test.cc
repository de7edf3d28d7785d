// Hover picking and pinning of contacts with known values: a camera looking down the world's
// −y axis at the origin puts the origin in the middle of the viewport and +x to its right; the
// nearest contact within the radius is picked; a pin follows its body pair.
#include "ui/view/contact_picking.h"

#include <gtest/gtest.h>

#include <cmath>

#include "render/camera.h"

namespace contactlab {
namespace {

const Eigen::Vector2f kViewport(800, 600);

// Looks at the origin from (0, −2, 0) (yaw −π/2, level), fov 0.8 rad.
Camera FrontCamera() {
  Camera camera;
  camera.target = Eigen::Vector3f::Zero();
  camera.distance_m = 2.0f;
  camera.yaw_rad = static_cast<float>(-M_PI / 2);
  camera.pitch_rad = 0.0f;
  return camera;
}

Eigen::Matrix4f FrontViewProjection() {
  const Camera camera = FrontCamera();
  return camera.Projection(kViewport.x() / kViewport.y()) * camera.View();
}

ContactResult At(double x, double y, double z, int body_a = 0, int body_b = 1) {
  ContactResult c;
  c.position_W = Eigen::Vector3d(x, y, z);
  c.normal_W = Eigen::Vector3d::UnitZ();
  c.body_a = body_a;
  c.body_b = body_b;
  return c;
}

TEST(ContactPicking, ProjectsTheTargetToTheCentreAndUpIsUp) {
  ASSERT_LT((FrontCamera().Eye() - Eigen::Vector3f(0, -2, 0)).norm(), 1e-5f);
  const Eigen::Matrix4f vp = FrontViewProjection();
  const auto centre = ProjectToScreen(vp, Eigen::Vector3d::Zero(), kViewport);
  ASSERT_TRUE(centre);
  EXPECT_NEAR(centre->x(), 400, 1e-3);
  EXPECT_NEAR(centre->y(), 300, 1e-3);
  // At distance 2 the view is 2·2·tan(0.4) = 1.691 m tall: 0.1 m is 600·0.1/1.691 = 35.5 px.
  const double px_per_m = 600.0 / (4.0 * std::tan(0.4));
  const auto up = ProjectToScreen(vp, Eigen::Vector3d(0, 0, 0.1), kViewport);
  const auto right = ProjectToScreen(vp, Eigen::Vector3d(0.1, 0, 0), kViewport);
  ASSERT_TRUE(up && right);
  EXPECT_NEAR(up->y(), 300 - 0.1 * px_per_m, 0.01);
  EXPECT_NEAR(up->x(), 400, 1e-3);
  EXPECT_NEAR(right->x(), 400 + 0.1 * px_per_m, 0.01);
  // Behind the camera: nothing.
  EXPECT_FALSE(ProjectToScreen(vp, Eigen::Vector3d(0, -3, 0), kViewport));
}

TEST(ContactPicking, PicksTheNearestContactWithinTheRadius) {
  const Eigen::Matrix4f vp = FrontViewProjection();
  const double px_per_m = 600.0 / (4.0 * std::tan(0.4));
  // Two contacts 10 px apart on screen (x = 0 and x = 10 px), one behind the camera.
  const std::vector<ContactResult> contacts = {At(0, -3, 0), At(0, 0, 0),
                                               At(10.0 / px_per_m, 0, 0)};
  EXPECT_EQ(PickContact(contacts, vp, kViewport, {403, 302}, 6), 1);
  EXPECT_EQ(PickContact(contacts, vp, kViewport, {407, 300}, 6), 2);
  EXPECT_EQ(PickContact(contacts, vp, kViewport, {400, 307}, 6), -1);  // 7 px away
  EXPECT_EQ(PickContact(contacts, vp, kViewport, {420, 300}, 6), -1);
  EXPECT_EQ(PickContact({}, vp, kViewport, {400, 300}, 6), -1);
}

TEST(ContactPicking, APinFollowsItsBodyPairToTheNearestContact) {
  std::vector<ContactResult> step1 = {At(0, 0, 0, 0, 1), At(0.1, 0, 0, 0, 1), At(0, 0, 0, 0, 2)};
  step1[1].gliding_offset_m = 3e-4;
  PinnedContact pin;
  Pin(step1, 1, 0.5, ContactApproximation::kSap, &pin);
  EXPECT_TRUE(pin.active && pin.present);
  EXPECT_EQ(pin.body_a, 0);
  EXPECT_EQ(pin.body_b, 1);
  EXPECT_EQ(pin.model, ContactApproximation::kSap);
  // Next step: the pair's contacts have moved by 1 cm; the other pair is nearer but not it.
  std::vector<ContactResult> step2 = {At(0.09, 0, 0, 0, 2), At(0.01, 0, 0, 0, 1),
                                      At(0.11, 0, 0, 0, 1)};
  step2[2].gliding_offset_m = 2e-4;
  FollowPinned(step2, 0.501, ContactApproximation::kDrumwrightShell, &pin);
  EXPECT_TRUE(pin.present);
  EXPECT_DOUBLE_EQ(pin.last.position_W.x(), 0.11);
  EXPECT_DOUBLE_EQ(pin.last.gliding_offset_m, 2e-4);
  EXPECT_DOUBLE_EQ(pin.time_s, 0.501);
  EXPECT_EQ(pin.model, ContactApproximation::kDrumwrightShell) << "switched while pinned";
  // The pair's order matters (A, B); out of contact the last values stay.
  FollowPinned({At(0.11, 0, 0, 1, 0)}, 0.502, ContactApproximation::kLagged, &pin);
  EXPECT_FALSE(pin.present);
  EXPECT_DOUBLE_EQ(pin.last.gliding_offset_m, 2e-4);
  EXPECT_DOUBLE_EQ(pin.time_s, 0.501);
  EXPECT_EQ(pin.model, ContactApproximation::kDrumwrightShell) << "the last values' model";
  EXPECT_EQ(MatchContact(step2, 0, 1, Eigen::Vector3d(0, 0, 0)), 1);
  EXPECT_EQ(MatchContact(step2, 3, 4, Eigen::Vector3d(0, 0, 0)), -1);
  Unpin(&pin);
  FollowPinned(step2, 0.503, ContactApproximation::kLagged, &pin);
  EXPECT_FALSE(pin.active || pin.present);
}

}  // namespace
}  // namespace contactlab
