#include "app/calibration/calibrate_command.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>

#include "app/calibration/calibration.h"
#include "app/command_line.h"
#include "io/line_plot.h"
#include "io/scene_loader.h"

namespace contactlab {
namespace {

struct CalibrateOptions {
  std::string scene, reference, output, plot;
  std::vector<std::string> fit, bodies, from;
  std::vector<double> window;
  std::string model;
  int max_iterations = 30;
};

const std::map<std::string, ContactParameter>& ParameterNames() {
  static const std::map<std::string, ContactParameter> names = {
      {"stiffness", ContactParameter::kStiffness},
      {"hunt-crossley", ContactParameter::kHuntCrossley},
      {"relaxation-time", ContactParameter::kRelaxationTime},
      {"friction", ContactParameter::kFriction},
      {"stiction-tolerance", ContactParameter::kStictionTolerance}};
  return names;
}

ContactParameter ParseParameter(const std::string& name) {
  const auto it = ParameterNames().find(name);
  if (it == ParameterNames().end()) {
    throw std::invalid_argument(
        "--fit: unknown parameter '" + name +
        "' (stiffness, hunt-crossley, relaxation-time, friction, stiction-tolerance)");
  }
  return it->second;
}

// Each fitted parameter's start: --from NAME=VALUE, else the scene's global value (its
// contact_overrides, or its stiction_tolerance).
std::vector<double> InitialValues(const CalibrateOptions& o, const SceneSpec& scene,
                                  const std::vector<ContactParameter>& parameters) {
  std::map<ContactParameter, double> from;
  for (const std::string& item : o.from) {
    const size_t eq = item.find('=');
    const std::string name = item.substr(0, eq);
    double value = NAN;
    if (eq == std::string::npos || std::sscanf(item.c_str() + eq + 1, "%lf", &value) != 1 ||
        !std::isfinite(value)) {
      throw std::invalid_argument("--from: '" + item + "' is not NAME=VALUE");
    }
    from[ParseParameter(name)] = value;
  }
  std::vector<double> initial;
  for (ContactParameter p : parameters) {
    if (from.count(p)) {
      initial.push_back(from[p]);
      continue;
    }
    try {
      initial.push_back(GlobalParameterValue(scene.contact_settings, p));
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument(fmt::format(
          "--fit {0}: no initial value: give --from {0}=VALUE or the scene's contact_overrides",
          GlobalParameterOptionName(p)));
    }
  }
  return initial;
}

CalibrationSpec MakeSpec(const CalibrateOptions& o, SceneSpec* scene) {
  CalibrationSpec spec;
  for (const std::string& name : o.fit) spec.parameters.push_back(ParseParameter(name));
  if (!o.model.empty()) {
    const auto approximation = ParseContactApproximation(o.model);
    if (!approximation) throw std::invalid_argument("--model: unknown model '" + o.model + "'");
    scene->contact_settings.approximation = *approximation;
  }
  spec.initial = InitialValues(o, *scene, spec.parameters);
  spec.bodies = o.bodies;
  if (!o.window.empty()) {
    if (o.window.size() != 2 || !(o.window[0] < o.window[1])) {
      throw std::invalid_argument("--window: give t0,t1 with t0 < t1 [s]");
    }
    spec.window_start_s = o.window[0];
    spec.window_end_s = o.window[1];
  }
  spec.max_iterations = o.max_iterations;
  return spec;
}

// The scene file with the fitted values as its contact_overrides (and stiction_tolerance):
// the YAML re-emitted, so comments are not kept.
void WriteFittedScene(const std::string& scene_path, const CalibrationResult& r,
                      const std::string& output) {
  YAML::Node root = YAML::LoadFile(scene_path);
  for (size_t j = 0; j < r.parameters.size(); ++j) {
    const double value = r.fitted[j];
    switch (r.parameters[j]) {
      case ContactParameter::kStictionTolerance:
        root["stiction_tolerance"] = value;
        break;
      case ContactParameter::kStiffness:
        root["contact_overrides"]["stiffness"] = value;
        break;
      case ContactParameter::kHuntCrossley:
        root["contact_overrides"]["hunt_crossley"] = value;
        break;
      case ContactParameter::kRelaxationTime:
        root["contact_overrides"]["relaxation_time"] = value;
        break;
      default:
        root["contact_overrides"]["friction"] = value;
    }
  }
  std::ofstream out(output);
  out << "# " << std::filesystem::path(scene_path).filename().string()
      << " with contact parameters fitted by contactlab calibrate\n"
      << YAML::Dump(root) << "\n";
  if (!out) throw std::runtime_error(output + ": cannot write the fitted scene");
}

// One panel per fitted coordinate that moves (a coordinate still to round-off, a box's lateral
// position, would show only its noise): the reference, the run before and after the fit.
void WriteFitPlot(const CalibrationResult& r, const std::string& path) {
  LinePlot plot;
  plot.title = fmt::format("contactlab calibrate: RMS error {:.3g} m before, {:.3g} m after",
                           r.rms_before_m, r.rms_after_m);
  for (const CalibrationTrace& t : r.traces) {
    const auto [lo, hi] = std::minmax_element(t.reference.begin(), t.reference.end());
    if (*hi - *lo < 1e-9) continue;
    const bool position =
        t.column.ends_with(".px") || t.column.ends_with(".py") || t.column.ends_with(".pz");
    PlotPanel panel;
    panel.title = t.column;
    panel.x_label = "t [s]";
    panel.y_label = t.column + (position ? " [m]" : " [m or rad]");
    panel.series.push_back({"reference", {20, 20, 20}, t.time_s, t.reference, false});
    panel.series.push_back({"before the fit", {214, 96, 40}, t.time_s, t.before, true});
    panel.series.push_back({"after the fit", {30, 110, 200}, t.time_s, t.after, true});
    plot.panels.push_back(std::move(panel));
  }
  if (plot.panels.empty()) {
    spdlog::warn("calibrate: no fitted coordinate moves; no plot written");
    return;
  }
  WriteLinePlotPng(plot, path);
}

void PrintResult(const CalibrationResult& r, double wall_s) {
  std::printf("%-20s %14s %14s %12s  %s\n", "parameter", "initial", "fitted", "1 sigma",
              "identified");
  for (size_t j = 0; j < r.parameters.size(); ++j) {
    const std::string sigma = !r.identified[j] ? "-"
                              : IsLogScaled(r.parameters[j])
                                  ? fmt::format("{:.3g} %", 100 * r.standard_deviation[j])
                                  : fmt::format("{:.3g}", r.standard_deviation[j]);
    std::printf("%-20s %14.6g %14.6g %12s  %s\n", GlobalParameterOptionName(r.parameters[j]),
                r.initial[j], r.fitted[j], sigma.c_str(),
                r.identified[j] ? "yes" : ("no: " + r.unidentified_reason[j]).c_str());
  }
  std::printf("RMS error %.4g m before, %.4g m after (%d residuals), %d iterations%s, %.3g s\n",
              r.rms_before_m, r.rms_after_m, r.num_residuals, r.iterations,
              r.converged ? "" : " (iteration cap reached)", wall_s);
}

void AddOptions(CLI::App* app, CalibrateOptions* o) {
  app->add_option("--scene", o->scene, "Scene name or YAML path")->required();
  app->add_option("--reference", o->reference, "Reference log (the --log CSV format)")->required();
  app->add_option("--fit", o->fit,
                  "Parameters to fit: stiffness, hunt-crossley, relaxation-time, friction, "
                  "stiction-tolerance (global values)")
      ->required()
      ->delimiter(',');
  app->add_option("--bodies", o->bodies, "Bodies whose columns are fitted (default: all)")
      ->delimiter(',');
  app->add_option("--window", o->window, "t0,t1: the reference rows fitted [s]")->delimiter(',');
  app->add_option("--from", o->from, "Initial values NAME=VALUE (default: the scene's)")
      ->delimiter(',');
  app->add_option("--model", o->model, "Contact approximation (default: the scene's)");
  app->add_option("--output", o->output, "Fitted scene file (default: <scene>_fitted.yaml)");
  app->add_option("--plot", o->plot, "Plot of the fit (default: <scene>_fit.png)");
  app->add_option("--max-iterations", o->max_iterations, "Levenberg-Marquardt iterations")
      ->check(CLI::Range(1, 1000));
}

}  // namespace

int RunCalibrateCommand(int argc, char** argv) {
  CLI::App app{"contactlab calibrate: fit contact parameters to a reference log",
               "contactlab calibrate"};
  CalibrateOptions o;
  AddOptions(&app, &o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }
  CalibrationResult result;
  std::string scene_path, scene_name;
  const auto start = std::chrono::steady_clock::now();
  try {
    scene_path = ResolveScenePath(o.scene);
    SceneSpec scene = LoadSceneFile(scene_path);
    scene_name = scene.name;
    const CalibrationSpec spec = MakeSpec(o, &scene);
    const ReferenceLog reference = ReadReferenceLog(o.reference);
    result =
        Calibrate(scene, reference, spec, [&](int it, double rms, const std::vector<double>& p) {
          spdlog::info("calibrate: iteration {}: RMS error {:.4g} m, {}", it, rms,
                       fmt::join(p, ", "));
        });
  } catch (const std::invalid_argument& e) {
    spdlog::error("{}", e.what());
    return kExitBadInput;
  } catch (const SceneError& e) {
    spdlog::error("{}", e.what());
    return kExitBadInput;
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitRunFailed;
  }
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  PrintResult(result, wall_s);
  try {
    WriteFittedScene(scene_path, result, o.output.empty() ? scene_name + "_fitted.yaml" : o.output);
    WriteFitPlot(result, o.plot.empty() ? scene_name + "_fit.png" : o.plot);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return kExitError;
  }
  return kExitOk;
}

}  // namespace contactlab
