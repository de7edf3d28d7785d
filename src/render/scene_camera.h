// A scene's named camera (CameraSpec) as the renderer's Camera: its pose in the world this
// frame (an attached camera moves with its body).
#pragma once

#include <Eigen/Geometry>

#include "app/runtime/snapshot.h"
#include "engine/world/scene_spec.h"
#include "render/camera.h"

namespace contactlab {

// Where the camera is: X_WC = X_WB · X_BC for a camera on body B (from the snapshot's body
// poses), X_WC itself for a fixed one (or a body the snapshot has no pose for).
Eigen::Isometry3d SceneCameraPose(const CameraSpec& spec, const Snapshot& snapshot);

// The renderer's Camera with Camera::X_WC set and `target` kTargetDistance_m in front of it.
Camera SceneCameraView(const CameraSpec& spec, const Snapshot& snapshot);

// How far in front of a scene camera its `target` lies: the ground is drawn around it, and the
// near plane is 1 % of it (3 mm: a wrist camera sees the fingers a few centimetres away).
inline constexpr float kSceneCameraTargetDistance_m = 0.3f;

}  // namespace contactlab
