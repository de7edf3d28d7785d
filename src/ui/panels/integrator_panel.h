// The Solver panel's time integration (docs/contact-model.md §1.1–§1.2): the integrator
// (symplectic Euler, implicit Euler, midpoint, the θ-method with its two weights, or error
// control with its accuracy), posted as ContactOverrides{.integrator} like the other live
// settings; and under error control how it went: the step size over time (log scale), the
// steps accepted and the attempts rejected, the error estimate against the accuracy asked and
// the body that drove it.
#pragma once

#include "app/runtime/snapshot.h"
#include "engine/solver/time_integration.h"
#include "ui/state/actions.h"
#include "ui/state/ui_state.h"

namespace contactlab {

// The integrators in the order of every combo that offers them; the θ-method's weights and
// error control's accuracy come from the rows below the combo (IntegratorChoice).
inline constexpr const char* kIntegratorLabels[] = {"symplectic Euler", "implicit Euler",
                                                    "midpoint", "theta-method", "error controlled"};
// The index of `integration` in kIntegratorLabels.
int IntegratorIndex(const TimeIntegration& integration);
// The integrator of choice `index`, keeping `current`'s θ weights (the θ-method; the named
// members fix them) and accuracy.
TimeIntegration IntegratorChoice(int index, const TimeIntegration& current);

// The integrator combo, the θ sliders and the accuracy slider (log scale, 1e-6 … 1e-1).
void IntegratorRows(const Snapshot& snapshot, UiState* ui, UiActions* actions);
// Under error control, or once its history has steps: counts, the error against the accuracy
// and the step-size plot.
void StepSizeReadout(const Snapshot& snapshot, UiState* ui);

}  // namespace contactlab
