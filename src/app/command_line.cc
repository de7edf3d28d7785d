#include "app/command_line.h"

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <stdexcept>

#include "input/input_spec.h"
#include "io/output_folder.h"

namespace contactlab {

bool ParseWindowSize(const std::string& text, int* width, int* height) {
  static const std::regex kSize("([0-9]{1,5})x([0-9]{1,5})");
  std::smatch m;
  if (!std::regex_match(text, m, kSize)) return false;
  const int w = std::stoi(m[1].str()), h = std::stoi(m[2].str());
  if (w < 64 || h < 64 || w > 8192 || h > 8192) return false;
  *width = w;
  *height = h;
  return true;
}

namespace {

// Options CLI11 parses into these first, to be checked and converted into CommandLine after
// parsing (NaN: not given).
struct RawOptions {
  std::string model, ghost, window_size, integrator, ghost_integrator;
  double max_fps = NAN;
  int threads = 0;
  double dt = NAN, stiffness = NAN, hunt_crossley = NAN, relaxation = NAN, stiction = NAN,
         friction = NAN, duration = NAN, rtf = NAN, circle_frequency = NAN, accuracy = NAN,
         dt_max = NAN, restitution = NAN;
};

void AddOptions(CLI::App* app, CommandLine* out, RawOptions* raw) {
  app->add_flag("--headless", out->headless, "run without a window and exit");
  app->add_option("--scene", out->scene, "built-in scene name or path to a scene file");
  app->add_option("--duration", raw->duration, "simulated time to run headless [s]");
  app->add_option("--model", raw->model,
                  "contact model: sap|lagged|similar|regularized_lagged|drumwright_shell");
  app->add_option("--ghost", raw->ghost,
                  "GUI: a ghost run with this approximation from the start: "
                  "sap|lagged|similar|regularized_lagged|drumwright_shell");
  app->add_option("--ghost-integrator", raw->ghost_integrator,
                  "GUI: a ghost run under this integrator from the start: symplectic_euler|"
                  "implicit_euler|midpoint|theta:TQ,TV|error_controlled");
  app->add_option("--dt", raw->dt, "time step [s]");
  app->add_option("--integrator", raw->integrator,
                  "time integration: symplectic_euler (default)|implicit_euler|midpoint|"
                  "theta:θq,θv|error_controlled");
  app->add_option("--accuracy", raw->accuracy,
                  "error control's accuracy ε, a bound on each step's error estimate "
                  "max(|Δq|, dt_max |Δv|) [m, rad] (implies --integrator error_controlled; "
                  "default 1e-3)");
  app->add_option("--dt-max", raw->dt_max,
                  "error control's largest step [s] (implies --integrator error_controlled)");
  app->add_option("--stiffness", raw->stiffness, "point-contact stiffness override [N/m]");
  app->add_option("--hunt-crossley", raw->hunt_crossley,
                  "Hunt & Crossley dissipation override [s/m]");
  app->add_option("--relaxation-time", raw->relaxation, "SAP dissipation time scale override [s]");
  app->add_option("--stiction-tolerance", raw->stiction, "stiction tolerance v_s override [m/s]");
  app->add_option("--friction", raw->friction, "friction coefficient override");
  app->add_option("--restitution", raw->restitution,
                  "restitution coefficient override, 0 to 1 (drumwright_shell only)");
  app->add_option("--circle-frequency", raw->circle_frequency,
                  "frequency of the scene's teleop circle [Hz], 0-3 (e.g. grasp_stress)");
  app->add_flag("--stop-on-failure", out->stop_on_failure,
                "headless: stop when the held object has failed (task.failed; for sweeps)");
  app->add_option("--threads", raw->threads,
                  "headless: threads that solve a step's independent islands (1-64; default 2 "
                  "on a machine with two or more cores)");
  app->add_option("--input", out->input, "keyboard|spacemouse|gamepad|replay:FILE");
  app->add_option("--record", out->record_path,
                  "record the teleoperation commands to a CSV that --input replay:FILE plays back");
  app->add_option("--log", out->log_path, "per-step CSV log");
  app->add_option("--log-contacts", out->contact_log_path,
                  "CSV log: one row per contact per step, with gliding diagnostics");
  app->add_option("--log-solver", out->solver_log_path,
                  "CSV log: the solver per step (iterations, residual, penetration, slip, "
                  "effective stiction tolerance)");
  app->add_flag("--hessian-condition", out->hessian_condition,
                "with --log-solver: the Newton Hessian's condition number per step (dense "
                "eigenvalues, O(n_v^3): for studies)");
  app->add_option("--log-newton", out->newton_log_path,
                  "CSV log: the cost at every Newton iterate of every step");
  app->add_option("--summary", out->summary_path, "run summary JSON");
  app->add_option("--realtime-factor", raw->rtf,
                  "pace to R x wall time (headless default: unpaced)");
  app->add_option("--screenshot", out->screenshot_path, "render, save a PNG and exit");
  app->add_flag("--no-settings", out->no_settings,
                "GUI: ignore the saved settings (window, layers, camera) and do not save them");
  app->add_option("--frames", out->frames, "frames to render before the screenshot");
  app->add_option("--window-size", raw->window_size, "GUI/screenshot window size WxH in pixels");
  app->add_option("--max-fps", raw->max_fps,
                  "GUI frame-rate cap when the display does not pace it (0: uncapped; default 60)");
  app->add_option("--msaa", out->msaa_samples,
                  "GUI anti-aliasing samples: 0, 2, 4 or 8 (default 4; the most the GUI uses)");
  app->add_flag("--fixed-quality", out->fixed_quality,
                "GUI: keep --msaa, the shadow and the 3-D resolution even below 30 fps (default: "
                "lower them while frames are slow)");
  app->add_option("--gui-stats", out->gui_stats_path,
                  "run the GUI for --duration s of wall time, write frame/sim timing JSON, exit");
  app->add_option("--contact-colors", out->contact_colors,
                  "GUI contact point colours: state (default), gliding (offset) or slip (speed)");
  app->add_option("--contact-view", out->contact_views,
                  "GUI contact views on at start, the others off: a comma-separated list of "
                  "forces, traction, slip, wireframe, or none");
  app->add_option("--vector-scale", out->vector_scale,
                  "GUI force/traction/slip arrows: linear (default), log or fixed (length)");
  app->add_option("--camera", out->camera,
                  "GUI main camera: a camera the scene names (e.g. task, wrist) or free (orbit)");
  app->add_option("--output-dir", out->output_dir,
                  "GUI: folder for recordings, screenshots and exports saved without a path "
                  "(default: $XDG_DATA_HOME/contactlab or ~/.local/share/contactlab)");
  app->add_flag("-v,--verbose", out->verbose, "debug logging");
}

// A contact setting given on the command line (validated with the others by ApplyOverrides).
void TakeOption(const CLI::App& app, double value, const char* name,
                std::optional<double>* target) {
  if (app.count(name) > 0) *target = value;
}

// A number option into *target if given: false if it is not a positive finite number.
bool TakePositive(const CLI::App& app, double value, const char* name,
                  std::optional<double>* target) {
  if (std::isnan(value) && app.count(name) == 0) return true;
  if (!std::isfinite(value) || value <= 0) return false;
  *target = value;
  return true;
}

// --contact-view: every listed view one of kContactViews; --vector-scale one of kVectorScales.
std::string CheckContactViews(const CLI::App& app, const CommandLine& cl) {
  auto known = [](const auto& names, const std::string& name) {
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
  };
  if (app.count("--contact-view")) {
    const std::string& list = cl.contact_views;
    for (size_t start = 0; start <= list.size();) {  // empty items too ("slip,")
      const size_t comma = std::min(list.find(',', start), list.size());
      const std::string view = list.substr(start, comma - start);
      start = comma + 1;
      if (!known(kContactViews, view)) {
        return "--contact-view takes forces, traction, slip, wireframe or none, got '" + view + "'";
      }
    }
  }
  if (app.count("--vector-scale") && !known(kVectorScales, cl.vector_scale)) {
    return "--vector-scale must be linear, log or fixed, got '" + cl.vector_scale + "'";
  }
  return "";
}

// The GUI's options: --frames, --window-size, --max-fps, --msaa, --contact-colors,
// --contact-view, --vector-scale, --output-dir (created here: a folder that cannot be is an
// error now, not at the first save), --gui-stats.
std::string CheckGuiOptions(const CLI::App& app, const RawOptions& raw, CommandLine* out) {
  if (app.count("--frames") && out->frames <= 0) return "--frames must be positive";
  if (app.count("--window-size") &&
      !ParseWindowSize(raw.window_size, &out->window_width, &out->window_height)) {
    return "--window-size must be WxH with W and H from 64 to 8192, got '" + raw.window_size + "'";
  }
  if (app.count("--max-fps")) {
    if (!std::isfinite(raw.max_fps) || raw.max_fps < 0) {
      return "--max-fps must be a non-negative number (0: uncapped)";
    }
    out->max_fps = raw.max_fps;
  }
  if (app.count("--msaa") && out->msaa_samples != 0 && out->msaa_samples != 2 &&
      out->msaa_samples != 4 && out->msaa_samples != 8) {
    return "--msaa must be 0, 2, 4 or 8";
  }
  if (app.count("--contact-colors") &&
      std::find(std::begin(kContactColorModes), std::end(kContactColorModes),
                out->contact_colors) == std::end(kContactColorModes)) {
    return "--contact-colors must be state, gliding or slip, got '" + out->contact_colors + "'";
  }
  if (const std::string error = CheckContactViews(app, *out); !error.empty()) return error;
  if (app.count("--output-dir")) {
    if (out->output_dir.empty()) return "--output-dir must name a folder";
    const std::string given = out->output_dir;
    if (const std::string error = PrepareOutputDirectory(given, &out->output_dir); !error.empty()) {
      return "--output-dir " + error;
    }
  }
  if (!out->gui_stats_path.empty()) {
    if (out->headless) return "--gui-stats measures the GUI; it can't be combined with --headless";
    if (!out->screenshot_path.empty()) return "--gui-stats and --screenshot exclude each other";
  }
  return "";
}

// --integrator, --accuracy and --dt-max into the overrides (docs/contact-model.md §1.1–§1.2):
// an accuracy or a δt_max alone asks for error control; with another integrator they are an
// error. The message for a bad one, or "".
std::string TakeIntegrator(const CLI::App& app, const RawOptions& raw, ContactOverrides* o) {
  const bool accuracy = app.count("--accuracy") > 0, dt_max = app.count("--dt-max") > 0;
  if (!raw.integrator.empty()) {
    o->integrator = ParseTimeIntegration(raw.integrator);
    if (!o->integrator) {
      return "--integrator must be symplectic_euler, implicit_euler, midpoint, theta:θq,θv or "
             "error_controlled, got '" +
             raw.integrator + "'";
    }
    if ((accuracy || dt_max) &&
        o->integrator->scheme != TimeIntegration::Scheme::kErrorControlled) {
      return std::string(accuracy ? "--accuracy" : "--dt-max") +
             " applies to --integrator error_controlled, not " + raw.integrator;
    }
  } else if (accuracy || dt_max) {
    o->integrator = TimeIntegration::ErrorControlled(1e-3);
  }
  if (accuracy) o->integrator->accuracy = raw.accuracy;
  if (dt_max) {
    if (app.count("--dt"))
      return "--dt and --dt-max exclude each other (--dt-max is error control's δt)";
    if (!(raw.dt_max > 0) || !std::isfinite(raw.dt_max))
      return "--dt-max must be a positive number";
    o->dt_s = raw.dt_max;
  }
  return "";
}

// --ghost-integrator: a name ParseTimeIntegration knows, with θ in range; GUI only.
std::string CheckGhostIntegrator(const std::string& name, CommandLine* out) {
  if (name.empty()) return "";
  out->ghost_integrator = ParseTimeIntegration(name);
  if (!out->ghost_integrator) {
    return "--ghost-integrator must be symplectic_euler, implicit_euler, midpoint, "
           "theta:TQ,TV or error_controlled, got '" +
           name + "'";
  }
  try {
    ValidateTimeIntegration(*out->ghost_integrator, "--ghost-integrator", "--ghost-integrator");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (out->headless) {
    return "--ghost-integrator draws a ghost in the GUI; it can't be combined with --headless";
  }
  return "";
}

// Checks the parsed options and completes *out; the message for the first bad one, or "".
std::string CheckOptions(const CLI::App& app, const RawOptions& raw, CommandLine* out) {
  if (!raw.model.empty()) {
    out->overrides.approximation = ParseContactApproximation(raw.model);
    if (!out->overrides.approximation) {
      return "--model must be sap, lagged, similar, regularized_lagged or drumwright_shell, got '" +
             raw.model + "'";
    }
  }
  if (!raw.ghost.empty()) {
    out->ghost = ParseContactApproximation(raw.ghost);
    if (!out->ghost) {
      return "--ghost must be sap, lagged, similar, regularized_lagged or drumwright_shell, got '" +
             raw.ghost + "'";
    }
    if (out->headless)
      return "--ghost draws a ghost in the GUI; it can't be combined with --headless";
  }
  if (const std::string error = CheckGhostIntegrator(raw.ghost_integrator, out); !error.empty()) {
    return error;
  }
  ContactOverrides& o = out->overrides;
  if (const std::string e = TakeIntegrator(app, raw, &o); !e.empty()) return e;
  TakeOption(app, raw.dt, "--dt", &o.dt_s);
  TakeOption(app, raw.stiffness, "--stiffness", &o.stiffness_N_per_m);
  TakeOption(app, raw.hunt_crossley, "--hunt-crossley", &o.hunt_crossley_s_per_m);
  TakeOption(app, raw.relaxation, "--relaxation-time", &o.relaxation_time_s);
  TakeOption(app, raw.stiction, "--stiction-tolerance", &o.stiction_tolerance_m_per_s);
  TakeOption(app, raw.friction, "--friction", &o.friction);
  TakeOption(app, raw.restitution, "--restitution", &o.restitution);
  // The settings' own check (the scene loader's and the live setter's), on any settings.
  try {
    ContactSettings any;
    ApplyOverrides(o, &any);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (!TakePositive(app, raw.duration, "--duration", &out->duration_s)) {
    return "--duration must be a positive number";
  }
  if (!TakePositive(app, raw.rtf, "--realtime-factor", &out->realtime_factor)) {
    return "--realtime-factor must be a positive number";
  }
  if (app.count("--circle-frequency")) {
    if (!(raw.circle_frequency >= 0 && raw.circle_frequency <= 3)) {
      return "--circle-frequency must be a frequency from 0 to 3 Hz";
    }
    out->circle_frequency_Hz = raw.circle_frequency;
  }
  if (app.count("--threads")) {
    if (raw.threads < 1 || raw.threads > 64) return "--threads must be an integer from 1 to 64";
    out->solver_threads = raw.threads;
  }
  if (out->hessian_condition && out->solver_log_path.empty()) {
    return "--hessian-condition is a column of --log-solver FILE; give that too";
  }
  if (!out->input.empty() && out->input != "keyboard" && out->input != "spacemouse" &&
      out->input != "gamepad" && out->input.rfind("replay:", 0) != 0) {
    return "--input must be keyboard, spacemouse, gamepad or replay:FILE, got '" + out->input + "'";
  }
  return CheckGuiOptions(app, raw, out);
}

// The window options in a build without the GUI, and the input device: a replay file that
// exists, and no gamepad without the GUI's window system.
std::string CheckAgainstTheBuild(const CommandLine& cl, bool gui_built) {
  if (!gui_built && (!cl.screenshot_path.empty() || !cl.gui_stats_path.empty())) {
    return "--screenshot and --gui-stats need the GUI, which this build does not have";
  }
  if (cl.headless && !cl.screenshot_path.empty()) {
    return "--screenshot renders the GUI; it can't be combined with --headless";
  }
  if (cl.input.empty()) return "";
  InputSpec spec;
  std::string error;
  if (!ParseInputSpec(cl.input, &spec, &error)) return error;
  if (spec.kind == InputSpec::Kind::kReplay &&
      !std::filesystem::is_regular_file(spec.replay_path)) {
    return "--input " + cl.input + ": no such replay file";
  }
  // The gamepad is read through the GUI's window system (GLFW); a headless run (and every run
  // of a build without the GUI) has none, so the pad could never move the robot.
  if (spec.kind == InputSpec::Kind::kGamepad && (cl.headless || !gui_built)) {
    return "--input gamepad reads the pad through the GUI (GLFW); it can't be used headless";
  }
  return "";
}

}  // namespace

int ParseCommandLine(int argc, char** argv, bool gui_built, CommandLine* out, bool* exit_now) {
  *exit_now = false;
  CLI::App app{"contactlab: interactive convex compliant contact simulator", "contactlab"};
  RawOptions raw;
  AddOptions(&app, out, &raw);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    *exit_now = true;
    app.exit(e);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    *exit_now = true;
    spdlog::error("{}", e.what());
    return kExitBadInput;
  }
  std::string error = CheckOptions(app, raw, out);
  if (error.empty()) error = CheckAgainstTheBuild(*out, gui_built);
  if (!error.empty()) {
    *exit_now = true;
    spdlog::error("{}", error);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace contactlab
