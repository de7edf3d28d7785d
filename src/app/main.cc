// contactlab: the command line (architecture.md). The GUI arrives with issue 3; until then
// every mode runs the scene headless.
#include <spdlog/spdlog.h>

#include <exception>
#include <filesystem>

#include "app/command_line.h"
#include "app/headless_runner.h"
#include "app/scene_loader.h"
#include "engine/world/world.h"

int main(int argc, char** argv) {
  using namespace contactlab;
  spdlog::set_pattern("contactlab: %^%l%$: %v");
  CommandLine cl;
  bool exit_now = false;
  const int parse_code = ParseCommandLine(argc, argv, &cl, &exit_now);
  if (exit_now) return parse_code;
  if (cl.verbose) spdlog::set_level(spdlog::level::debug);

  if (!cl.screenshot_path.empty()) {
    spdlog::error("--screenshot needs the GUI, which this build does not have yet (issue 3)");
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
  if (!cl.headless) {
    spdlog::info("the GUI arrives with issue 3; running '{}' headless in real time instead",
                 scene.name);
    options.realtime_factor = cl.realtime_factor.value_or(1.0);
  } else {
    options.realtime_factor = cl.realtime_factor.value_or(0.0);
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
