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
#include <string_view>

#include "app/calibration/calibration.h"
#include "app/calibration/teleop_driver.h"
#include "app/command_line.h"
#include "io/line_plot.h"
#include "io/scene_loader.h"

namespace contactlab {
namespace {

struct CalibrateOptions {
  std::string scene, reference, output, plot;
  std::vector<std::string> fit, bodies, from;
  std::vector<double> window;
  std::string model, input;
  int max_iterations = 30;
};

// The parameters a fit may name, by their command-line options (GlobalParameterOptionName).
constexpr ContactParameter kFittable[] = {
    ContactParameter::kStiffness,         ContactParameter::kHuntCrossley,
    ContactParameter::kRelaxationTime,    ContactParameter::kFriction,
    ContactParameter::kStictionTolerance, ContactParameter::kHydroelasticModulus};

ContactParameter ParseParameter(const std::string& name) {
  for (ContactParameter p : kFittable) {
    if (name == GlobalParameterOptionName(p)) return p;
  }
  throw std::invalid_argument(
      "--fit: unknown parameter '" + name +
      "' (stiffness, hunt-crossley, relaxation-time, friction, stiction-tolerance, "
      "hydroelastic-modulus)");
}

// A fitted parameter as named on the command line: `friction` (global) or `friction@box/ramp`
// (the pair of bodies' own, docs/contact-model.md §6).
struct FittedName {
  std::string text;
  ContactParameter parameter;
  int body_a = -1, body_b = -1;  // scene bodies of a pair's parameter
};

FittedName ParseFitted(const std::string& text, const SceneSpec& scene) {
  FittedName f{text, ParseParameter(text.substr(0, text.find('@')))};
  const size_t at = text.find('@');
  if (at == std::string::npos) return f;
  if (f.parameter == ContactParameter::kHydroelasticModulus) {
    throw std::invalid_argument("--fit " + text +
                                ": E_h is the compliant geometries', fitted as one value for all "
                                "of them: give hydroelastic-modulus without a pair");
  }
  const std::string pair = text.substr(at + 1);
  const size_t slash = pair.find('/');
  if (slash == std::string::npos) {
    throw std::invalid_argument("--fit " + text + ": a pair is NAME@BODY_A/BODY_B");
  }
  f.body_a = scene.FindBody(pair.substr(0, slash));
  f.body_b = scene.FindBody(pair.substr(slash + 1));
  if (f.body_a < 0 || f.body_b < 0 || f.body_a == f.body_b) {
    throw std::invalid_argument("--fit " + text + ": the pair needs two bodies of the scene");
  }
  return f;
}

// The scene's contact_pairs entry of a pair parameter, added when the scene has none.
int ContactPairIndex(const FittedName& f, SceneSpec* scene) {
  for (size_t i = 0; i < scene->contact_pairs.size(); ++i) {
    if (scene->contact_pairs[i].Joins(f.body_a, f.body_b)) return static_cast<int>(i);
  }
  ContactPairSpec pair;
  pair.scene_body_a = f.body_a;
  pair.scene_body_b = f.body_b;
  scene->contact_pairs.push_back(pair);
  return static_cast<int>(scene->contact_pairs.size()) - 1;
}

std::map<std::string, double> ParseFrom(const CalibrateOptions& o) {
  std::map<std::string, double> from;
  for (const std::string& item : o.from) {
    const size_t eq = item.find('=');
    double value = NAN;
    if (eq == std::string::npos || std::sscanf(item.c_str() + eq + 1, "%lf", &value) != 1 ||
        !std::isfinite(value)) {
      throw std::invalid_argument("--from: '" + item + "' is not NAME=VALUE");
    }
    from[item.substr(0, eq)] = value;
  }
  return from;
}

// Each fitted parameter's start: --from NAME=VALUE, else the scene's own value (its
// contact_overrides or stiction_tolerance, or the pair's contact_pairs entry).
double InitialValue(const FittedName& f, int contact_pair, const SceneSpec& scene,
                    const std::map<std::string, double>& from) {
  if (const auto it = from.find(f.text); it != from.end()) return it->second;
  try {
    return SceneParameterValue(scene, f.parameter, contact_pair);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(
        fmt::format("--fit {0}: no initial value ({1}): give --from {0}=VALUE or the scene's {2}",
                    f.text, e.what(), contact_pair < 0 ? "contact_overrides" : "contact_pairs"));
  }
}

// The spec, and each parameter's name as given (for the table and the fitted scene).
CalibrationSpec MakeSpec(const CalibrateOptions& o, SceneSpec* scene,
                         std::vector<FittedName>* names) {
  CalibrationSpec spec;
  if (!o.model.empty()) {
    const auto approximation = ParseContactApproximation(o.model);
    if (!approximation) throw std::invalid_argument("--model: unknown model '" + o.model + "'");
    scene->contact_settings.approximation = *approximation;
  }
  const std::map<std::string, double> from = ParseFrom(o);
  for (const std::string& text : o.fit) {
    const FittedName f = ParseFitted(text, *scene);
    const int pair = f.body_a < 0 ? -1 : ContactPairIndex(f, scene);
    spec.parameters.push_back(f.parameter);
    spec.contact_pairs.push_back(pair);
    spec.initial.push_back(InitialValue(f, pair, *scene, from));
    names->push_back(f);
  }
  spec.bodies = o.bodies;
  if (!o.window.empty()) {
    if (o.window.size() != 2 || !(o.window[0] < o.window[1])) {
      throw std::invalid_argument("--window: give t0,t1 with t0 < t1 [s]");
    }
    spec.window_start_s = o.window[0];
    spec.window_end_s = o.window[1];
  }
  spec.max_iterations = o.max_iterations;
  spec.make_driver = MakeTeleopDriver(*scene, o.input);
  return spec;
}

// The scene key of a contact parameter (contact_overrides and contact_pairs share them): its
// option's name with underscores.
std::string SceneKey(ContactParameter p) {
  std::string key = GlobalParameterOptionName(p);
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

// The contact_pairs entry of the two bodies in the YAML, appended when it has none.
YAML::Node PairNode(YAML::Node root, const std::string& a, const std::string& b) {
  YAML::Node pairs = root["contact_pairs"];
  for (YAML::Node entry : pairs) {
    const YAML::Node bodies = entry["bodies"];
    if (bodies.IsSequence() && bodies.size() == 2) {
      const std::string x = bodies[0].as<std::string>(), y = bodies[1].as<std::string>();
      if ((x == a && y == b) || (x == b && y == a)) return entry;
    }
  }
  YAML::Node entry;
  entry["bodies"].push_back(a);
  entry["bodies"].push_back(b);
  pairs.push_back(entry);
  return pairs[pairs.size() - 1];
}

// Every compliant geometry's hydroelastic_modulus in the YAML below `node` (a shape or a robot's
// hydroelastic entry with contact_model: hydroelastic_compliant).
void SetCompliantModulus(YAML::Node node, double modulus_Pa) {
  if (node.IsMap()) {
    const YAML::Node model = node["contact_model"];
    if (model.IsScalar() && model.as<std::string>() == "hydroelastic_compliant") {
      node["hydroelastic_modulus"] = modulus_Pa;
    }
    for (auto entry : node) SetCompliantModulus(entry.second, modulus_Pa);
  } else if (node.IsSequence()) {
    for (YAML::Node entry : node) SetCompliantModulus(entry, modulus_Pa);
  }
}

// The scene file with the fitted values: the global ones as its contact_overrides (and
// stiction_tolerance), a pair's in its contact_pairs entry, E_h in every compliant geometry; the
// YAML re-emitted, so comments are not kept.
void WriteFittedScene(const std::string& scene_path, const SceneSpec& scene,
                      const std::vector<FittedName>& names, const CalibrationResult& r,
                      const std::string& output) {
  YAML::Node root = YAML::LoadFile(scene_path);
  for (size_t j = 0; j < r.parameters.size(); ++j) {
    const double value = r.fitted[j];
    const FittedName& f = names[j];
    if (r.parameters[j] == ContactParameter::kStictionTolerance) {
      root["stiction_tolerance"] = value;
    } else if (r.parameters[j] == ContactParameter::kHydroelasticModulus) {
      SetCompliantModulus(root, value);
    } else if (f.body_a < 0) {
      root["contact_overrides"][SceneKey(r.parameters[j])] = value;
    } else {
      PairNode(root, scene.bodies[f.body_a].body.name,
               scene.bodies[f.body_b].body.name)[SceneKey(r.parameters[j])] = value;
    }
  }
  std::ofstream out(output);
  out << "# " << std::filesystem::path(scene_path).filename().string()
      << " with contact parameters fitted by contactlab calibrate\n"
      << YAML::Dump(root) << "\n";
  if (!out) throw std::runtime_error(output + ": cannot write the fitted scene");
}

double MaxDeviation(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

// A coordinate's panel: the reference and the runs before and after the fit; or, when the runs
// differ from the reference by less than 1 % of the coordinate's motion (a pad's squeeze under a
// carried peg), their errors, which the trajectories would hide.
PlotPanel FitPanel(const CalibrationTrace& t, double range) {
  const bool position =
      t.column.ends_with(".px") || t.column.ends_with(".py") || t.column.ends_with(".pz");
  const std::string unit = position ? " [m]" : " [m or rad]";
  PlotPanel panel;
  panel.x_label = "t [s]";
  if (MaxDeviation(t.before, t.reference) >= 0.01 * range) {
    panel.title = t.column;
    panel.y_label = t.column + unit;
    panel.series.push_back({"reference", {20, 20, 20}, t.time_s, t.reference, false});
    panel.series.push_back({"before the fit", {214, 96, 40}, t.time_s, t.before, true});
    panel.series.push_back({"after the fit", {30, 110, 200}, t.time_s, t.after, true});
    return panel;
  }
  panel.title = t.column + " - reference";
  panel.y_label = "error" + unit;
  std::vector<double> before(t.time_s.size()), after(t.time_s.size());
  for (size_t i = 0; i < before.size(); ++i) {
    before[i] = t.before[i] - t.reference[i];
    after[i] = t.after[i] - t.reference[i];
  }
  panel.series.push_back({"before the fit", {214, 96, 40}, t.time_s, std::move(before), false});
  panel.series.push_back({"after the fit", {30, 110, 200}, t.time_s, std::move(after), false});
  return panel;
}

// One panel per fitted coordinate that moves and that the fit changed (a coordinate still to
// round-off, a box's lateral position, would show only its noise; one whose error before the fit
// is below a thousandth of the largest one's shows nothing the others do not).
void WriteFitPlot(const CalibrationResult& r, const std::string& path) {
  LinePlot plot;
  plot.title = fmt::format("contactlab calibrate: RMS error {:.3g} m before, {:.3g} m after",
                           r.rms_before_m, r.rms_after_m);
  double largest_error = 0;
  for (const CalibrationTrace& t : r.traces) {
    largest_error = std::max(largest_error, MaxDeviation(t.before, t.reference));
  }
  for (const CalibrationTrace& t : r.traces) {
    const auto [lo, hi] = std::minmax_element(t.reference.begin(), t.reference.end());
    if (*hi - *lo < 1e-9 || MaxDeviation(t.before, t.reference) < 1e-3 * largest_error) continue;
    plot.panels.push_back(FitPanel(t, *hi - *lo));
  }
  if (plot.panels.empty()) {
    spdlog::warn("calibrate: no fitted coordinate moves; no plot written");
    return;
  }
  WriteLinePlotPng(plot, path);
}

void PrintResult(const std::vector<FittedName>& names, const CalibrationResult& r, double wall_s) {
  size_t width = std::string_view("parameter").size();
  for (const FittedName& f : names) width = std::max(width, f.text.size());
  std::printf("%-*s %14s %14s %12s  %s\n", static_cast<int>(width), "parameter", "initial",
              "fitted", "1 sigma", "identified");
  for (size_t j = 0; j < r.parameters.size(); ++j) {
    const std::string sigma = !r.identified[j] ? "-"
                              : IsLogScaled(r.parameters[j])
                                  ? fmt::format("{:.3g} %", 100 * r.standard_deviation[j])
                                  : fmt::format("{:.3g}", r.standard_deviation[j]);
    std::printf("%-*s %14.6g %14.6g %12s  %s\n", static_cast<int>(width), names[j].text.c_str(),
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
                  "stiction-tolerance, hydroelastic-modulus (global values: E_h of every "
                  "compliant geometry), or NAME@BODY_A/BODY_B (a pair's own)")
      ->required()
      ->delimiter(',');
  app->add_option("--bodies", o->bodies, "Bodies whose columns are fitted (default: all)")
      ->delimiter(',');
  app->add_option("--window", o->window, "t0,t1: the reference rows fitted [s]")->delimiter(',');
  app->add_option("--from", o->from, "Initial values NAME=VALUE (default: the scene's)")
      ->delimiter(',');
  app->add_option("--model", o->model, "Contact approximation (default: the scene's)");
  app->add_option("--input", o->input,
                  "Teleoperation replayed in every run: keyboard (idle) or replay:FILE.csv "
                  "(default: the scene's program, as --headless)");
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
  SceneSpec fitted_scene;
  std::vector<FittedName> names;
  const auto start = std::chrono::steady_clock::now();
  try {
    scene_path = ResolveScenePath(o.scene);
    SceneSpec scene = LoadSceneFile(scene_path);
    scene_name = scene.name;
    const CalibrationSpec spec = MakeSpec(o, &scene, &names);
    fitted_scene = scene;
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
  PrintResult(names, result, wall_s);
  try {
    WriteFittedScene(scene_path, fitted_scene, names, result,
                     o.output.empty() ? scene_name + "_fitted.yaml" : o.output);
    WriteFitPlot(result, o.plot.empty() ? scene_name + "_fit.png" : o.plot);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return kExitError;
  }
  return kExitOk;
}

}  // namespace contactlab
