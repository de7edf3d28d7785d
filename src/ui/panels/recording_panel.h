// Recording and replaying teleoperation in the window (issue 13, item 4): record from a reset to
// a replay CSV (the file `--headless --input replay:FILE` reproduces bit for bit), stop, and
// play a replay file from a reset with a progress bar.
#pragma once

#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/state/ui_state.h"

namespace contactlab {

void RecordingPanel(const Snapshot& snapshot, RecordingPanelState* state, UiActions* actions);

}  // namespace contactlab
