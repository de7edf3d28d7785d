#include "ui/gamepad_feed.h"

#include <GLFW/glfw3.h>

#include "input/event_clock.h"

static_assert(GLFW_GAMEPAD_AXIS_LAST + 1 == contactlab::GamepadState::kAxisCount);
static_assert(GLFW_GAMEPAD_BUTTON_LAST + 1 == contactlab::GamepadState::kButtonCount);

namespace contactlab {

GamepadState ReadGlfwGamepad() {
  GamepadState state;
  for (int jid = GLFW_JOYSTICK_1; jid <= GLFW_JOYSTICK_LAST; ++jid) {
    GLFWgamepadstate raw;
    if (!glfwJoystickIsGamepad(jid) || !glfwGetGamepadState(jid, &raw)) continue;
    for (int a = 0; a < GamepadState::kAxisCount; ++a) state.axes[a] = raw.axes[a];
    for (int b = 0; b < GamepadState::kButtonCount; ++b) {
      state.buttons[b] = raw.buttons[b] == GLFW_PRESS;
    }
    const char* name = glfwGetGamepadName(jid);
    state.name = name != nullptr ? name : "";
    state.connected = true;
    break;
  }
  return state;
}

void FeedGamepad(GamepadDevice* gamepad, int64_t poll) {
  if (gamepad == nullptr) return;
  const GamepadState state = ReadGlfwGamepad();
  gamepad->SetState(state, SteadyClockSeconds(), poll);
}

}  // namespace contactlab
