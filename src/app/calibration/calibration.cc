#include "app/calibration/calibration.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <stdexcept>

#include "engine/world/trajectory_sensitivity.h"

namespace contactlab {

bool IsLogScaled(ContactParameter parameter) {
  return parameter == ContactParameter::kStiffness ||
         parameter == ContactParameter::kStictionTolerance ||
         parameter == ContactParameter::kHydroelasticModulus;
}

std::pair<double, double> ParameterBounds(ContactParameter parameter) {
  switch (parameter) {
    case ContactParameter::kStiffness:
      return {1e2, 1e12};  // N/m
    case ContactParameter::kStictionTolerance:
      return {1e-8, 1.0};  // m/s
    case ContactParameter::kHydroelasticModulus:
      return {1e3, 1e12};  // Pa
    case ContactParameter::kFriction:
      return {0.0, 5.0};
    case ContactParameter::kHuntCrossley:
      return {0.0, 1e4};  // s/m
    default:
      return {0.0, 10.0};  // τ_d [s]
  }
}

namespace {

// A parameter whose plausible change (PlausibleChange) moves the fitted coordinates by less than
// this RMS cannot be told from the data (docs/contact-model.md §10).
constexpr double kIdentifiableRms_m = 1e-7;

// A fitted coordinate: its q entry and its reference column.
struct Target {
  int q_index = 0;
  int column = 0;
};

// A reference row within the window and the step after which the run is at its time.
struct Sample {
  int step = 0;
  int row = 0;
};

// The reference columns of a body: a floating body's position, a 1-dof joint's coordinate.
void AddBodyTargets(const World& world, int scene_body, const ReferenceLog& reference,
                    std::vector<Target>* targets) {
  const Multibody& mb = world.multibody();
  const int b = world.multibody_index(scene_body);
  if (b < 0) return;
  const std::string& name = world.scene().bodies[scene_body].body.name;
  const int start = mb.position_start(b);
  if (mb.joint_num_positions(b) == 7) {
    const char* axes[] = {"px", "py", "pz"};
    for (int k = 0; k < 3; ++k) {
      const int column = reference.Column(fmt::format("{}.{}", name, axes[k]));
      if (column >= 0) targets->push_back({start + k, column});
    }
  } else if (mb.joint_num_positions(b) == 1) {
    const int column = reference.Column(name + ".q");
    if (column >= 0) targets->push_back({start, column});
  }
}

std::vector<Target> FindTargets(const World& world, const ReferenceLog& reference,
                                const std::vector<std::string>& bodies) {
  std::vector<Target> targets;
  if (bodies.empty()) {
    for (int b = 0; b < world.model().num_bodies(); ++b) {
      AddBodyTargets(world, b, reference, &targets);
    }
  }
  for (const std::string& name : bodies) {
    const int b = world.scene().FindBody(name);
    if (b < 0) throw std::invalid_argument("calibrate: the scene has no body '" + name + "'");
    const size_t before = targets.size();
    AddBodyTargets(world, b, reference, &targets);
    if (targets.size() == before) {
      throw std::invalid_argument(fmt::format(
          "{0}: no column of body '{1}' ({1}.px/.py/.pz for a floating body, {1}.q for a joint)",
          reference.source, name));
    }
  }
  if (targets.empty()) {
    throw std::invalid_argument(reference.source +
                                ": no column matches a body of the scene (<body>.px, .py, .pz "
                                "of a floating body, <body>.q of a joint)");
  }
  return targets;
}

// The window's rows, each on the scene's time grid: t = n·δt after the run's n-th step.
std::vector<Sample> FindSamples(const ReferenceLog& reference, double dt_s,
                                const CalibrationSpec& spec) {
  std::vector<Sample> samples;
  for (int row = 0; row < static_cast<int>(reference.time_s.size()); ++row) {
    const double t = reference.time_s[row];
    if (t < spec.window_start_s || t > spec.window_end_s) continue;
    const long step = std::lround(t / dt_s);
    if (step < 1 || std::abs(step * dt_s - t) > 1e-6 * dt_s) {
      throw std::invalid_argument(fmt::format(
          "{}: t = {} s is not on the scene's time grid (δt = {} s, from t = 0): the reference "
          "must be logged at the scene's step",
          reference.source, t, dt_s));
    }
    samples.push_back({static_cast<int>(step), row});
  }
  if (samples.empty()) throw std::invalid_argument(reference.source + ": no row in the window");
  return samples;
}

int PairOf(const CalibrationSpec& spec, size_t j) {
  return spec.contact_pairs.empty() ? -1 : spec.contact_pairs[j];
}

// A run of the scene with the parameters at `values`: the residuals (sample-major, target-minor)
// and, per parameter, their derivatives; the positions for the plot.
struct Run {
  Eigen::VectorXd residual;
  Eigen::MatrixXd jacobian;  // ∂r/∂p
  Eigen::MatrixXd position;  // samples × targets
};

// The scene with the parameters at `values`: the global ones as its settings' overrides, a
// pair's in its contact_pairs entry, E_h in its compliant geometries.
SceneSpec SceneAt(const SceneSpec& scene, const CalibrationSpec& spec,
                  const std::vector<double>& values) {
  SceneSpec at = scene;
  for (size_t j = 0; j < values.size(); ++j) {
    SetSceneParameterValue(spec.parameters[j], PairOf(spec, j), values[j], &at);
  }
  return at;
}

Run Simulate(const SceneSpec& scene, const CalibrationSpec& spec, const std::vector<double>& values,
             const ReferenceLog& reference, const std::vector<Target>& targets,
             const std::vector<Sample>& samples) {
  World world(SceneAt(scene, spec, values));
  const std::vector<ContactParameter>& parameters = spec.parameters;
  std::vector<int> pairs(parameters.size());
  for (size_t j = 0; j < pairs.size(); ++j) pairs[j] = PairOf(spec, j);
  TrajectorySensitivity sensitivity(world.model(), parameters, pairs);
  const StepDriver drive = spec.make_driver ? spec.make_driver(world) : StepDriver();
  const int nt = static_cast<int>(targets.size());
  Run run{Eigen::VectorXd(samples.size() * nt),
          Eigen::MatrixXd(samples.size() * nt, parameters.size()),
          Eigen::MatrixXd(samples.size(), nt)};
  int step = 0;
  for (size_t s = 0; s < samples.size(); ++s) {
    for (; step < samples[s].step; ++step) {
      if (spec.cancel && spec.cancel()) throw CalibrationCancelled();
      if (drive) drive(&world);
      if (!sensitivity.Step(&world)) {
        throw std::runtime_error(fmt::format("calibrate: the run failed at t = {} s: {}",
                                             world.time(), sensitivity.failure()));
      }
    }
    for (int k = 0; k < nt; ++k) {
      const double q = world.q()[targets[k].q_index];
      run.position(s, k) = q;
      run.residual[s * nt + k] = q - reference.values(samples[s].row, targets[k].column);
      run.jacobian.row(s * nt + k) = sensitivity.dq_dp().row(targets[k].q_index);
    }
  }
  return run;
}

// The run cut to its first `num_samples` samples: a run's samples do not depend on later ones.
Run FirstSamples(const Run& run, int num_samples, int num_targets) {
  const int rows = num_samples * num_targets;
  return Run{run.residual.head(rows), run.jacobian.topRows(rows),
             run.position.topRows(num_samples)};
}

double Rms(const Eigen::VectorXd& r) { return std::sqrt(r.squaredNorm() / r.size()); }

// θ (the fitted variable) from p and back, and dp/dθ.
double ToTheta(ContactParameter p, double value) {
  return IsLogScaled(p) ? std::log(value) : value;
}
double FromTheta(ContactParameter p, double theta) {
  const auto [lo, hi] = ParameterBounds(p);
  return std::clamp(IsLogScaled(p) ? std::exp(theta) : theta, lo, hi);
}

// A change of the parameter a fit could plausibly make: a factor of 2 in log scale, 0.1 in μ,
// half of d or τ_d (at least 1 s/m, 1 ms).
double PlausibleChange(ContactParameter p, double value) {
  if (IsLogScaled(p)) return std::log(2.0);
  if (p == ContactParameter::kFriction) return 0.1;
  if (p == ContactParameter::kHuntCrossley) return std::max(0.5 * value, 1.0);
  return std::max(0.5 * value, 1e-3);
}

// ∂r/∂θ: the columns of ∂r/∂p times dp/dθ.
Eigen::MatrixXd ThetaJacobian(const Run& run, const std::vector<ContactParameter>& parameters,
                              const std::vector<double>& values) {
  Eigen::MatrixXd J = run.jacobian;
  for (size_t j = 0; j < parameters.size(); ++j) {
    if (IsLogScaled(parameters[j])) J.col(j) *= values[j];
  }
  return J;
}

void CheckIdentifiable(const Run& run, const CalibrationSpec& spec, CalibrationResult* result) {
  const Eigen::MatrixXd J = ThetaJacobian(run, spec.parameters, spec.initial);
  for (size_t j = 0; j < spec.parameters.size(); ++j) {
    const double change = PlausibleChange(spec.parameters[j], spec.initial[j]);
    const double rms = J.col(j).norm() * change / std::sqrt(J.rows());
    result->identified[j] = rms >= kIdentifiableRms_m;
    if (!result->identified[j]) {
      result->unidentified_reason[j] = fmt::format(
          "changing it by {:.3g}{} moves the fitted coordinates by {:.2g} m RMS (< {:.0g} m): the "
          "data cannot identify it; kept at its initial value",
          IsLogScaled(spec.parameters[j]) ? 2.0 : change,
          IsLogScaled(spec.parameters[j]) ? "×" : "", rms, kIdentifiableRms_m);
    }
  }
}

// One Levenberg–Marquardt step on the identified parameters: (JᵀJ + λ diag JᵀJ) δθ = −Jᵀr,
// shortened to the trust region.
std::vector<double> ProposeStep(const Run& run, const CalibrationResult& result,
                                const std::vector<double>& values, double lambda) {
  const Eigen::MatrixXd J = ThetaJacobian(run, result.parameters, values);
  const Eigen::MatrixXd JtJ = J.transpose() * J;
  Eigen::MatrixXd A = JtJ;
  Eigen::VectorXd g = J.transpose() * run.residual;
  for (size_t j = 0; j < values.size(); ++j) {
    A(j, j) += lambda * JtJ(j, j);
    if (!result.identified[j]) {  // held: a unit row and column, no step
      A.row(j).setZero();
      A.col(j).setZero();
      A(j, j) = 1;
      g[j] = 0;
    }
  }
  Eigen::VectorXd delta = -A.ldlt().solve(g);
  // A trust region of twice each parameter's plausible change per step: from a start a decade
  // off, the first quadratic models (far from the data) otherwise jump to a bound.
  double ratio = 1;
  for (size_t j = 0; j < values.size(); ++j) {
    const double limit = 2 * PlausibleChange(result.parameters[j], values[j]);
    ratio = std::max(ratio, std::abs(delta[j]) / limit);
  }
  delta /= ratio;
  std::vector<double> next = values;
  for (size_t j = 0; j < values.size(); ++j) {
    next[j] = FromTheta(result.parameters[j], ToTheta(result.parameters[j], values[j]) + delta[j]);
  }
  return next;
}

double MaxThetaChange(const std::vector<ContactParameter>& parameters,
                      const std::vector<double>& from, const std::vector<double>& to) {
  double change = 0;
  for (size_t j = 0; j < parameters.size(); ++j) {
    change =
        std::max(change, std::abs(ToTheta(parameters[j], to[j]) - ToTheta(parameters[j], from[j])));
  }
  return change;
}

// σ² (JᵀJ)⁻¹ over the identified parameters at the fit.
void EstimateUncertainty(const Run& run, CalibrationResult* result) {
  const int n = static_cast<int>(result->parameters.size());
  const Eigen::MatrixXd J = ThetaJacobian(run, result->parameters, result->fitted);
  Eigen::MatrixXd JtJ = J.transpose() * J;
  int identified = 0;
  for (int j = 0; j < n; ++j) {
    if (result->identified[j]) ++identified;
    if (result->identified[j]) continue;
    JtJ.row(j).setZero();
    JtJ.col(j).setZero();
    JtJ(j, j) = 1;
  }
  const double variance = run.residual.squaredNorm() / std::max(1.0, double(J.rows() - identified));
  const Eigen::MatrixXd covariance = variance * JtJ.inverse();
  for (int j = 0; j < n; ++j) {
    result->standard_deviation[j] =
        result->identified[j] ? std::sqrt(covariance(j, j)) : std::nan("");
  }
}

void FillTraces(const ReferenceLog& reference, const std::vector<Target>& targets,
                const std::vector<Sample>& samples, const Run& before, const Run& after,
                CalibrationResult* result) {
  for (size_t k = 0; k < targets.size(); ++k) {
    CalibrationTrace trace;
    trace.column = reference.columns[targets[k].column];
    for (size_t s = 0; s < samples.size(); ++s) {
      trace.time_s.push_back(reference.time_s[samples[s].row]);
      trace.reference.push_back(reference.values(samples[s].row, targets[k].column));
      trace.before.push_back(before.position(s, k));
      trace.after.push_back(after.position(s, k));
    }
    result->traces.push_back(std::move(trace));
  }
}

// docs/contact-model.md §10, one algorithm: Levenberg–Marquardt on the first `num_samples`
// samples from result->fitted, with the damping λ diag(JᵀJ) (Marquardt's scaling), λ ÷ 3 on an
// accepted step and × 4 on a rejected one. Converged when a step lowers the cost by less than
// 1e-10 of it or would move no θ by more than 1e-9 (a fit to noise-free data, whose cost falls to
// round-off, or λ grown at the minimum); otherwise it stops at the iteration cap.
bool FitHorizon(const std::function<Run(const std::vector<double>&, int)>& simulate,
                int num_samples, const CalibrationSpec& spec, const CalibrationProgress& progress,
                CalibrationResult* result, Run* current) {
  double lambda = 1e-3;
  for (int iteration = 0; iteration < spec.max_iterations; ++iteration) {
    ++result->iterations;
    const std::vector<double> proposal = ProposeStep(*current, *result, result->fitted, lambda);
    if (MaxThetaChange(spec.parameters, result->fitted, proposal) <= 1e-9) return true;
    Run trial = simulate(proposal, num_samples);
    const double cost = current->residual.squaredNorm();
    const double trial_cost = trial.residual.squaredNorm();
    if (trial_cost < cost) {
      result->fitted = proposal;
      *current = std::move(trial);
      lambda /= 3;
      if (progress) progress(result->iterations, Rms(current->residual), result->fitted);
      if (cost - trial_cost <= 1e-10 * cost) return true;
    } else {
      lambda *= 4;
    }
  }
  return false;
}

}  // namespace

// docs/contact-model.md §10: the fit over horizons that double from 1/32 of the window's rows
// (at least 20) to all of them, each started from the last's fit. A run that starts far off
// differs from the reference in kind (a box that sticks where it slid), and the whole window's
// local model cannot see the way back; its first part can.
CalibrationResult Calibrate(const SceneSpec& scene, const ReferenceLog& reference,
                            const CalibrationSpec& spec, const CalibrationProgress& progress) {
  const World probe(scene);
  if (spec.initial.size() != spec.parameters.size() ||
      (!spec.contact_pairs.empty() && spec.contact_pairs.size() != spec.parameters.size())) {
    throw std::invalid_argument(
        "calibrate: one initial value (and contact pair, if any) per fitted parameter");
  }
  for (size_t j = 0; j < spec.parameters.size(); ++j) {
    const int pair = PairOf(spec, j);
    if (pair >= static_cast<int>(scene.contact_pairs.size()) ||
        (pair >= 0 && spec.parameters[j] == ContactParameter::kStictionTolerance)) {
      throw std::invalid_argument(
          "calibrate: a pair parameter needs its scene contact_pairs "
          "entry (and the stiction tolerance is the scene's only)");
    }
  }
  for (size_t j = 0; j < spec.parameters.size(); ++j) {
    const ContactParameter p = spec.parameters[j];
    if (!UsesParameter(probe.approximation(), p)) {
      throw std::invalid_argument(fmt::format("calibrate: {}: {}", GlobalParameterOptionName(p),
                                              UnusedParameterReason(probe.approximation(), p)));
    }
    const auto [lo, hi] = ParameterBounds(p);
    if (!(spec.initial[j] >= lo && spec.initial[j] <= hi)) {
      throw std::invalid_argument(fmt::format("calibrate: the initial {} = {} is outside [{}, {}]",
                                              GlobalParameterOptionName(p), spec.initial[j], lo,
                                              hi));
    }
  }
  const std::vector<Target> targets = FindTargets(probe, reference, spec.bodies);
  const std::vector<Sample> samples = FindSamples(reference, probe.dt(), spec);
  const int num_samples = static_cast<int>(samples.size());
  auto simulate = [&](const std::vector<double>& values, int horizon) {
    const std::vector<Sample> first(samples.begin(), samples.begin() + horizon);
    return Simulate(scene, spec, values, reference, targets, first);
  };
  CalibrationResult result;
  const int n = static_cast<int>(spec.parameters.size());
  result.parameters = spec.parameters;
  result.initial = result.fitted = spec.initial;
  result.identified.assign(n, true);
  result.unidentified_reason.assign(n, "");
  result.standard_deviation.assign(n, std::nan(""));
  const Run initial = simulate(spec.initial, num_samples);
  CheckIdentifiable(initial, spec, &result);
  result.num_residuals = static_cast<int>(initial.residual.size());
  result.rms_before_m = Rms(initial.residual);
  if (progress) progress(0, result.rms_before_m, result.fitted);
  int horizon = std::min(num_samples, std::max(20, num_samples / 32));
  Run current = FirstSamples(initial, horizon, static_cast<int>(targets.size()));
  for (;;) {
    result.converged = FitHorizon(simulate, horizon, spec, progress, &result, &current);
    if (horizon == num_samples) break;
    horizon = std::min(num_samples, 2 * horizon);
    current = simulate(result.fitted, horizon);
  }
  result.rms_after_m = Rms(current.residual);
  EstimateUncertainty(current, &result);
  FillTraces(reference, targets, samples, initial, current, &result);
  return result;
}

}  // namespace contactlab
