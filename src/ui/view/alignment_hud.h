// The peg-in-hole HUD (issue 13, item 2): the task monitor's live values in a small overlay at
// the scene's top-left corner — height above the hole, lateral offset, tilt, insertion depth and
// whether the peg is in — for the operator who cannot judge them from the picture alone.
#pragma once

#include "app/runtime/snapshot.h"

namespace contactlab {

// Draws it when the snapshot has alignment aids and `shown`; (x, y) is its top-left corner.
void AlignmentHud(const Snapshot& snapshot, bool shown, float x, float y);

}  // namespace contactlab
