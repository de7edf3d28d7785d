// Turns a gamepad's state (GLFW's standard mapping) into a twist: dead zone, expo curve, axis
// signs, fine mode. Pure functions, no I/O: the GUI reads the gamepad. The shoulder buttons (z)
// are buttons in time, not axes: GamepadDevice moves them a jog step a tap, at the speed held.
#pragma once

#include <array>
#include <string>

#include "input/event_clock.h"
#include "input/twist_command.h"

namespace contactlab {

// A plain copy of GLFWgamepadstate (input/ does not depend on GLFW) plus what the GUI knows about
// the pad. Index names follow GLFW's standard (Xbox-style) layout.
struct GamepadState {
  enum Axis { kLeftX = 0, kLeftY, kRightX, kRightY, kLeftTrigger, kRightTrigger, kAxisCount };
  enum Button {
    kA = 0,  // south
    kB,      // east
    kX,      // west
    kY,      // north
    kLeftBumper,
    kRightBumper,
    kBack,
    kStart,
    kGuide,
    kLeftThumb,
    kRightThumb,
    kDpadUp,
    kDpadRight,
    kDpadDown,
    kDpadLeft,
    kButtonCount
  };
  // Sticks in [-1, 1], y positive *down* (GLFW's convention); triggers -1 released … +1 pressed.
  std::array<float, kAxisCount> axes{};
  std::array<bool, kButtonCount> buttons{};
  bool connected = false;
  std::string name;  // e.g. "Xbox Controller"; empty when disconnected
};

struct GamepadConfig {
  // Stick deflections with |x| <= dead_zone are zero (worn sticks rest a few percent off
  // centre); beyond it the range is rescaled so the output rises continuously from 0.
  double dead_zone = 0.1;
  // out = (1 - expo) u + expo u^3 on the rescaled deflection u: fine control near the centre
  // while full deflection still gives full speed. 0 is linear.
  double expo = 0.5;
  // Full-deflection speeds: the keyboard's (KeyboardConfig), so both feel the same.
  double linear_speed_m_per_s = 0.10;
  double angular_speed_rad_per_s = 0.5;
  double fine_factor = 0.2;  // while the fine-mode button (B) is held, as Shift on the keyboard
  // The shoulder buttons: a tap (shorter than tap_max_s) moves one jog step, a hold moves at
  // linear_speed_m_per_s (as the keyboard's keys, KeyboardConfig).
  double jog_step_m = 1e-3;
  double tap_max_s = 0.2;
  CommandFrame frame = CommandFrame::kWorld;
  EventClock clock = SteadyClockSeconds;  // the states' stamps' clock, read at each poll
};

// One axis through dead zone and expo: [-1, 1] → [-1, 1], odd, 0 inside the dead zone, ±1 at
// full deflection. Values beyond ±1 (some pads overshoot) saturate.
double ShapeGamepadAxis(double value, const GamepadConfig& config);

// The sticks' and triggers' mapping (robot/world axes: x forward, y left, z up). Left stick:
// up → +x, left → +y. Right stick: left → +yaw (about z), up → +pitch (about y, tool tips
// forward-down). Triggers: right → +roll, left → -roll (about x). Fills linear_m_per_s and
// angular_rad_per_s of *command (z: 0, the shoulder buttons' is GamepadDevice's); a
// disconnected pad gives a zero twist.
void GamepadToTwist(const GamepadState& state, const GamepadConfig& config, TeleopCommand* command);

}  // namespace contactlab
