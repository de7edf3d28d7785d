// Recording and replaying teleoperation in the window (issue 13, item 4): record from a reset to
// a replay CSV (the file `--headless --input replay:FILE` reproduces bit for bit), stop, and
// play a replay file from a reset with a progress bar.
#pragma once

#include "app/snapshot.h"
#include "ui/actions.h"

namespace contactlab {

struct RecordingPanelState {
  char record_path[512] = "";  // empty: contactlab_teleop_DATE_TIME.csv in the working dir
  char replay_path[512] = "";
};

void RecordingPanel(const Snapshot& snapshot, RecordingPanelState* state, UiActions* actions);

}  // namespace contactlab
