// --gui-stats: what a timed GUI run (Application::RunFor with a FrameTrace) measured, written as
// one JSON object: frame times of the render thread and the sim thread's achieved real-time
// factor (from the snapshots' publication times and simulated times).
#pragma once

#include <string>

#include "ui/application.h"

namespace contactlab {

// Writes the JSON to `path` (one line) and logs a one-line summary. `options` and `duration_s`
// describe the run (scene, window, caps); `stats` and `trace` are what RunFor returned.
// Throws std::runtime_error if the file can't be written.
void WriteGuiStats(const std::string& path, const ApplicationOptions& options, double duration_s,
                   const FrameStats& stats, const FrameTrace& trace);

}  // namespace contactlab
