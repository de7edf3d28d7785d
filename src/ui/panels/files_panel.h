// The Files panel: the output folder the GUI saves into (io/output_folder.h), a field to choose
// another (kept in the GUI settings), and a screenshot button (F12).
#pragma once

#include "ui/state/actions.h"
#include "ui/state/ui_state.h"

namespace contactlab {

void FilesPanel(FilesState* files, UiActions* actions);

}  // namespace contactlab
