// Reads the gamepad through GLFW's gamepad API (standard mapping) on the main thread, where GLFW
// allows joystick calls, and hands the state to the GamepadDevice the simulation thread polls.
#pragma once

#include <cstdint>

#include "input/gamepad_device.h"

namespace contactlab {

// The first joystick GLFW knows a standard mapping for, as a GamepadState; connected = false
// (all zero) when there is none. Polling every frame is what makes hot-plug work: GLFW notices
// pads arriving and leaving when it is asked.
GamepadState ReadGlfwGamepad();

// Every frame: ReadGlfwGamepad into the device (no-op without a device), stamped with the time
// it was read (the event clock) and the window's event poll `poll` of the frame, so that the
// shoulder buttons' edges are timed as the keys' are. Unlike the keyboard the pad keeps working
// while ImGui has the keyboard or the window is not focused: it is a separate device the
// operator holds.
void FeedGamepad(GamepadDevice* gamepad, int64_t poll);

}  // namespace contactlab
