// Body picking: the ray through a pixel is the inverse of the projection, and it hits the
// nearest dynamic body where the geometry says (a sphere's near surface), never a static one.
#include "ui/view/body_picker.h"

#include <gtest/gtest.h>

#include "render/camera.h"
#include "render/view_projection.h"
#include "test_support/pile_scene.h"
#include "ui/view/contact_picking.h"

namespace contactlab {
namespace {

TEST(BodyPicker, TheRayThroughTheSpheresCentreHitsItsNearSurface) {
  SceneSpec scene = testing::PileScene(1, 1e-3);  // the floor and a sphere of radius 5 cm
  World world(scene);
  Snapshot snapshot;
  FillSnapshot(world, 0, 0, &snapshot);
  const Eigen::Vector3d centre = snapshot.body_poses[1].translation();
  Camera camera;
  camera.target = centre.cast<float>();
  camera.distance_m = 1.0f;
  const Eigen::Vector2f viewport(800, 600);
  const Eigen::Matrix4f vp = ViewProjection(camera, snapshot, viewport.x() / viewport.y());

  const std::optional<Eigen::Vector2f> pixel = ProjectToScreen(vp, centre, viewport);
  ASSERT_TRUE(pixel.has_value());
  EXPECT_NEAR(pixel->x(), 400, 0.5);  // the camera looks at it: the middle of the view
  EXPECT_NEAR(pixel->y(), 300, 0.5);
  const Ray ray = ScreenRay(vp, *pixel, viewport);
  const Eigen::Vector3d eye = camera.Eye().cast<double>();
  EXPECT_LT((ray.origin_W - eye).cross(ray.direction_W).norm(), 1e-4);         // from the eye
  EXPECT_LT(ray.direction_W.cross((centre - eye).normalized()).norm(), 1e-5);  // through it

  BodyPicker picker;
  const std::optional<BodyHit> hit = picker.Pick(snapshot, ray);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->body, 1);
  // The tessellated sphere lies within r (1 − cos(π/28)) ≈ 0.3 mm inside the true one.
  EXPECT_NEAR((hit->p_W - centre).norm(), 0.05, 5e-4);
  EXPECT_LT((hit->p_W - eye).norm(), (centre - eye).norm());  // the near side

  // Beside the sphere the ray meets only the static floor: nothing to pick.
  const Eigen::Vector3d beside = centre + Eigen::Vector3d(0.2, -0.2, -centre.z());
  const std::optional<Eigen::Vector2f> floor_pixel = ProjectToScreen(vp, beside, viewport);
  ASSERT_TRUE(floor_pixel.has_value());
  EXPECT_FALSE(picker.Pick(snapshot, ScreenRay(vp, *floor_pixel, viewport)).has_value());
}

TEST(BodyPicker, TheDragPlaneMeetsTheRayWhereExpected) {
  const Ray ray{Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(0, 0, -1)};
  const std::optional<Eigen::Vector3d> p =
      IntersectPlane(ray, Eigen::Vector3d(5, 5, 0.25), Eigen::Vector3d(0, 0, 1));
  ASSERT_TRUE(p.has_value());
  EXPECT_LT((*p - Eigen::Vector3d(0, 0, 0.25)).norm(), 1e-15);
  EXPECT_FALSE(IntersectPlane(ray, Eigen::Vector3d(0, 0, 2), Eigen::Vector3d(0, 0, 1)));  // behind
  EXPECT_FALSE(IntersectPlane(ray, Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 0, 0)));  // parallel
}

}  // namespace
}  // namespace contactlab
