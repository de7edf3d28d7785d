#include "render/scene_camera.h"

namespace contactlab {

Eigen::Isometry3d SceneCameraPose(const CameraSpec& spec, const Snapshot& snapshot) {
  if (spec.body >= 0 && spec.body < static_cast<int>(snapshot.body_poses.size())) {
    return snapshot.body_poses[spec.body] * spec.X_PC;
  }
  return spec.X_PC;
}

Camera SceneCameraView(const CameraSpec& spec, const Snapshot& snapshot) {
  Camera camera;
  camera.X_WC = SceneCameraPose(spec, snapshot).cast<float>();
  camera.fov_y_rad = static_cast<float>(spec.fov_y_rad);
  camera.distance_m = kSceneCameraTargetDistance_m;
  camera.target = camera.X_WC->translation() +
                  kSceneCameraTargetDistance_m * camera.X_WC->linear().col(2);  // along +z_C
  camera.follow_body = -1;
  return camera;
}

}  // namespace contactlab
