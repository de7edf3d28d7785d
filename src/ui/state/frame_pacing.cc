#include "ui/state/frame_pacing.h"

#include <spdlog/spdlog.h>

namespace contactlab {

void FramePacing::UseSteppedClock(Clock::time_point origin) {
  stepped_clock_ = origin;
  last_start_.reset();
}

void FramePacing::UseWallClock() {
  if (stepped_clock_) last_start_.reset();
  stepped_clock_.reset();
}

void FramePacing::Advance(Clock::duration period) {
  if (stepped_clock_) *stepped_clock_ += period;
}

FramePacing::FrameStart FramePacing::BeginFrame(Clock::time_point wall_now) {
  FrameStart start;
  start.time = stepped_clock_.value_or(wall_now);
  if (last_start_) {
    start.period_s =
        static_cast<float>(std::chrono::duration<double>(start.time - *last_start_).count());
    start.first = false;
  }
  last_start_ = start.time;
  return start;
}

std::optional<FramePacing::Clock::time_point> FramePacing::EndFrame(Clock::time_point work_start,
                                                                    double swap_ms) {
  swap_ms_average_ += 0.1 * (swap_ms - swap_ms_average_);
  const bool display_paces = vsync_ && swap_ms_average_ > 1.0;
  if (!capped_ || stepped_clock_ || max_fps_ <= 0 || display_paces) return std::nullopt;
  return work_start +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / max_fps_));
}

bool AdaptRenderQuality(const FramePacing::FrameStart& frame, AutoQuality* quality) {
  if (frame.first || !quality->OnFrame(frame.period_s)) return false;
  spdlog::info("render quality ({:.1f} fps): {}", quality->fps(), QualityLabel(quality->quality()));
  return true;
}

}  // namespace contactlab
