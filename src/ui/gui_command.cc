#include "ui/gui_command.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <exception>
#include <stdexcept>

#include "app/teleop/teleop_program.h"
#include "io/printable_text.h"
#include "io/scene_loader.h"
#include "render/contact_colors.h"
#include "render/vector_scaling.h"
#include "ui/application.h"
#include "ui/gui_stats.h"
#include "ui/state/gui_settings.h"
#include "ui/view/camera_views.h"

namespace contactlab {
namespace {

// The window size comes from --window-size, else from CONTACTLAB_WINDOW_SIZE=WxH if set
// (default 1280x720; 960x600 for screenshots).
void SetWindowSize(const CommandLine& cl, bool screenshot, ApplicationOptions* options) {
  options->width = screenshot ? 960 : 1280;
  options->height = screenshot ? 600 : 720;
  if (cl.window_width > 0 && cl.window_height > 0) {
    options->width = cl.window_width;
    options->height = cl.window_height;
  } else if (const char* size = std::getenv("CONTACTLAB_WINDOW_SIZE")) {
    if (!ParseWindowSize(size, &options->width, &options->height)) {
      spdlog::warn("CONTACTLAB_WINDOW_SIZE='{}' is not WxH; using {}x{}", size, options->width,
                   options->height);
    }
  }
}

// Everything but the scene: the window, the frame loop, the input and what is remembered.
void SetWindowAndInput(const CommandLine& cl, ApplicationOptions* options) {
  const bool screenshot = !cl.screenshot_path.empty();
  const bool gui_stats = !cl.gui_stats_path.empty();
  options->camera = cl.camera;
  options->scene_name = cl.scene;
  options->realtime_factor = cl.realtime_factor.value_or(1.0);
  options->ghost = cl.ghost;
  options->ghost_integrator = cl.ghost_integrator;
  SetWindowSize(cl, screenshot, options);
  // The interactive GUI remembers its window, layers and camera; screenshots and timed runs
  // stay reproducible.
  if (!screenshot && !gui_stats && !cl.no_settings) {
    options->settings_dir = DefaultSettingsDirectory();
    options->window_size_from_settings =
        cl.window_width <= 0 && std::getenv("CONTACTLAB_WINDOW_SIZE") == nullptr;
  }
  if (cl.max_fps) options->max_fps = *cl.max_fps;
  if (cl.msaa_samples >= 0) options->msaa_samples = cl.msaa_samples;
  // Screenshots are drawn at the quality asked for, however long their frames take.
  options->auto_quality = !screenshot && !cl.fixed_quality;
  options->visible = !screenshot;
  options->vsync = !screenshot;
  // A screenshot's frames show simulated time whatever the frame rate: nothing to keep in real
  // time, so the render thread keeps its priority (lowered, a loaded machine starved it 10:1).
  if (screenshot) options->render_thread_nice = 0;
  // Teleoperation input: live by default (space mouse merged with the keyboard); screenshots and
  // --gui-stats runs use the keyboard alone (no daemon probing, no input: reproducible).
  options->input =
      !cl.input.empty() ? cl.input : (screenshot || gui_stats ? "keyboard" : "spacemouse");
  options->record_path = cl.record_path;
  options->output_dir = cl.output_dir;  // checked and made absolute by ParseCommandLine
  // Validated by ParseCommandLine against the same names.
  if (const auto mode = ParseContactColorMode(cl.contact_colors)) options->contact_colors = *mode;
  options->contact_views = cl.contact_views;
  options->vector_scaling = ParseVectorScaling(cl.vector_scale);
}

// Opens the window and runs what the command line asked for.
int Run(const CommandLine& cl, const ApplicationOptions& options) {
  Application app(options);
  if (!cl.gui_stats_path.empty()) {
    const double duration = cl.duration_s.value_or(4.0);
    FrameTrace trace;
    const FrameStats stats = app.RunFor(duration, &trace);
    WriteGuiStats(cl.gui_stats_path, options, duration, stats, trace);
    return kExitOk;
  }
  if (cl.screenshot_path.empty()) return app.Run();
  app.Screenshot(cl.frames > 0 ? cl.frames : 60, cl.screenshot_path);
  return kExitOk;
}

}  // namespace

int RunGuiCommand(const CommandLine& cl) {
  if (!cl.log_path.empty() || !cl.contact_log_path.empty() || !cl.summary_path.empty() ||
      !cl.solver_log_path.empty() || !cl.newton_log_path.empty() ||
      (cl.duration_s && cl.gui_stats_path.empty()) || cl.solver_threads) {
    spdlog::warn(
        "--log, --log-contacts, --log-solver, --log-newton, --summary, --duration and --threads "
        "apply to --headless runs; "
        "ignored");
  }
  ApplicationOptions options;
  try {
    options.scene_defaults = LoadSceneFile(ResolveScenePath(cl.scene));
    options.scene = options.scene_defaults;
    ApplyOverrides(cl.overrides, &options.scene.contact_settings);
    if (cl.circle_frequency_Hz) {
      const std::string e = SetCircleFrequency(*cl.circle_frequency_Hz, &options.scene);
      if (!e.empty()) throw std::invalid_argument(e);
    }
  } catch (const std::exception& e) {
    spdlog::error("{}", Printable(e.what(), kMaxErrorLineChars));
    return kExitBadInput;
  }
  if (const std::string error = CheckCameraName(options.scene, cl.camera); !error.empty()) {
    spdlog::error("{}", error);
    return kExitBadInput;
  }
  SetWindowAndInput(cl, &options);
  try {
    return Run(cl, options);
  } catch (const GuiError& e) {
    spdlog::error("{}", Printable(e.what(), kMaxErrorLineChars));
    return e.kind() == GuiError::Kind::kNoDisplay || e.kind() == GuiError::Kind::kBadInput
               ? kExitBadInput
               : kExitError;
  } catch (const std::invalid_argument& e) {
    spdlog::error("{}", Printable(options.scene.source + ": " + e.what(), kMaxErrorLineChars));
    return kExitBadInput;
  } catch (const std::exception& e) {
    spdlog::error("{}", Printable(e.what(), kMaxErrorLineChars));
    return kExitError;
  }
}

}  // namespace contactlab
