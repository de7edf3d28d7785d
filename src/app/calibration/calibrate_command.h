// `contactlab calibrate` (docs/architecture.md §7): fits contact parameters of a scene to a
// reference log (the `--log` format) and writes the fitted scene and a plot of the reference
// against the runs before and after the fit.
#pragma once

namespace contactlab {

// argv[0] is "calibrate". Returns an ExitCode (app/command_line.h): bad input (a malformed
// option, a scene or reference that does not load or match) is one line and kExitBadInput; a run
// that fails is kExitRunFailed.
int RunCalibrateCommand(int argc, char** argv);

}  // namespace contactlab
