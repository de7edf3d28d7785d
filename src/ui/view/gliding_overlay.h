// The gliding overlay (issue 12, item 5): at the plot body's pressed point contact of the
// largest gliding offset, a short line on the other body's surface and one at the height the
// active approximation holds the body while sliding (GlidingLine), with a label naming the
// offset and the approximation. The
// offset is drawn at true scale: μ·δt·‖v_t‖ is a fraction of a millimetre, so the two lines
// part on screen only when zoomed in; the label says how far apart they are.
#pragma once

#include <Eigen/Dense>

#include "app/runtime/snapshot.h"
#include "render/rgb8.h"

namespace contactlab {

// The overlay's line colour (what a screenshot test can look for).
inline constexpr Rgb8 kGlidingLineColor{255, 60, 220};

// Draws into ImGui's background draw list (over the scene, under the windows).
void GlidingOverlay(const Snapshot& snapshot, const Eigen::Matrix4f& view_projection,
                    const Eigen::Vector2f& viewport_px, int plot_body);

}  // namespace contactlab
