// Teleoperation in the GUI (issue 4): the panel (device status, sensitivity, command frame, grip
// force, reset task, IK state) and the key feed that turns the held keys into the keyboard
// device's state every frame.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "app/runtime/snapshot.h"
#include "input/keyboard_device.h"
#include "ui/state/actions.h"
#include "ui/state/key_events.h"
#include "ui/state/ui_state.h"

namespace contactlab {

// Content of the "Teleoperation" section (DrawUi shows it for scenes with a robot arm).
void TeleopPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions);
// The grip line of the panel: the grip applied, whether it is the scene's (latched), and what
// the next Space press does ("grip closed (scene's)   Space: open").
std::string GripStateLabel(double grip, bool latched);
// The grip-force program's line: "program: square wave 1-16 N, 6 s, 75 %", and " - overridden"
// once the slider has set the force.
std::string GripProgramLine(const std::string& program, bool followed);

// The GLFW keys that produce a KeyboardDevice key name ("W", "Space", "+", "-", "Shift").
// Returns the number written to keys (at most 2: e.g. '=' and keypad '+' for "+").
int GlfwKeysForName(const char* key_name, int keys[2]);

// Every frame: the frame's key events, in order and with their stamps, are handed over to the
// keyboard device (a press and release within one frame toggles the grip, or moves one jog
// step), known until `known_until_s`, the start of the frame's event poll `poll`; while Dear
// ImGui has the keyboard (typing into a field), a modifier other than Shift is held or the scene
// has no arm, every key is released so none sticks. (GLFW itself releases the held keys when the
// window loses focus.)
void FeedTeleopKeys(bool teleop_active, std::span<const KeyEvent> events, double known_until_s,
                    int64_t poll, KeyboardDevice* keyboard);

}  // namespace contactlab
