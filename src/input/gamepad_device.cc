#include "input/gamepad_device.h"

#include <spdlog/spdlog.h>

namespace contactlab {

GamepadDevice::GamepadDevice(GamepadConfig config) : config_(config) {}

void GamepadDevice::SetState(const GamepadState& state) {
  std::lock_guard lock(mutex_);
  if (state.connected != state_.connected) {
    if (state.connected) {
      spdlog::info("gamepad connected: {}", state.name);
    } else {
      spdlog::warn("gamepad disconnected; the twist is zero until one is plugged in");
    }
  }
  GamepadState next = state;
  if (!next.connected) next.buttons.fill(false);  // a pad unplugged mid-press presses nothing
  const bool a_pressed = next.buttons[GamepadState::kA] && !state_.buttons[GamepadState::kA];
  if (a_pressed) grip_ = grip_ >= 0.5 ? 0.0 : 1.0;
  state_ = std::move(next);
}

TeleopCommand GamepadDevice::Poll(double t) {
  std::lock_guard lock(mutex_);
  TeleopCommand c;
  c.t = t;
  c.frame = config_.frame;
  c.grip = grip_;
  GamepadToTwist(state_, config_, &c);
  return c;
}

std::string GamepadDevice::Status() const {
  std::lock_guard lock(mutex_);
  if (!state_.connected) return kNoGamepadStatus;
  return "gamepad: " + (state_.name.empty() ? std::string("unnamed") : state_.name) +
         (state_.buttons[GamepadState::kB] ? " (fine)" : "");
}

bool GamepadDevice::Connected() const {
  std::lock_guard lock(mutex_);
  return state_.connected;
}

double GamepadDevice::grip() const {
  std::lock_guard lock(mutex_);
  return grip_;
}

}  // namespace contactlab
