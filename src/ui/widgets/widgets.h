// The pieces the panels are built of: their text colours, the approximation choices, a slider
// over decades, and the contact parameters' rows with their tooltips.
#pragma once

#include <imgui.h>

#include <iterator>

#include "engine/solver/contact_parameters.h"

namespace contactlab {

// Text colours.
inline const ImVec4 kDimColor(0.65f, 0.65f, 0.7f, 1.0f);    // hints, secondary information
inline const ImVec4 kWarnColor(1.0f, 0.75f, 0.3f, 1.0f);    // paused, behind, at a limit
inline const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);   // a failed action
inline const ImVec4 kGoodColor(0.45f, 0.85f, 0.45f, 1.0f);  // working as it should

// The approximations in the order of every combo that offers them (the main run's and the
// ghost's), with their labels: the convex ones, then the rigid model (docs/contact-model.md §8;
// ASCII, the default font has no en dash).
inline constexpr const char* kApproximationLabels[] = {"SAP", "Lagged", "Similar",
                                                       "Regularized Lagged", "Drumwright-Shell"};
inline constexpr ContactApproximation kApproximationChoices[] = {
    ContactApproximation::kSap, ContactApproximation::kLagged, ContactApproximation::kSimilar,
    ContactApproximation::kRegularizedLagged, ContactApproximation::kDrumwrightShell};
static_assert(std::size(kApproximationLabels) == std::size(kApproximationChoices));
// The label of `a` in those combos (its command-line name if it is in none).
const char* ApproximationLabel(ContactApproximation a);

// The width a combo needs to show `preview` in full, its arrow button included: a combo at least
// this wide never cuts its choice off (one wider than its panel shows as such, and the panels'
// layout test finds it).
float ComboWidthFor(const char* preview);

// A slider over log10 of a positive value spanning decades (values ≤ 0 show at the left end);
// right-click or double-click types a value (into *edit_buffer while the editor is open).
// Returns true when the value changed.
bool LogSlider(const char* id, double* value, double min, double max, double* edit_buffer);

// A tooltip for the last item (a group of widgets), shown also while it is disabled: what the
// parameter is physically and, when the active approximation does not read it, why
// (`unused_reason`; empty when it is read).
void ParameterTooltip(const char* help, const char* unused_reason);

// A labelled row: slider (live; over decades when `logarithmic`), and a reset button when the
// value differs from the scene's or an override is in force (`overridden`). Returns true when
// the user changed the value (`*value` holds the new one); *reset tells whether reset was
// pressed.
bool ParameterRow(const char* label, const char* id, double* value, double scene_value, double min,
                  double max, const char* format, bool logarithmic, bool overridden, bool* reset,
                  double* edit_buffer);

}  // namespace contactlab
