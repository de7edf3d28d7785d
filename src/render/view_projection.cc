#include "render/view_projection.h"

namespace contactlab {

Camera CameraAsDrawn(const Camera& camera, const Snapshot& snapshot) {
  Camera drawn = camera;
  if (!camera.X_WC && camera.follow_body >= 0 &&
      camera.follow_body < static_cast<int>(snapshot.body_poses.size())) {
    drawn.target = snapshot.body_poses[camera.follow_body].translation().cast<float>();
  }
  return drawn;
}

Eigen::Matrix4f ViewProjection(const Camera& camera, const Snapshot& snapshot, float aspect) {
  const Camera drawn = CameraAsDrawn(camera, snapshot);
  return drawn.Projection(aspect) * drawn.View();
}

}  // namespace contactlab
