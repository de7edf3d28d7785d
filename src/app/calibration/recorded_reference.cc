#include "app/calibration/recorded_reference.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <stdexcept>

namespace contactlab {
namespace {

// Calibrate's runs take fixed steps of δt from t = 0, and compare the state after step n with the
// reference at n·δt (FindSamples, to 1e-6 δt): record i must start at i·δt.
void CheckTimeGrid(const RecordedRun& run) {
  const double dt = run.settings.dt_s;
  if (run.settings.integrator.scheme == TimeIntegration::Scheme::kErrorControlled) {
    throw std::invalid_argument(
        "the run was error-controlled: its steps are off the dt grid (docs/contact-model.md "
        "§1.2), and a fit takes fixed steps; choose a fixed-step integrator, reset and run again");
  }
  if (run.time_s.front() != 0) {
    throw std::invalid_argument(fmt::format(
        "the timeline starts at t = {:.6g} s, not at 0 (it keeps only the newest steps): a fit "
        "replays the scene from its initial state; reset and run for less",
        run.time_s.front()));
  }
  for (size_t i = 1; i < run.time_s.size(); ++i) {
    if (std::abs(run.time_s[i] - static_cast<double>(i) * dt) > 1e-6 * dt) {
      throw std::invalid_argument(fmt::format(
          "t = {:.9g} s is off the run's dt grid (dt = {:.6g} s): a fit takes fixed steps of dt "
          "from t = 0",
          run.time_s[i], dt));
    }
  }
}

}  // namespace

ReferenceLog ReferenceFromRecordedRun(const RecordedRun& run) {
  if (run.time_s.size() < 2) {
    throw std::invalid_argument("the timeline holds no step yet: run the scene first");
  }
  CheckTimeGrid(run);
  if (!std::isnan(run.settings_changed_s)) {
    throw std::invalid_argument(fmt::format(
        "the contact settings changed at t = {:.6g} s: a fit replays one run under one set of "
        "settings; reset and run again",
        run.settings_changed_s));
  }
  if (!std::isnan(run.driven_s)) {
    throw std::invalid_argument(fmt::format(
        "the run was driven from t = {:.6g} s (teleoperation, a joint program or the mouse "
        "spring): a fit replays the scene without inputs",
        run.driven_s));
  }
  if (run.columns.empty()) {
    throw std::invalid_argument(
        "the scene has no floating body and no 1-dof joint: nothing to fit to");
  }
  ReferenceLog log;
  log.source = kRecordedRunSource;
  log.columns.push_back("t");
  log.columns.insert(log.columns.end(), run.columns.begin(), run.columns.end());
  const Eigen::Index rows = static_cast<Eigen::Index>(run.time_s.size()) - 1;
  log.values.resize(rows, static_cast<Eigen::Index>(log.columns.size()));
  for (Eigen::Index r = 0; r < rows; ++r) {
    log.time_s.push_back(run.time_s[r + 1]);
    log.values(r, 0) = run.time_s[r + 1];
    log.values.row(r).tail(run.values.cols()) = run.values.row(r + 1);
  }
  return log;
}

}  // namespace contactlab
