// `contactlab` with a window (docs/architecture.md §7): the GUI, `--screenshot` (render N
// frames, save a PNG, exit) and `--gui-stats` (run for a while, write frame statistics, exit).
#pragma once

#include "app/command_line.h"

namespace contactlab {

// Returns the process's exit code (ExitCode).
int RunGuiCommand(const CommandLine& cl);

}  // namespace contactlab
