// The contact model panel: the approximation and the contact settings a user changes live
// (docs/contact-model.md §2, §6), and the time step row the simulation panel shows. The rows
// show the settings in force (ShownContactSettings) and post a ContactOverrides per change.
#pragma once

#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/state/ui_state.h"

namespace contactlab {

// The contact settings the panels show: those the UI last posted (UiState::posted_settings)
// until a snapshot has them in force (the sim thread applies a change between steps), and then
// the snapshot's.
const ContactSettings& ShownContactSettings(const Snapshot& snapshot, UiState* ui);

// Posts a change to the contact settings, shown at once. A change the runtime will reject is
// posted (for its error message) but not shown.
void PostContactChange(const ContactOverrides& change, const Snapshot& snapshot, UiState* ui,
                       UiActions* actions);

void ContactModelPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions);
// δt, live (applied between steps): a logarithmic slider with a reset to the scene's value.
void TimeStepRow(const Snapshot& snapshot, UiState* ui, UiActions* actions);

}  // namespace contactlab
