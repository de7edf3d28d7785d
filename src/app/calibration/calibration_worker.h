// A fit (Calibrate, docs/contact-model.md §10) on a thread of its own, one at a time: the GUI's
// Calibrate panel runs its fits here, never on the sim thread, whose steps a fit of seconds would
// stall, nor on the render thread, which never waits for a solve (docs/architecture.md §4). The
// render thread starts a fit, reads its progress and takes its outcome, each under a short lock;
// Cancel never waits: the fit stops before its next step (CalibrationSpec::cancel), and its thread
// is joined once it has ended.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/calibration/calibration.h"

namespace contactlab {

struct CalibrationJob {
  std::shared_ptr<const SceneSpec> scene;  // shared with the snapshots; copied on the worker
  ContactSettings settings;                // the settings the fitted runs start from
  std::shared_ptr<const ReferenceLog> reference;
  CalibrationSpec spec;  // its cancel is the worker's
};

// The fit's newest iteration (CalibrationProgress): none yet while iteration < 0.
struct CalibrationProgressReport {
  int iteration = -1;
  double rms_m = 0;
  std::vector<double> values;  // one per CalibrationSpec::parameters
};

struct CalibrationOutcome {
  enum class Kind { kFitted, kFailed, kCancelled };
  Kind kind = Kind::kFailed;
  CalibrationResult result;  // kFitted
  std::string error;         // kFailed: Calibrate's one line
};

class CalibrationWorker {
 public:
  CalibrationWorker() = default;
  ~CalibrationWorker();  // cancels a fit under way and joins its thread (within one step)
  CalibrationWorker(const CalibrationWorker&) = delete;
  CalibrationWorker& operator=(const CalibrationWorker&) = delete;

  // Starts `job` on a new thread; false (nothing started) while the last fit's thread is busy.
  bool Start(CalibrationJob job);
  // Asks the fit under way to stop before its next step: its outcome is then kCancelled.
  void Cancel();
  // A fit's thread exists: under way, or ended with an outcome not yet taken.
  bool busy() const { return thread_.joinable(); }
  bool cancelling() const { return busy() && cancel_.load(std::memory_order_relaxed); }
  CalibrationProgressReport progress() const;
  // The outcome of a fit that has ended, once (its thread joined, which has ended: no wait);
  // nullopt while it runs or when none was started.
  std::optional<CalibrationOutcome> TakeOutcome();
  // Blocks until the fit under way has ended (tests; the GUI never waits).
  void Wait();

 private:
  void Run(CalibrationJob job);

  std::thread thread_;  // the owner's thread only
  std::atomic<bool> cancel_{false};
  mutable std::mutex mu_;  // guards the fields below, written by the fit's thread
  CalibrationProgressReport progress_;
  std::optional<CalibrationOutcome> outcome_;
};

}  // namespace contactlab
