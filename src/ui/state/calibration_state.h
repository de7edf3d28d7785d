// What the Calibrate window (ui/panels/calibrate_panel.h) keeps between frames, and the requests
// its buttons make. The fit itself runs on CalibrationWorker's thread, owned by the application's
// CalibrationSession (ui/calibration_session.h), which carries the requests out and copies the
// fit's progress and outcome in here every frame: the window only reads this state and asks.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/calibration/calibration.h"
#include "ui/widgets/plot_data.h"
#include "ui/widgets/plot_widget.h"

namespace contactlab {

// The global parameters a fit may take (docs/contact-model.md §9–§10), in the window's order.
inline constexpr ContactParameter kCalibratedParameters[] = {
    ContactParameter::kStiffness, ContactParameter::kHuntCrossley,
    ContactParameter::kRelaxationTime, ContactParameter::kFriction,
    ContactParameter::kStictionTolerance};
inline constexpr int kNumCalibrated = 5;

// A button of the window (a .csv dropped on the window is a kLoadLog too).
struct CalibrationRequest {
  enum class Kind { kLoadLog, kUseTimeline, kStart, kCancel, kAccept, kUndo };
  CalibrationRequest(Kind k = Kind::kLoadLog, std::string log = "")
      : kind(k), path(std::move(log)) {}
  Kind kind;
  std::string path;                          // kLoadLog: the reference log (the --log CSV)
  std::vector<ContactParameter> parameters;  // kStart: those checked that the model reads
  std::vector<double> initial;               // kStart: one per parameter
};

struct CalibrationPanelState {
  bool show = false;  // the window is open
  char log_path[512] = "";

  // The reference fitted to: a log file's, or the run's timeline with the settings it ran under
  // (the fit then runs under those; under the settings in force for a file).
  std::shared_ptr<const ReferenceLog> reference;
  std::optional<ContactSettings> reference_settings;
  std::string reference_label;  // what it is: the file or the timeline, rows and times

  // Per kCalibratedParameters entry: fitted or not, and the initial value, which follows the
  // settings in force (or the selected body's own value) until the user types one.
  std::array<bool, kNumCalibrated> fit = {true, false, false, true, false};
  std::array<double, kNumCalibrated> initial{};
  std::array<bool, kNumCalibrated> initial_typed{};

  // The fit under way (CalibrationWorker::busy) and its newest iteration, as a line.
  bool running = false, cancelling = false;
  std::string progress;
  std::string error;   // the last request's failure (red; a toast too), "" if none
  std::string status;  // the last outcome or action ("fitted in 12 iterations", "cancelled")

  // The last fit's outcome: the table, and one fitted coordinate's plot (trace plot_trace of
  // result->traces: reference, before and after the fit).
  std::optional<CalibrationResult> result;
  int plot_trace = 0;
  PlotData plot{{"reference", "before", "after"}, 1};
  PlotTimeWindow plot_window;
  PlotViewState plot_view;

  // Accept's undo: the change that restores the values in force before it.
  std::optional<ContactOverrides> undo;
};

}  // namespace contactlab
