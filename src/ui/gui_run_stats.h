// What a run of frames measured (Application::RunFrames, RunFor, RunSteppedFrames): the
// FrameStats the run returns, and, for --gui-stats (ui/gui_stats.h), a FrameTrace of every
// frame. It reads the clocks only through the times it is given.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/runtime/snapshot.h"
#include "ui/application.h"

namespace contactlab {

class GuiRunStats {
 public:
  using Clock = std::chrono::steady_clock;

  // A run that starts at `start` with the sim thread's snapshot at `start_step`. trace: cleared
  // and filled a frame at a time; null: none kept.
  GuiRunStats(Clock::time_point start, uint64_t start_step, FrameTrace* trace = nullptr);

  // One frame of the run: its wall time (start to start, swap and sleep included), the wall
  // and CPU time in contactlab's own code, where its time went, the sim thread's newest
  // snapshot after it and the render quality's level it was drawn at.
  void AddFrame(double frame_ms, double work_ms, double work_cpu_ms, const FrameCost& cost,
                const Snapshot& latest, int quality_level);
  // The run's statistics when it ends at `end`; `latest` the newest snapshot then, `errors`
  // the messages in the banner, `quality_level` the render quality's level, `quality_label`
  // its QualityLabel (the trace's final_quality).
  FrameStats Finish(Clock::time_point end, const Snapshot& latest, size_t errors, int quality_level,
                    const std::string& quality_label) const;

 private:
  Clock::time_point start_;
  uint64_t start_step_;
  FrameTrace* trace_;
  int frames_ = 0;
  double work_cpu_ms_sum_ = 0, max_frame_ms_ = 0;
};

}  // namespace contactlab
