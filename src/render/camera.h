// The renderer's view of the scene: an orbit camera, or a scene camera's fixed pose.
#pragma once

#include <Eigen/Dense>
#include <optional>

namespace contactlab {

// Orbit camera: looks at `target` from `distance`, azimuth `yaw_rad` about world z, elevation
// `pitch_rad`. Follows a scene body when follow_body ≥ 0: Renderer::Render then looks at that
// body's origin instead of `target` (the Camera itself is not changed, so Pan has no visible
// effect while following; orbit and zoom still work).
//
// A scene camera (CameraSpec, SceneCameraView) instead sets X_WC, its pose in the world (camera
// frame C: looking along +z_C, +x_C right, +y_C down, as in Drake and OpenCV): View() and Eye()
// then come from it, yaw, pitch and follow_body are ignored, and `target` (a point in front of
// it, distance_m away) only places the ground and scales near/far. shift_ndc moves the image
// (normalized device coordinates, +y up) so that its centre lands where the panels leave room.
struct Camera {
  Eigen::Vector3f target{0, 0, 0.2f};
  float distance_m = 2.0f;
  float yaw_rad = 0.8f;
  float pitch_rad = 0.45f;
  float fov_y_rad = 0.8f;
  int follow_body = -1;
  std::optional<Eigen::Isometry3f> X_WC;
  Eigen::Vector2f shift_ndc = Eigen::Vector2f::Zero();
  Eigen::Matrix4f View() const;
  Eigen::Matrix4f Projection(float aspect) const;
  Eigen::Vector3f Eye() const;
  void Orbit(float dx_rad, float dy_rad);
  // Moves the target so the scene follows a mouse drag of (dx, dy) in units of the view's
  // width/height (dx > 0: right, dy > 0: down, screen convention). `aspect` = width/height
  // makes a full-width drag move by the full visible width.
  void Pan(float dx, float dy, float aspect = 1.0f);
  void Zoom(float factor);
};

}  // namespace contactlab
