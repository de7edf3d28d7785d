#include "ui/state/auto_quality.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "render/render_quality.h"

namespace contactlab {

std::string QualityLabel(const RenderQuality& q) {
  const std::string samples =
      q.msaa_samples > 0 ? "MSAA " + std::to_string(q.msaa_samples) + "x" : "no MSAA";
  const std::string size = std::to_string(q.shadow_map_size);
  std::string label =
      samples + ", " + (q.soft_shadows ? "soft" : "hard") + " shadows " + size + "x" + size;
  if (q.panel_refresh_hz > 0) label += fmt::format(", panels at {:g} Hz", q.panel_refresh_hz);
  // First: the Solver panel's combo shows the label's start when the sidebar is narrow.
  if (q.scene_scale < 1.0f)
    label = fmt::format("3-D at {} %, ", std::lround(100 * q.scene_scale)) + label;
  return label;
}

AutoQuality::AutoQuality(int max_msaa_samples, bool automatic) : automatic_(automatic) {
  for (int samples = std::max(max_msaa_samples, 0); samples > 1; samples /= 2) {
    levels_.push_back({samples, 1024, true});
  }
  levels_.push_back({0, 1024, true});
  for (const int shadow : {1024, 512, 256}) levels_.push_back({0, shadow, false});
  levels_.push_back({0, 256, false, kPanelRefreshHz});
  for (const float scale : kSceneScales) levels_.push_back({0, 256, false, kPanelRefreshHz, scale});
}

void AutoQuality::ChangeLevel(int level) {
  entered_by_raise_ = level < level_;
  level_ = level;
  since_change_s_ = 0;
  fast_s_ = 0;
}

bool AutoQuality::OnFrame(double period_s) {
  if (!automatic_) return false;
  long_frames_in_a_row_ = period_s > kStallS ? long_frames_in_a_row_ + 1 : 0;
  if (!(period_s > 0) || long_frames_in_a_row_ == 1) {  // a stall: start the window again
    window_s_ = 0;
    window_frames_ = 0;
    return false;
  }
  window_s_ += period_s;
  since_change_s_ += period_s;
  ++window_frames_;
  if (window_s_ < kWindowS) return false;
  fps_ = window_frames_ / window_s_;
  const double window = window_s_;
  window_s_ = 0;
  window_frames_ = 0;
  if (fps_ < kLowFps) {
    fast_s_ = 0;
    if (level_ + 1 >= num_levels()) return false;
    // Slow right after a raise: that level stays out of reach of the automatic raises.
    if (entered_by_raise_ && since_change_s_ <= kRaiseAfterS + kWindowS) best_allowed_ = level_ + 1;
    const int steps = fps_ < 0.5 * kLowFps ? 2 : 1;
    ChangeLevel(std::min(level_ + steps, num_levels() - 1));
    return true;
  }
  fast_s_ = fps_ >= kHighFps ? fast_s_ + window : 0;
  if (fast_s_ >= kRaiseAfterS && level_ > best_allowed_) {
    ChangeLevel(level_ - 1);
    return true;
  }
  return false;
}

void AutoQuality::SetLevel(int level) {
  automatic_ = false;
  ChangeLevel(std::clamp(level, 0, num_levels() - 1));
}

void AutoQuality::SetAutomatic(bool automatic) {
  automatic_ = automatic;
  best_allowed_ = 0;
  window_s_ = 0;
  window_frames_ = 0;
  fast_s_ = 0;
}

}  // namespace contactlab
