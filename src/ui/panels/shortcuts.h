// Keyboard shortcuts: the table the help panel shows and the handler that applies them.
#pragma once

#include <span>

#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/state/ui_state.h"

namespace contactlab {

struct Shortcut {
  const char* keys;
  const char* action;
};
std::span<const Shortcut> Shortcuts();

// Applies this frame's key presses (nothing while Dear ImGui wants the keyboard, e.g. while
// typing a path).
void HandleShortcuts(const Snapshot& snapshot, UiState* ui, UiActions* actions);

// Toggles following the plot body with the camera.
void ToggleFollow(UiState* ui);

}  // namespace contactlab
