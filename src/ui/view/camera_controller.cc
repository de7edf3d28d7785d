#include "ui/view/camera_controller.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/geometry/shape.h"
#include "render/camera.h"

namespace contactlab {

const char* CameraPresetName(CameraPreset preset) {
  switch (preset) {
    case CameraPreset::kFront:
      return "front";
    case CameraPreset::kSide:
      return "side";
    case CameraPreset::kTop:
      return "top";
    case CameraPreset::kIso:
      return "iso";
  }
  return "?";
}

void ApplyCameraPreset(CameraPreset preset, Camera* camera) {
  constexpr float kPi = std::numbers::pi_v<float>;
  switch (preset) {
    case CameraPreset::kFront:
      camera->yaw_rad = -0.5f * kPi;
      camera->pitch_rad = 0.12f;
      break;
    case CameraPreset::kSide:
      camera->yaw_rad = 0.0f;
      camera->pitch_rad = 0.12f;
      break;
    case CameraPreset::kTop:
      camera->yaw_rad = -0.5f * kPi;
      camera->pitch_rad = 0.5f * kPi - 0.01f;
      break;
    case CameraPreset::kIso:  // looking down by ~54°: into boxes, over walls
      camera->yaw_rad = Camera{}.yaw_rad;
      camera->pitch_rad = 0.95f;
      break;
  }
}

void FrameScene(const Snapshot& snapshot, float view_fraction, Camera* camera) {
  Eigen::Vector3d lower = Eigen::Vector3d::Constant(1e30);
  Eigen::Vector3d upper = Eigen::Vector3d::Constant(-1e30);
  bool any = false;
  // The moving (dynamic) bodies if there are any, else everything bounded.
  for (const bool dynamic_only : {true, false}) {
    for (size_t g = 0; g < snapshot.geometries.size() && g < snapshot.geometry_poses.size(); ++g) {
      const GeometrySpec* spec = snapshot.geometries[g];
      if (spec == nullptr) continue;
      if (dynamic_only) {
        const int b = g < snapshot.geometry_body.size() ? snapshot.geometry_body[g] : -1;
        if (!snapshot.scene || b < 0 || b >= static_cast<int>(snapshot.scene->bodies.size()) ||
            snapshot.scene->bodies[b].kind != SceneBody::Kind::kDynamic) {
          continue;
        }
      }
      const Aabb box = ComputeAabb(spec->shape, snapshot.geometry_poses[g], 0.0);
      if (box.IsUnbounded() || !box.lower.allFinite() || !box.upper.allFinite()) continue;
      // Skip huge slabs (floors, belts) so that the interesting bodies fill the view.
      if ((box.upper - box.lower).maxCoeff() > 5.0) continue;
      lower = lower.cwiseMin(box.lower);
      upper = upper.cwiseMax(box.upper);
      any = true;
    }
    if (any) break;
  }
  if (!any) {
    camera->target = Camera{}.target;
    camera->distance_m = Camera{}.distance_m;
    return;
  }
  const Eigen::Vector3d center = 0.5 * (lower + upper);
  // Small scenes (one box) are shown with some of their surroundings.
  const double radius = std::max(0.5 * (upper - lower).norm(), 0.2);
  camera->target = center.cast<float>();
  const double fraction = std::clamp(static_cast<double>(view_fraction), 0.2, 1.0);
  const double distance = radius / std::sin(0.5 * camera->fov_y_rad) / fraction * 1.1;
  camera->distance_m = static_cast<float>(std::clamp(distance, 0.15, 50.0));
}

void EaseTowardsFraming(const Snapshot& snapshot, float view_fraction, float dt_s,
                        float time_constant_s, Camera* camera) {
  Camera framed = *camera;
  FrameScene(snapshot, view_fraction, &framed);
  const float k =
      time_constant_s > 0 ? 1.0f - std::exp(-std::max(dt_s, 0.0f) / time_constant_s) : 1.0f;
  camera->target += k * (framed.target - camera->target);
  // In log space: zooming by a factor takes as long in and out.
  camera->distance_m *= std::pow(framed.distance_m / camera->distance_m, k);
}

void UpdateFollow(const Snapshot& snapshot, Camera* camera) {
  const int b = camera->follow_body;
  if (b < 0 || b >= static_cast<int>(snapshot.body_poses.size())) return;
  const Eigen::Vector3d p = snapshot.body_poses[b].translation();
  if (p.allFinite()) camera->target = p.cast<float>();
}

Camera ShiftedCamera(const Camera& camera, const Snapshot& snapshot, float shift_x, float shift_y,
                     float aspect) {
  Camera view = camera;
  UpdateFollow(snapshot, &view);  // the target is the followed body's origin
  view.follow_body = -1;
  if (shift_x != 0 || shift_y != 0) view.Pan(shift_x, shift_y, aspect);
  return view;
}

void ApplyMouse(const MouseInput& mouse, int view_width, int view_height, Camera* camera) {
  const float h = static_cast<float>(std::max(view_height, 1));
  const float w = static_cast<float>(std::max(view_width, 1));
  if (mouse.left && (mouse.dx != 0 || mouse.dy != 0)) {
    // A drag across the view's height turns the camera by about 180°.
    constexpr float kPi = std::numbers::pi_v<float>;
    camera->Orbit(-mouse.dx / h * kPi, mouse.dy / h * kPi);
  } else if ((mouse.right || mouse.middle) && (mouse.dx != 0 || mouse.dy != 0)) {
    camera->follow_body = -1;
    camera->Pan(mouse.dx / w, mouse.dy / h, w / h);
  }
  if (mouse.wheel != 0) camera->Zoom(std::pow(0.9f, mouse.wheel));
}

}  // namespace contactlab
