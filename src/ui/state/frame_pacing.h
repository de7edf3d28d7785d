// When the render loop's frames start and end. A frame takes its start from the frame clock:
// the wall clock, or, while Application::RunSteppedFrames drives the sim, a clock that advances
// by a set period a frame, so that what reads the frame period (the automatic render quality,
// the panels' refresh, the camera's easing) depends on the frame count alone. After the swap a
// frame that no display paced sleeps out the rest of its period (--max-fps): frames no one sees
// would only take a core from the sim thread.
#pragma once

#include <chrono>
#include <optional>

#include "ui/state/auto_quality.h"

namespace contactlab {

class FramePacing {
 public:
  using Clock = std::chrono::steady_clock;

  // vsync: the window swaps with an interval of 1; max_fps ≤ 0: never sleep.
  FramePacing(bool vsync, double max_fps) : vsync_(vsync), max_fps_(max_fps) {}

  // The frame clock. Stepped from `origin` on, advanced by Advance; or the wall clock again. A
  // period across two clocks means nothing: the first frame on a clock has none.
  void UseSteppedClock(Clock::time_point origin);
  void UseWallClock();
  bool stepped() const { return stepped_clock_.has_value(); }
  void Advance(Clock::duration period);

  // The period a first frame reports (the camera's easing takes a step of it).
  static constexpr float kFirstPeriod_s = 1.0f / 60.0f;
  struct FrameStart {
    Clock::time_point time;           // on the frame clock
    float period_s = kFirstPeriod_s;  // since the last frame's start on the same clock
    bool first = true;                // no frame before it on this clock
  };
  // At the top of a frame; wall_now: the wall clock then.
  FrameStart BeginFrame(Clock::time_point wall_now);

  // After the swap, which took swap_ms: when the frame whose work began at work_start is to
  // end (sleep until then), or nullopt (at once). A display paces the loop when vsync is asked
  // for and the swap waits for it (more than a millisecond on average: under Xvfb it returns at
  // once). Never while stepped, nor uncapped.
  std::optional<Clock::time_point> EndFrame(Clock::time_point work_start, double swap_ms);
  // false: frames follow each other at once (screenshots: they show simulated time).
  void set_capped(bool capped) { capped_ = capped; }

 private:
  bool vsync_;
  double max_fps_;
  bool capped_ = true;
  double swap_ms_average_ = 0;  // exponential, over about ten frames
  std::optional<Clock::time_point> stepped_clock_;
  std::optional<Clock::time_point> last_start_;
};

// The frame period drives the automatic render quality (ui/state/auto_quality.h); a first frame
// has no period to count. True when the quality's level changed (logged).
bool AdaptRenderQuality(const FramePacing::FrameStart& frame, AutoQuality* quality);

}  // namespace contactlab
