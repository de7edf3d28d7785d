// The render quality the GUI draws with, and the rule that lowers it when frames are slow: a
// software renderer (llvmpipe under Xvfb) rasterizes every sample on the CPU, so at 1440 × 900
// multisampling and the shadow map's size decide the frame rate.
//
// Levels run from the best (the window's --msaa samples, 1024² soft shadows) down: the samples
// halve to none, the shadows turn hard (one filter tap instead of nine: on llvmpipe 11 → 18 fps
// for the clutter at 1440 × 900), then the shadow map halves twice — e.g. for 4 samples
// (4, 1024, soft) (2, 1024, soft) (0, 1024, soft) (0, 1024, hard) (0, 512, hard) (0, 256, hard)
// — then the panels are built kPanelRefreshHz times a second instead of every frame (and at
// once on input; ui/panel_refresh.h): under llvmpipe they are half the render thread's work;
// last the 3-D view is drawn at kSceneScales of the window's resolution and scaled up
// (RenderQuality::scene_scale): llvmpipe's time goes into shading pixels (at 1440 × 900 and
// the level before, ~50 ms of a peg_in_hole frame), and at 50 % there are a quarter of them.
// Automatic: over windows of ≥ 1 s, below kLowFps one level down (two below kLowFps / 2, so
// that a software renderer reaches a usable level in seconds, not in ten); at or above kHighFps
// for kRaiseAfterS one level up — but not back into a level that was left for being slow
// within kRaiseAfterS of entering it (no oscillation between two levels).
#pragma once

#include <string>
#include <vector>

#include "render/render_quality.h"

namespace contactlab {

// "MSAA 4x, soft shadows 1024x1024" (the log and the Solver panel), ", panels at 5 Hz" added
// when the panels are slowed, "3-D at 50 %, " put first when the 3-D view is scaled.
std::string QualityLabel(const RenderQuality& quality);

class AutoQuality {
 public:
  static constexpr double kLowFps = 30.0;
  static constexpr double kHighFps = 55.0;
  static constexpr double kWindowS = 1.0;
  static constexpr double kRaiseAfterS = 3.0;
  // A frame longer than this is a stall (a scene load, a shader compile), not the frame rate —
  // unless the frame before it was one too: then frames are that slow (a software renderer on a
  // starved machine, at 0.5 fps), and they count, or the quality would never be lowered.
  static constexpr double kStallS = 1.0;
  // The slowed panels' updates a second: numbers and plots still read as live.
  static constexpr double kPanelRefreshHz = 5.0;
  // The 3-D view's resolution at the last levels, per side: 0.35 is still a picture of the
  // gripper and the hole at 1440 × 900 (504 × 315), scaled up.
  static constexpr float kSceneScales[] = {0.75f, 0.5f, 0.35f};

  // max_msaa_samples: 0, 2, 4 or 8 (the best level's samples).
  explicit AutoQuality(int max_msaa_samples, bool automatic = true);

  // One frame's period (start to start, seconds). True when the level changed.
  bool OnFrame(double period_s);
  // A fixed level (automatic off) or automatic again from the current level.
  void SetLevel(int level);
  void SetAutomatic(bool automatic);

  bool automatic() const { return automatic_; }
  int level() const { return level_; }
  int num_levels() const { return static_cast<int>(levels_.size()); }
  const RenderQuality& quality() const { return levels_[level_]; }
  const RenderQuality& quality(int level) const { return levels_[level]; }
  // The frame rate of the last full window (0 before the first).
  double fps() const { return fps_; }

 private:
  void ChangeLevel(int level);

  std::vector<RenderQuality> levels_;
  bool automatic_;
  int level_ = 0;
  int best_allowed_ = 0;  // automatic raises stop here
  double window_s_ = 0;   // time and frames in the current window
  int window_frames_ = 0;
  double fast_s_ = 0;          // consecutive time at or above kHighFps
  double since_change_s_ = 0;  // time at the current level
  bool entered_by_raise_ = false;
  int long_frames_in_a_row_ = 0;  // longer than kStallS
  double fps_ = 0;
};

}  // namespace contactlab
