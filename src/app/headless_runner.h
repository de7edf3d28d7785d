// Runs a scene without a window: steps for a duration, writes the per-step CSV log and the
// run summary JSON (architecture.md, "Log CSV" and "Summary JSON").
#pragma once

#include <string>

#include "engine/world/world.h"

namespace contactlab {

struct HeadlessOptions {
  double duration_s = 1.0;
  std::string log_path;        // empty: no log
  std::string summary_path;    // empty: no summary
  double realtime_factor = 0;  // 0: unpaced
};

struct HeadlessResult {
  int steps = 0;
  int nonconverged_steps = 0;
  bool failed = false;  // a step failed unrecoverably (non-finite state)
  double wall_time_s = 0;
};

// Throws std::runtime_error if a log or summary file cannot be written.
HeadlessResult RunHeadless(World* world, const HeadlessOptions& options);

}  // namespace contactlab
