// Recording and replaying teleoperation in the window (issue 13, item 4): record from a reset to
// a replay CSV (the file `--headless --input replay:FILE` reproduces bit for bit), stop, and
// play a replay file from a reset with a progress bar. Recordings without a path go to the
// output folder (io/output_folder.h); Play offers the latest one and lists the others (issue 35,
// item 5).
#pragma once

#include <string>

#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/state/toast_queue.h"
#include "ui/state/ui_state.h"

namespace contactlab {

void RecordingPanel(const Snapshot& snapshot, RecordingPanelState* state, FilesState* files,
                    UiActions* actions);

// Lists the recordings (teleoperation CSVs) of `output_dir` into state->recordings, newest
// first, and offers the newest to Play when its path is empty.
void ListRecordings(const std::string& output_dir, RecordingPanelState* state);

// What Play plays: the path field's file; or, when it is empty, "" with state->message saying
// why nothing plays (no recordings yet, or none chosen).
std::string PlayPath(const std::string& output_dir, RecordingPanelState* state);

// Every frame, with the newest snapshot's recording view: when a recording the window made has
// ended (Stop, Play, a new Record), its file is offered to Play, the list is read again and a
// toast names the file.
void WatchRecording(const RecordingView& recording, RecordingPanelState* state, ToastQueue* toasts);

}  // namespace contactlab
