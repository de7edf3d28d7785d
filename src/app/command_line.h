// The command line of architecture.md ("Command line (the contract tests and benchmarks use)").
#pragma once

#include <optional>
#include <string>

#include "engine/world/scene_spec.h"

namespace contactlab {

struct CommandLine {
  bool headless = false;
  std::string scene = "clutter";  // peg_in_hole becomes the default with the teleop issue
  std::optional<double> duration_s;
  ContactOverrides overrides;
  std::string input;
  std::string log_path, summary_path;
  std::optional<double> realtime_factor;
  std::string screenshot_path;
  int frames = 0;
  bool verbose = false;
};

// Exit codes: 0 success, 2 bad input (arguments, scene), 3 the run failed (non-finite state),
// 1 anything else (I/O).
enum ExitCode { kExitOk = 0, kExitError = 1, kExitBadInput = 2, kExitRunFailed = 3 };

// Parses argv. On --help prints usage and returns kExitOk with *exit_now = true; on a bad
// argument prints one line and returns kExitBadInput with *exit_now = true.
int ParseCommandLine(int argc, char** argv, CommandLine* out, bool* exit_now);

}  // namespace contactlab
