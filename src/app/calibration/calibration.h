// Fitting contact parameters to a recorded trajectory (docs/contact-model.md §10): Levenberg–
// Marquardt on the positions' error, its Jacobian from the trajectory's forward sensitivities
// (engine/world/trajectory_sensitivity.h). Stiffness and stiction tolerance are fitted in log
// scale, μ, d and τ_d linearly; all within bounds. A parameter that the data cannot identify
// (moving it over a plausible range moves the trajectory by less than 0.1 µm RMS) is reported
// and kept at its initial value, not fitted to noise.
#pragma once

#include <exception>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "app/calibration/reference_log.h"
#include "engine/world/step_derivatives.h"
#include "engine/world/world.h"

namespace contactlab {

// Sets a run's inputs before each of its steps (e.g. teleoperation replayed, teleop_driver.h).
using StepDriver = std::function<void(World*)>;

struct CalibrationSpec {
  std::vector<ContactParameter> parameters;
  // Initial values, one per parameter (global values: docs/contact-model.md §9).
  std::vector<double> initial;
  // Per parameter, the scene's contact_pairs entry it belongs to (−1: global); empty: all
  // global. A pair's value is fitted in that entry (§6).
  std::vector<int> contact_pairs;
  // Bodies whose reference columns are fitted (`<body>.px/.py/.pz` of a floating body,
  // `<body>.q` of a 1-dof joint); empty: every body the reference has columns for.
  std::vector<std::string> bodies;
  double window_start_s = 0;  // residuals from these rows only; the run starts at t = 0
  double window_end_s = std::numeric_limits<double>::infinity();
  int max_iterations = 30;  // per horizon (docs/contact-model.md §10)
  // A driver for each run, made for its World at t = 0; empty: the scene's own inputs. Its inputs
  // must not depend on the parameters (the sensitivities carry no term through them).
  std::function<StepDriver(const World&)> make_driver;
  // Asked before every step of every run (an iteration is one run or more, seconds for a long
  // reference): true stops the fit, and Calibrate throws CalibrationCancelled. The GUI's Cancel
  // then ends its fit within a step; empty (the command line): never.
  std::function<bool()> cancel;
};

// Thrown by Calibrate when CalibrationSpec::cancel asked it to stop.
class CalibrationCancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "calibration cancelled"; }
};

// One fitted coordinate's trajectories, for the plot.
struct CalibrationTrace {
  std::string column;  // the reference column, e.g. "box.px"
  std::vector<double> time_s, reference, before, after;
};

struct CalibrationResult {
  std::vector<ContactParameter> parameters;
  std::vector<double> initial, fitted;
  // One standard deviation from σ² (JᵀJ)⁻¹ at the fit, σ² the residual's variance: relative for
  // the log-scaled parameters (k, v_s), absolute for the others; NaN if not identified.
  std::vector<double> standard_deviation;
  std::vector<bool> identified;
  std::vector<std::string> unidentified_reason;  // "" when identified
  double rms_before_m = 0, rms_after_m = 0;
  int iterations = 0, num_residuals = 0;
  bool converged = false;
  std::vector<CalibrationTrace> traces;
};

// Per iteration: its number, the RMS error and the parameters.
using CalibrationProgress = std::function<void(int, double, const std::vector<double>&)>;

// Throws std::invalid_argument with one line when the reference does not match the scene (no
// column of a fitted body, an unknown body, rows off the scene's δt grid, an empty window), for a
// parameter the scene's approximation does not read, or a step that cannot be differentiated;
// std::runtime_error when a run fails; CalibrationCancelled when spec.cancel says so.
CalibrationResult Calibrate(const SceneSpec& scene, const ReferenceLog& reference,
                            const CalibrationSpec& spec, const CalibrationProgress& progress = {});

// Whether the parameter is fitted in log scale, and its bounds.
bool IsLogScaled(ContactParameter parameter);
std::pair<double, double> ParameterBounds(ContactParameter parameter);

}  // namespace contactlab
