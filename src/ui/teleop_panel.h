// Teleoperation in the GUI (issue 4): the panel (device status, sensitivity, command frame, grip
// force, reset task, IK state) and the key feed that turns the held keys into the keyboard
// device's state every frame.
#pragma once

#include <memory>

#include "app/snapshot.h"
#include "input/keyboard_device.h"
#include "ui/actions.h"
#include "ui/ui_state.h"

namespace contactlab {

// Content of the "Teleoperation" section (DrawUi shows it for scenes with a robot arm).
void TeleopPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions);

// The GLFW keys that produce a KeyboardDevice key name ("W", "Space", "+", "-", "Shift").
// Returns the number written to keys (at most 2: e.g. '=' and keypad '+' for "+").
int GlfwKeysForName(const char* key_name, int keys[2]);

// Every frame: the state of each teleoperation key (held, or pressed and released within the
// frame) goes to the keyboard device; while Dear ImGui has the keyboard (typing into a field)
// or the window is not focused, every key is released so none sticks.
void FeedTeleopKeys(bool teleop_active, KeyboardDevice* keyboard);

}  // namespace contactlab
