// The Calibrate window (issue 39; docs/contact-model.md §10): fits global contact parameters to a
// reference — a log file, or the run's own timeline — from initial values the settings in force
// give, shows the fit's progress with a Cancel button, then the table of the fit (initial, fitted,
// one standard deviation, identified and why not) and a plot of one coordinate: the reference
// against the runs before and after the fit. Accept moves the contact model's sliders to the
// fitted values; Undo moves them back. The Contact model section's "Calibrate..." opens it. It
// asks (UiActions::calibrate); the application's CalibrationSession does the work.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "app/calibration/calibration_worker.h"
#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/state/ui_state.h"

namespace contactlab {

void CalibrateWindow(const Snapshot& snapshot, float display_w, float display_h, UiState* ui,
                     UiActions* actions);

// A parameter as the window names it: "k [N/m]", "mu", ...; and without its unit: "k", "mu".
const char* CalibratedParameterLabel(ContactParameter parameter);
const char* CalibratedParameterSymbol(ContactParameter parameter);

// The initial value the window offers for `parameter`: the global value of `settings` (the
// settings in force), or, for a pair property without one, the value of `body`'s first geometry
// (the selected body; docs/contact-model.md §6), else the scene's representative value.
double OfferedInitialValue(ContactParameter parameter, const ContactSettings& settings,
                           const SceneSpec& scene, int body, const SceneDefaults& defaults);

// The progress line: "iteration 4: RMS error 1.23e-03 m; k 3.1e+05, mu 0.52".
std::string CalibrationProgressLine(const CalibrationProgressReport& progress,
                                    const std::vector<ContactParameter>& parameters);

// The table as shown, one row per parameter: its label, initial, fitted, one standard deviation
// (a percentage for the log-scaled k and v_s; "-" when not identified) and "yes" / "no".
std::vector<std::array<std::string, 5>> CalibrationTable(const CalibrationResult& result);
// "RMS error 1.2e-02 m before, 3.4e-08 m after; 27 iterations" (and the cap, if reached).
std::string CalibrationSummary(const CalibrationResult& result);

// Puts trace `i` of the result into the window's plot (reference, before, after), the whole fitted
// time span in view.
void ShowCalibrationTrace(int i, CalibrationPanelState* state);
// The first trace whose reference moves (a coordinate still to round-off would plot its noise),
// else 0.
int FirstMovingTrace(const CalibrationResult& result);

}  // namespace contactlab
