#include "app/command_line.h"

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cmath>

namespace contactlab {

int ParseCommandLine(int argc, char** argv, CommandLine* out, bool* exit_now) {
  *exit_now = false;
  CLI::App app{"contactlab: interactive convex compliant contact simulator", "contactlab"};
  std::string model;
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
  app.add_option("--log", out->log_path, "per-step CSV log");
  app.add_option("--summary", out->summary_path, "run summary JSON");
  app.add_option("--realtime-factor", rtf, "pace to R x wall time (headless default: unpaced)");
  app.add_option("--screenshot", out->screenshot_path, "render, save a PNG and exit");
  app.add_option("--frames", out->frames, "frames to render before the screenshot");
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
  return kExitOk;
}

}  // namespace contactlab
