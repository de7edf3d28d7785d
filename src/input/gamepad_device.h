// Gamepad teleoperation: the GUI reads the pad through GLFW every frame (GLFW's joystick calls
// belong to the main thread) and hands the state to this device; the simulation thread polls it.
#pragma once

#include <mutex>
#include <string>

#include "input/gamepad_mapping.h"
#include "input/input_device.h"

namespace contactlab {

// Holds the latest GamepadState and the grip toggled by the A button. Hot-plug: while no pad is
// connected the twist is zero, the grip is held and Connected() is false (the UI warns); the
// first pad that appears takes over, and connects / disconnects are logged once each.
class GamepadDevice : public InputDevice {
 public:
  static constexpr const char* kNoGamepadStatus = "no gamepad connected (plug one in)";

  explicit GamepadDevice(GamepadConfig config = {});

  // Thread-safe. The grip toggles on the A button's press (a rising edge between two calls), so
  // holding it does not re-toggle; a disconnected state releases every button.
  void SetState(const GamepadState& state);

  TeleopCommand Poll(double t) override;
  std::string Status() const override;  // "gamepad: NAME" or kNoGamepadStatus
  std::string Name() const override { return "gamepad"; }
  bool Connected() const override;

  double grip() const;

 private:
  GamepadConfig config_;
  mutable std::mutex mutex_;
  GamepadState state_;
  double grip_ = 0.0;
};

}  // namespace contactlab
