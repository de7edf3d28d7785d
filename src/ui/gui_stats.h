// --gui-stats: what a timed GUI run (Application::RunFor with a FrameTrace) measured, written as
// one JSON object: frame times of the render thread and the sim thread's achieved real-time
// factor (from the snapshots' publication times and simulated times).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "ui/application.h"

namespace contactlab {

// What a run's trace says beyond its frame times.
struct GuiRunSummary {
  // The sim thread's real-time factor after the first kWarmup_s: over all the rest, and the
  // smallest over any kWindow_s (sliding, between snapshot samples). NaN for a run too short.
  static constexpr double kWarmup_s = 1.0, kWindow_s = 0.5;
  double realtime_factor_mean = NAN, realtime_factor_min = NAN;
  // The frames drawn at the final render quality (all of them with a fixed quality): what the
  // frame rate settled to; and how often the quality changed.
  std::vector<double> settled_frame_ms, settled_work_cpu_ms;
  int quality_changes = 0;
};
GuiRunSummary SummarizeGuiRun(const FrameTrace& trace);

// Writes the JSON to `path` (one line) and logs a one-line summary. `options` and `duration_s`
// describe the run (scene, window, caps); `stats` and `trace` are what RunFor returned.
// Throws std::runtime_error if the file can't be written.
void WriteGuiStats(const std::string& path, const ApplicationOptions& options, double duration_s,
                   const FrameStats& stats, const FrameTrace& trace);

}  // namespace contactlab
