// How long a force arrow is drawn. At the layers' scale (RenderLayers::force_scale_m_per_N) a
// 30 N grip is 30 cm long: across the whole view of the gripper, where it reads as a coordinate
// axis, not as a force. So the scale holds while an arrow is short, and a long one is compressed
// to stay within a fraction of the view's height where it starts; larger forces are still drawn
// longer.
#pragma once

namespace contactlab {

// The longest a force arrow starting where a pixel is pixel_size_m across, in a view
// view_height_px pixels tall, is drawn: kMaxForceArrowViewFraction of the view's height there.
inline constexpr float kMaxForceArrowViewFraction = 0.15f;
float MaxForceArrowLength(float pixel_size_m, float view_height_px);

// The drawn length of an arrow scaled_length_m long at the layers' scale: the same up to half of
// max_length_m, then growing ever more slowly (with slope 1 at the knee, exponentially
// saturating) towards max_length_m, never beyond it. Non-finite or non-positive input: 0.
float DrawnForceArrowLength(float scaled_length_m, float max_length_m);

}  // namespace contactlab
