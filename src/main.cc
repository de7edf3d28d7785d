// contactlab: the command line (docs/architecture.md). Without --headless the GUI opens (or, with
// --screenshot, renders N frames, saves a PNG and exits); --headless runs the scene and exits.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <thread>

#include "app/command_line.h"
#include "app/headless/headless_runner.h"
#include "app/teleop/teleop_controller.h"
#include "engine/world/world.h"
#include "input/input_spec.h"
#include "io/printable_text.h"
#include "io/scene_loader.h"
#if CONTACTLAB_HAS_GUI
#include "render/contact_colors.h"
#include "ui/application.h"
#include "ui/gui_stats.h"
#include "ui/state/gui_settings.h"
#include "ui/view/camera_views.h"
#endif

namespace {

// An error line quotes users' files: it stays one printable line (io/printable_text.h).
constexpr size_t kMaxMessageChars = 400;

#if CONTACTLAB_HAS_GUI
// The GUI, --screenshot and --gui-stats. The window size comes from --window-size, else from
// CONTACTLAB_WINDOW_SIZE=WxH if set (default 1280x720; 960x600 for screenshots).
int RunGui(const contactlab::CommandLine& cl) {
  using namespace contactlab;
  const bool screenshot = !cl.screenshot_path.empty();
  const bool gui_stats = !cl.gui_stats_path.empty();
  if (!cl.log_path.empty() || !cl.contact_log_path.empty() || !cl.summary_path.empty() ||
      (cl.duration_s && !gui_stats) || cl.solver_threads) {
    spdlog::warn(
        "--log, --log-contacts, --summary, --duration and --threads apply to --headless runs; "
        "ignored");
  }
  ApplicationOptions options;
  try {
    options.scene_defaults = LoadSceneFile(ResolveScenePath(cl.scene));
    options.scene = options.scene_defaults;
    ApplyOverrides(cl.overrides, &options.scene.contact_settings);
  } catch (const std::exception& e) {
    spdlog::error("{}", Printable(e.what(), kMaxMessageChars));
    return kExitBadInput;
  }
  if (const std::string error = CheckCameraName(options.scene, cl.camera); !error.empty()) {
    spdlog::error("{}", error);
    return kExitBadInput;
  }
  options.camera = cl.camera;
  options.scene_name = cl.scene;
  options.realtime_factor = cl.realtime_factor.value_or(1.0);
  options.ghost = cl.ghost;
  options.width = screenshot ? 960 : 1280;
  options.height = screenshot ? 600 : 720;
  if (cl.window_width > 0 && cl.window_height > 0) {
    options.width = cl.window_width;
    options.height = cl.window_height;
  } else if (const char* size = std::getenv("CONTACTLAB_WINDOW_SIZE")) {
    if (!ParseWindowSize(size, &options.width, &options.height)) {
      spdlog::warn("CONTACTLAB_WINDOW_SIZE='{}' is not WxH; using {}x{}", size, options.width,
                   options.height);
    }
  }
  // The interactive GUI remembers its window, layers and camera; screenshots and timed runs
  // stay reproducible.
  if (!screenshot && !gui_stats && !cl.no_settings) {
    options.settings_dir = DefaultSettingsDirectory();
    options.window_size_from_settings =
        cl.window_width <= 0 && std::getenv("CONTACTLAB_WINDOW_SIZE") == nullptr;
  }
  if (cl.max_fps) options.max_fps = *cl.max_fps;
  if (cl.msaa_samples >= 0) options.msaa_samples = cl.msaa_samples;
  // Screenshots are drawn at the quality asked for, however long their frames take.
  options.auto_quality = !screenshot && !cl.fixed_quality;
  options.visible = !screenshot;
  options.vsync = !screenshot;
  // A screenshot's frames show simulated time whatever the frame rate: nothing to keep in real
  // time, so the render thread keeps its priority (lowered, a loaded machine starved it 10:1).
  if (screenshot) options.render_thread_nice = 0;
  // Teleoperation input: live by default (space mouse merged with the keyboard); screenshots and
  // --gui-stats runs use the keyboard alone (no daemon probing, no input: reproducible).
  options.input =
      !cl.input.empty() ? cl.input : (screenshot || gui_stats ? "keyboard" : "spacemouse");
  options.record_path = cl.record_path;
  // Validated by ParseCommandLine against the same names.
  if (const auto mode = ParseContactColorMode(cl.contact_colors)) options.contact_colors = *mode;
  try {
    Application app(options);
    if (gui_stats) {
      const double duration = cl.duration_s.value_or(4.0);
      FrameTrace trace;
      const FrameStats stats = app.RunFor(duration, &trace);
      WriteGuiStats(cl.gui_stats_path, options, duration, stats, trace);
      return kExitOk;
    }
    if (!screenshot) return app.Run();
    app.Screenshot(cl.frames > 0 ? cl.frames : 60, cl.screenshot_path);
    return kExitOk;
  } catch (const GuiError& e) {
    spdlog::error("{}", Printable(e.what(), kMaxMessageChars));
    return e.kind() == GuiError::Kind::kNoDisplay || e.kind() == GuiError::Kind::kBadInput
               ? kExitBadInput
               : kExitError;
  } catch (const std::invalid_argument& e) {
    spdlog::error("{}", Printable(options.scene.source + ": " + e.what(), kMaxMessageChars));
    return kExitBadInput;
  } catch (const std::exception& e) {
    spdlog::error("{}", Printable(e.what(), kMaxMessageChars));
    return kExitError;
  }
}
#endif

}  // namespace

int main(int argc, char** argv) {
  using namespace contactlab;
  // Messages go to stderr, as a command-line tool's do: stdout stays free for data.
  spdlog::set_default_logger(spdlog::stderr_color_mt("contactlab"));
  spdlog::set_pattern("contactlab: %^%l%$: %v");
  CommandLine cl;
  bool exit_now = false;
  const int parse_code = ParseCommandLine(argc, argv, &cl, &exit_now);
  if (exit_now) return parse_code;
  if (cl.verbose) spdlog::set_level(spdlog::level::debug);

#if !CONTACTLAB_HAS_GUI
  if (!cl.screenshot_path.empty() || !cl.gui_stats_path.empty()) {
    spdlog::error("--screenshot and --gui-stats need the GUI, which this build does not have");
    return kExitBadInput;
  }
#endif
  if (cl.headless && !cl.screenshot_path.empty()) {
    spdlog::error("--screenshot renders the GUI; it can't be combined with --headless");
    return kExitBadInput;
  }
  if (!cl.input.empty()) {
    InputSpec spec;
    std::string error;
    if (!ParseInputSpec(cl.input, &spec, &error)) {
      spdlog::error("{}", error);
      return kExitBadInput;
    }
    if (spec.kind == InputSpec::Kind::kReplay &&
        !std::filesystem::is_regular_file(spec.replay_path)) {
      spdlog::error("--input {}: no such replay file", cl.input);
      return kExitBadInput;
    }
    // The gamepad is read through the GUI's window system (GLFW); a headless run has none, so
    // the pad could never move the robot.
#if CONTACTLAB_HAS_GUI
    const bool headless = cl.headless;
#else
    const bool headless = true;  // a build without the GUI runs every scene headless
#endif
    if (spec.kind == InputSpec::Kind::kGamepad && headless) {
      spdlog::error(
          "--input gamepad reads the pad through the GUI (GLFW); it can't be used headless");
      return kExitBadInput;
    }
  }

#if CONTACTLAB_HAS_GUI
  if (!cl.headless) return RunGui(cl);
#endif

  SceneSpec scene;
  try {
    scene = LoadSceneFile(ResolveScenePath(cl.scene));
    ApplyOverrides(cl.overrides, &scene.contact_settings);
  } catch (const std::exception& e) {
    spdlog::error("{}", Printable(e.what(), kMaxMessageChars));
    return kExitBadInput;
  }

  HeadlessOptions options;
  options.duration_s = cl.duration_s.value_or(scene.duration_s);
  if (HeadlessStepCount(options.duration_s, scene.contact_settings.dt_s) < 0) {
    spdlog::error("--duration {} s at dt = {} s is more than {} steps (the run's budget)",
                  options.duration_s, scene.contact_settings.dt_s, kMaxHeadlessSteps);
    return kExitBadInput;
  }
  options.log_path = cl.log_path;
  options.contact_log_path = cl.contact_log_path;
  options.summary_path = cl.summary_path;
  options.realtime_factor = cl.realtime_factor.value_or(0.0);
  if (!cl.headless) {  // a build without the GUI: run the scene headless in real time
    spdlog::info("this build has no GUI; running '{}' headless in real time", scene.name);
    options.realtime_factor = cl.realtime_factor.value_or(1.0);
  }
  try {
    World world(scene);
    // Two threads share a step's islands where the machine has the cores (the results do not
    // depend on it: docs/contact-model.md §4.2).
    ConvexSolverParameters solver_parameters = world.solver().parameters();
    solver_parameters.num_threads = cl.solver_threads.value_or(
        std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 2));
    world.solver().set_parameters(solver_parameters);
    // Teleoperation: a scene with a robot arm is driven by the input device (headless default:
    // the scene's scripted replay). GUI teleoperation arrives with the teleop panels.
    std::unique_ptr<TeleopController> teleop;
    InputDevices devices;
    Recorder recorder;
    if (const auto config = FindTeleopConfig(world.scene())) {
      std::string input = cl.input;
      if (input.empty()) {
        const std::string script = DefaultTeleopScript(world.scene());
        input = script.empty() ? "keyboard" : "replay:" + script;
      }
      std::string error;
      if (!cl.record_path.empty() && !recorder.Open(cl.record_path, &error)) {
        spdlog::error("{}", error);
        return kExitBadInput;
      }
      if (!CreateInputDevices(input, &devices, &error)) {
        spdlog::error("{}", error);
        return kExitBadInput;
      }
      teleop = std::make_unique<TeleopController>(world, *config);
      options.teleop = teleop.get();
      options.input = devices.active.get();
      if (recorder.is_open()) options.recorder = &recorder;
      spdlog::info("teleoperation: {}", devices.active->Status());
    } else if (!cl.input.empty() || !cl.record_path.empty()) {
      spdlog::warn("--input/--record: scene '{}' has no robot to teleoperate; ignored", scene.name);
    }
    const HeadlessResult r = RunHeadless(&world, options);
    if (r.failed) return kExitRunFailed;  // RunHeadless said why, in one line
    spdlog::info("{} ({}): {} steps of {} s in {:.3f} s wall, {} not converged", scene.name,
                 ContactApproximationName(scene.contact_settings.approximation), r.steps,
                 scene.contact_settings.dt_s, r.wall_time_s, r.nonconverged_steps);
    return kExitOk;
  } catch (const std::invalid_argument& e) {
    spdlog::error("{}", Printable(scene.source + ": " + e.what(), kMaxMessageChars));
    return kExitBadInput;
  } catch (const std::exception& e) {
    spdlog::error("{}", Printable(e.what(), kMaxMessageChars));
    return kExitError;
  }
}
