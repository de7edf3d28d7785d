// The camera as drawn: following a body puts its origin at the centre of the view; a camera
// that follows nothing (or a body the snapshot does not have) is drawn as it is.
#include "render/view_projection.h"

#include <gtest/gtest.h>

#include "render/camera.h"

namespace contactlab {
namespace {

Eigen::Vector2f Ndc(const Eigen::Matrix4f& vp, const Eigen::Vector3f& p_W) {
  const Eigen::Vector4f clip = vp * p_W.homogeneous();
  return clip.head<2>() / clip.w();
}

TEST(ViewProjection, FollowingABodyCentresItsOrigin) {
  Snapshot snapshot;
  snapshot.body_poses = {Eigen::Isometry3d::Identity(), Eigen::Isometry3d::Identity()};
  snapshot.body_poses[1].translation() = Eigen::Vector3d(1.0, -2.0, 0.5);
  Camera camera;  // target (0, 0, 0.2)
  camera.follow_body = 1;
  EXPECT_TRUE(CameraAsDrawn(camera, snapshot).target.isApprox(Eigen::Vector3f(1.0f, -2.0f, 0.5f)));
  const Eigen::Vector2f centre =
      Ndc(ViewProjection(camera, snapshot, 1.5f), Eigen::Vector3f(1.0f, -2.0f, 0.5f));
  EXPECT_NEAR(centre.norm(), 0.0f, 1e-5f);
  // Not following, or a body the snapshot lacks: the camera's own target.
  for (int follow : {-1, 7}) {
    camera.follow_body = follow;
    EXPECT_TRUE(CameraAsDrawn(camera, snapshot).target.isApprox(Eigen::Vector3f(0, 0, 0.2f)));
    EXPECT_NEAR(Ndc(ViewProjection(camera, snapshot, 1.5f), camera.target).norm(), 0.0f, 1e-5f);
  }
}

}  // namespace
}  // namespace contactlab
