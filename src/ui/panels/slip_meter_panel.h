// The Slip meter section (issue 36; docs/architecture.md §5, The slip meter): how the selected
// body, or the scene's held object, moves in the hand's frame — the slip speed in µm/s and mm/s,
// the slip vector, whether it is held and how far it has crept since the grasp closed — and a
// live plot of the slip speed on a log scale. Everything comes from the snapshot's
// SlipMeterView (measured on the sim thread) and the lossless plot samples.
#pragma once

#include <string>
#include <vector>

#include "app/runtime/snapshot.h"
#include "ui/state/ui_state.h"
#include "ui/widgets/plot_data.h"

namespace contactlab {

// The plotted value of a slip speed [m/s]: log10 of it in µm/s, floored at −3 (1 nm/s) so that a
// body at rest draws a line at the bottom rather than −∞; NaN (no slip measured) stays NaN.
double SlipPlotValue(double slip_speed_m_per_s);

// "3.2 µm/s = 0.0032 mm/s", "12.5 mm/s = 12500 µm/s": the unit that suits the value first
// (µm/s below 1 mm/s, else mm/s), the other after it, three significant digits.
std::string SlipSpeedLabel(double speed_m_per_s);

// The section's text, one line each: which body in which frame, held or not, the slip speed,
// the slip vector in the hand frame, the rotation rate, and the creep since the grasp closed
// (path; net displacement and angle).
std::vector<std::string> SlipMeterLines(const Snapshot& snapshot);

// Content of the "Slip meter" section (DrawUi shows it while the snapshot's meter is active).
void SlipMeterPanel(const Snapshot& snapshot, const PlotData& plots, UiState* ui);

}  // namespace contactlab
