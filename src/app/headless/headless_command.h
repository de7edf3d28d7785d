// `contactlab --headless` (docs/architecture.md §7): loads the scene the command line names
// with its overrides, sets up teleoperation when the scene has a robot arm, runs it
// (RunHeadless) and says how it went in one line.
#pragma once

#include "app/command_line.h"

namespace contactlab {

// Returns the process's exit code (ExitCode). gui_built: whether this binary has the GUI (a
// build without it runs a non-headless command line headless, in real time).
int RunHeadlessCommand(const CommandLine& cl, bool gui_built);

}  // namespace contactlab
