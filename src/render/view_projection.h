// The camera as the renderer draws a snapshot (following a body moves its target), and the
// matrix from world to clip coordinates: what the UI needs to put screen-space things (hover,
// overlays) exactly where the renderer drew the scene.
#pragma once

#include <Eigen/Dense>

#include "app/runtime/snapshot.h"
#include "render/camera.h"

namespace contactlab {

// `camera` with its target on the followed body's origin when Camera::follow_body names a
// body of the snapshot.
Camera CameraAsDrawn(const Camera& camera, const Snapshot& snapshot);

// Projection × view of CameraAsDrawn for a view of aspect width/height.
Eigen::Matrix4f ViewProjection(const Camera& camera, const Snapshot& snapshot, float aspect);

}  // namespace contactlab
