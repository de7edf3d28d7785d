// contactlab: the command line (architecture.md). Without --headless the GUI opens (or, with
// --screenshot, renders N frames, saves a PNG and exits); --headless runs the scene and exits.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>

#include "app/command_line.h"
#include "app/headless_runner.h"
#include "app/scene_loader.h"
#include "engine/world/world.h"
#if CONTACTLAB_HAS_GUI
#include "ui/application.h"
#endif

namespace {

#if CONTACTLAB_HAS_GUI
// The GUI and --screenshot. The window size comes from CONTACTLAB_WINDOW_SIZE=WxH if set
// (default 1280x720; 960x600 for screenshots).
int RunGui(const contactlab::CommandLine& cl) {
  using namespace contactlab;
  const bool screenshot = !cl.screenshot_path.empty();
  if (!cl.log_path.empty() || !cl.summary_path.empty() || cl.duration_s) {
    spdlog::warn("--log, --summary and --duration apply to --headless runs; ignored");
  }
  ApplicationOptions options;
  try {
    options.scene_defaults = LoadSceneFile(ResolveScenePath(cl.scene));
    options.scene = options.scene_defaults;
    ApplyOverrides(cl.overrides, &options.scene);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return kExitBadInput;
  }
  options.scene_name = cl.scene;
  options.realtime_factor = cl.realtime_factor.value_or(1.0);
  options.width = screenshot ? 960 : 1280;
  options.height = screenshot ? 600 : 720;
  if (const char* size = std::getenv("CONTACTLAB_WINDOW_SIZE")) {
    int w = 0, h = 0;
    if (std::sscanf(size, "%dx%d", &w, &h) == 2 && w >= 64 && h >= 64 && w <= 8192 && h <= 8192) {
      options.width = w;
      options.height = h;
    } else {
      spdlog::warn("CONTACTLAB_WINDOW_SIZE='{}' is not WxH; using {}x{}", size, options.width,
                   options.height);
    }
  }
  options.visible = !screenshot;
  options.vsync = !screenshot;
  try {
    Application app(options);
    if (!screenshot) return app.Run();
    app.Screenshot(cl.frames > 0 ? cl.frames : 60, cl.screenshot_path);
    return kExitOk;
  } catch (const GuiError& e) {
    spdlog::error("{}", e.what());
    return e.kind() == GuiError::Kind::kNoDisplay ? kExitBadInput : kExitError;
  } catch (const std::invalid_argument& e) {
    spdlog::error("{}: {}", options.scene.source, e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return kExitError;
  }
}
#endif

}  // namespace

int main(int argc, char** argv) {
  using namespace contactlab;
  spdlog::set_pattern("contactlab: %^%l%$: %v");
  CommandLine cl;
  bool exit_now = false;
  const int parse_code = ParseCommandLine(argc, argv, &cl, &exit_now);
  if (exit_now) return parse_code;
  if (cl.verbose) spdlog::set_level(spdlog::level::debug);

#if !CONTACTLAB_HAS_GUI
  if (!cl.screenshot_path.empty()) {
    spdlog::error("--screenshot needs the GUI, which this build does not have");
    return kExitBadInput;
  }
#endif
  if (cl.headless && !cl.screenshot_path.empty()) {
    spdlog::error("--screenshot renders the GUI; it can't be combined with --headless");
    return kExitBadInput;
  }
  if (cl.input.rfind("replay:", 0) == 0) {
    const std::string file = cl.input.substr(7);
    if (!std::filesystem::is_regular_file(file)) {
      spdlog::error("--input {}: no such replay file", cl.input);
      return kExitBadInput;
    }
  }
  if (!cl.input.empty()) {
    spdlog::warn("--input {}: teleoperation arrives with the robot (issue 4); ignored", cl.input);
  }

#if CONTACTLAB_HAS_GUI
  if (!cl.headless) return RunGui(cl);
#endif

  SceneSpec scene;
  try {
    scene = LoadSceneFile(ResolveScenePath(cl.scene));
    ApplyOverrides(cl.overrides, &scene);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return kExitBadInput;
  }

  HeadlessOptions options;
  options.duration_s = cl.duration_s.value_or(scene.duration_s);
  options.log_path = cl.log_path;
  options.summary_path = cl.summary_path;
  options.realtime_factor = cl.realtime_factor.value_or(0.0);
  if (!cl.headless) {  // a build without the GUI: run the scene headless in real time
    spdlog::info("this build has no GUI; running '{}' headless in real time", scene.name);
    options.realtime_factor = cl.realtime_factor.value_or(1.0);
  }
  try {
    World world(scene);
    const HeadlessResult r = RunHeadless(&world, options);
    spdlog::info("{} ({}): {} steps of {} s in {:.3f} s wall, {} not converged", scene.name,
                 ContactApproximationName(scene.approximation), r.steps, scene.dt_s, r.wall_time_s,
                 r.nonconverged_steps);
    return r.failed ? kExitRunFailed : kExitOk;
  } catch (const std::invalid_argument& e) {
    spdlog::error("{}: {}", scene.source, e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return kExitError;
  }
}
