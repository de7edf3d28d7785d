#include "app/command_line.h"

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <regex>

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

int ParseCommandLine(int argc, char** argv, CommandLine* out, bool* exit_now) {
  *exit_now = false;
  CLI::App app{"contactlab: interactive convex compliant contact simulator", "contactlab"};
  std::string model, window_size;
  double max_fps = NAN;
  double dt = NAN, stiffness = NAN, hunt_crossley = NAN, relaxation = NAN, stiction = NAN,
         friction = NAN, duration = NAN, rtf = NAN;
  app.add_flag("--headless", out->headless, "run without a window and exit");
  app.add_option("--scene", out->scene, "built-in scene name or path to a scene file");
  app.add_option("--duration", duration, "simulated time to run headless [s]");
  app.add_option("--model", model, "contact approximation: sap|lagged|similar");
  app.add_option("--dt", dt, "time step [s]");
  app.add_option("--stiffness", stiffness, "point-contact stiffness override [N/m]");
  app.add_option("--hunt-crossley", hunt_crossley, "Hunt & Crossley dissipation override [s/m]");
  app.add_option("--relaxation-time", relaxation, "SAP dissipation time scale override [s]");
  app.add_option("--stiction-tolerance", stiction, "stiction tolerance v_s override [m/s]");
  app.add_option("--friction", friction, "friction coefficient override");
  app.add_option("--input", out->input, "keyboard|spacemouse|replay:FILE");
  app.add_option("--record", out->record_path,
                 "record the teleoperation commands to a CSV that --input replay:FILE plays back");
  app.add_option("--log", out->log_path, "per-step CSV log");
  app.add_option("--summary", out->summary_path, "run summary JSON");
  app.add_option("--realtime-factor", rtf, "pace to R x wall time (headless default: unpaced)");
  app.add_option("--screenshot", out->screenshot_path, "render, save a PNG and exit");
  app.add_option("--frames", out->frames, "frames to render before the screenshot");
  app.add_option("--window-size", window_size, "GUI/screenshot window size WxH in pixels");
  app.add_option("--max-fps", max_fps,
                 "GUI frame-rate cap when the display does not pace it (0: uncapped; default 60)");
  app.add_option("--msaa", out->msaa_samples,
                 "GUI anti-aliasing samples: 0, 2, 4 or 8 (default 4)");
  app.add_option("--gui-stats", out->gui_stats_path,
                 "run the GUI for --duration s of wall time, write frame/sim timing JSON, exit");
  app.add_flag("-v,--verbose", out->verbose, "debug logging");
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

  auto fail = [&](const std::string& message) {
    *exit_now = true;
    spdlog::error("{}", message);
    return kExitBadInput;
  };
  auto set = [&](double value, const char* name, std::optional<double>* target,
                 bool allow_zero) -> bool {
    if (std::isnan(value) && app.count(name) == 0) return true;
    if (!std::isfinite(value) || value < 0 || (!allow_zero && value == 0)) return false;
    *target = value;
    return true;
  };
  if (!model.empty()) {
    out->overrides.approximation = ParseContactApproximation(model);
    if (!out->overrides.approximation) {
      return fail("--model must be sap, lagged or similar, got '" + model + "'");
    }
  }
  if (!set(dt, "--dt", &out->overrides.dt_s, false)) return fail("--dt must be a positive number");
  if (!set(stiffness, "--stiffness", &out->overrides.stiffness_N_per_m, false)) {
    return fail("--stiffness must be a positive number");
  }
  if (!set(hunt_crossley, "--hunt-crossley", &out->overrides.hunt_crossley_s_per_m, true)) {
    return fail("--hunt-crossley must be a non-negative number");
  }
  if (!set(relaxation, "--relaxation-time", &out->overrides.relaxation_time_s, true)) {
    return fail("--relaxation-time must be a non-negative number");
  }
  if (!set(stiction, "--stiction-tolerance", &out->overrides.stiction_tolerance_m_per_s, false)) {
    return fail("--stiction-tolerance must be a positive number");
  }
  if (!set(friction, "--friction", &out->overrides.friction, true)) {
    return fail("--friction must be a non-negative number");
  }
  if (!set(duration, "--duration", &out->duration_s, false)) {
    return fail("--duration must be a positive number");
  }
  if (!set(rtf, "--realtime-factor", &out->realtime_factor, false)) {
    return fail("--realtime-factor must be a positive number");
  }
  if (!out->input.empty() && out->input != "keyboard" && out->input != "spacemouse" &&
      out->input.rfind("replay:", 0) != 0) {
    return fail("--input must be keyboard, spacemouse or replay:FILE, got '" + out->input + "'");
  }
  if (app.count("--frames") && out->frames <= 0) return fail("--frames must be positive");
  if (app.count("--window-size") &&
      !ParseWindowSize(window_size, &out->window_width, &out->window_height)) {
    return fail("--window-size must be WxH with W and H from 64 to 8192, got '" + window_size +
                "'");
  }
  if (app.count("--max-fps")) {
    if (!std::isfinite(max_fps) || max_fps < 0) {
      return fail("--max-fps must be a non-negative number (0: uncapped)");
    }
    out->max_fps = max_fps;
  }
  if (app.count("--msaa") && out->msaa_samples != 0 && out->msaa_samples != 2 &&
      out->msaa_samples != 4 && out->msaa_samples != 8) {
    return fail("--msaa must be 0, 2, 4 or 8");
  }
  if (!out->gui_stats_path.empty()) {
    if (out->headless)
      return fail("--gui-stats measures the GUI; it can't be combined with --headless");
    if (!out->screenshot_path.empty())
      return fail("--gui-stats and --screenshot exclude each other");
  }
  return kExitOk;
}

}  // namespace contactlab
