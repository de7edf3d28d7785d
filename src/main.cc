// contactlab: the command line (docs/architecture.md §7). Without --headless the GUI opens (or,
// with --screenshot, renders N frames, saves a PNG and exits); --headless runs the scene and
// exits.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstring>

#include "app/calibration/calibrate_command.h"
#include "app/command_line.h"
#include "app/headless/headless_command.h"
#if CONTACTLAB_HAS_GUI
#include "ui/gui_command.h"
#endif

int main(int argc, char** argv) {
  using namespace contactlab;
  // Messages go to stderr, as a command-line tool's do: stdout stays free for data.
  spdlog::set_default_logger(spdlog::stderr_color_mt("contactlab"));
  spdlog::set_pattern("contactlab: %^%l%$: %v");
  if (argc > 1 && std::strcmp(argv[1], "calibrate") == 0) {
    return RunCalibrateCommand(argc - 1, argv + 1);
  }
  constexpr bool kGuiBuilt = CONTACTLAB_HAS_GUI;
  CommandLine cl;
  bool exit_now = false;
  const int parse_code = ParseCommandLine(argc, argv, kGuiBuilt, &cl, &exit_now);
  if (exit_now) return parse_code;
  if (cl.verbose) spdlog::set_level(spdlog::level::debug);
#if CONTACTLAB_HAS_GUI
  if (!cl.headless) return RunGuiCommand(cl);
#endif
  return RunHeadlessCommand(cl, kGuiBuilt);
}
