// Gamepad teleoperation: the GUI reads the pad through GLFW every frame (GLFW's joystick calls
// belong to the main thread) and hands the state to this device, stamped with the time it read
// it; the simulation thread polls it. The sticks and triggers are velocities; the shoulder
// buttons (±z) are buttons in time, as the keyboard's keys: a tap moves one jog step, a hold
// moves at the speed for as long as it was held (input/button_motion.h).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "input/button_motion.h"
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

  // Thread-safe. The state read at t_s (on GamepadConfig::clock) by the GUI's poll number `poll`
  // (−1: t_s is exact): button edges between two states happen at t_s. The grip toggles on the A
  // button's press (a rising edge between two calls), so holding it does not re-toggle; a
  // disconnected state releases every button.
  void SetState(const GamepadState& state, double t_s, int64_t poll = -1);
  void SetState(const GamepadState& state);  // read now
  // Motion not yet executed is dropped (the arm's targets were set anew: a reset, a new scene).
  void RestartMotion();
  // The speeds the commands are clamped to downstream (ButtonMotion::SetSpeedLimits).
  void SetSpeedLimits(double linear_m_per_s, double angular_rad_per_s);

  TeleopCommand Poll(double t) override { return PollStep(t, 0); }
  // The shoulder buttons' motion over the step [t, t + h] (ButtonMotion::Poll's coming step).
  TeleopCommand PollStep(double t, double h) override;
  std::string Status() const override;  // "gamepad: NAME" or kNoGamepadStatus
  std::string Name() const override { return "gamepad"; }
  bool Connected() const override;

  double grip() const;

 private:
  GamepadConfig config_;
  mutable std::mutex mutex_;
  GamepadState state_;
  double grip_ = 0.0;
  ButtonMotion bumpers_;
};

}  // namespace contactlab
