// The Calibrate window's work (docs/architecture.md §4, The GUI's frame): its requests carried
// out, and a fit's progress and outcome copied into the window's state every frame. Nothing here
// waits on another thread: a log file is read on the render thread, as a scene file is; the run's
// timeline is copied by the sim thread between steps (command::ExportRecordedRun) and taken from
// its mailbox when it has come (SimRuntime::TakeRecordedRun); a fit runs on CalibrationWorker's
// thread, one at a time. Accept and Undo post a ContactOverrides as the sliders do
// (PostContactChange), validated by ApplyOverrides first. A new scene cancels the fit under way
// and discards it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/calibration/calibration_worker.h"
#include "app/runtime/recorded_run.h"
#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/state/ui_state.h"

namespace contactlab {

class CalibrationSession {
 public:
  // A request of the window (or a .csv dropped on it): a failure is the window's red line and an
  // error toast, and the state before it is kept. Commands for the sim thread go into `actions`.
  void Handle(const CalibrationRequest& request, const Snapshot& snapshot, UiState* ui,
              UiActions* actions);
  // Every frame: the timeline's copy, if it came (the one asked for last, of the scene shown,
  // `scene_generation`; others are dropped), then the fit's progress and, once it has ended, its
  // outcome.
  void Update(std::optional<RecordedRun> run, uint64_t scene_generation, UiState* ui);
  // A new scene: the fit under way is cancelled and its outcome discarded; a timeline's
  // reference, the table and Undo belonged to the old scene.
  void OnNewScene(UiState* ui);

  // A copy of the timeline asked for and not yet come.
  bool awaiting_run() const { return awaited_request_.has_value(); }
  // Tests: blocks until the fit under way has ended (its outcome shows at the next Update).
  void WaitForFit() { worker_.Wait(); }

 private:
  void LoadLog(const std::string& path, UiState* ui);
  void Start(const CalibrationRequest& request, const Snapshot& snapshot, UiState* ui);
  void Accept(const Snapshot& snapshot, UiState* ui, UiActions* actions);
  void UseRun(const RecordedRun& run, UiState* ui);
  void TakeOutcome(UiState* ui);

  CalibrationWorker worker_;
  std::vector<ContactParameter> fitting_;  // the parameters of the fit under way
  bool discard_ = false;                   // its outcome is the old scene's
  uint64_t requests_ = 0;                  // timeline copies asked for
  std::optional<uint64_t> awaited_request_;
};

}  // namespace contactlab
