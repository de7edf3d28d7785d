#include "app/calibration/calibration_worker.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <utility>

namespace contactlab {

CalibrationWorker::~CalibrationWorker() {
  Cancel();
  Wait();
}

bool CalibrationWorker::Start(CalibrationJob job) {
  if (busy()) return false;
  cancel_.store(false, std::memory_order_relaxed);
  {
    std::lock_guard lock(mu_);
    progress_ = {};
    outcome_.reset();
  }
  thread_ = std::thread([this, job = std::move(job)]() mutable { Run(std::move(job)); });
  return true;
}

void CalibrationWorker::Cancel() { cancel_.store(true, std::memory_order_relaxed); }

CalibrationProgressReport CalibrationWorker::progress() const {
  std::lock_guard lock(mu_);
  return progress_;
}

std::optional<CalibrationOutcome> CalibrationWorker::TakeOutcome() {
  std::optional<CalibrationOutcome> taken;
  {
    std::lock_guard lock(mu_);
    taken.swap(outcome_);
  }
  // The outcome is the thread's last act: with it taken, the join returns at once.
  if (taken && thread_.joinable()) thread_.join();
  return taken;
}

void CalibrationWorker::Wait() {
  if (thread_.joinable()) thread_.join();
}

void CalibrationWorker::Run(CalibrationJob job) {
  job.spec.cancel = [this] { return cancel_.load(std::memory_order_relaxed); };
  const auto report = [this](int iteration, double rms_m, const std::vector<double>& values) {
    std::lock_guard lock(mu_);
    progress_ = {iteration, rms_m, values};
  };
  CalibrationOutcome outcome;
  try {
    SceneSpec scene = *job.scene;  // here, not on the render thread: a scene may be large
    scene.contact_settings = job.settings;
    outcome.result = Calibrate(scene, *job.reference, job.spec, report);
    outcome.kind = CalibrationOutcome::Kind::kFitted;
    spdlog::info("calibrate: {} iterations, RMS error {:.4g} m before, {:.4g} m after",
                 outcome.result.iterations, outcome.result.rms_before_m,
                 outcome.result.rms_after_m);
  } catch (const CalibrationCancelled&) {
    outcome.kind = CalibrationOutcome::Kind::kCancelled;
    spdlog::info("calibrate: cancelled");
  } catch (const std::exception& e) {
    outcome.error = e.what();
    spdlog::warn("calibrate: {}", outcome.error);
  }
  std::lock_guard lock(mu_);
  outcome_ = std::move(outcome);
}

}  // namespace contactlab
