// Keyboard teleoperation: the GUI hands its key events over as KeyAction up/down events stamped
// with their times (or key names through DefaultKeyMap); this device turns them into a twist
// and a grip target. A motion key's tap moves one jog step, a hold moves at the speed for as
// long as it was held by the events' own times, whatever the frame rate (input/button_motion.h).
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "input/button_motion.h"
#include "input/event_clock.h"
#include "input/input_device.h"

namespace contactlab {

enum class KeyAction {
  kMoveXPos,
  kMoveXNeg,
  kMoveYPos,
  kMoveYNeg,
  kMoveZPos,
  kMoveZNeg,
  kRotXPos,
  kRotXNeg,
  kRotYPos,
  kRotYNeg,
  kRotZPos,
  kRotZNeg,
  kToggleGrip,  // edge-triggered on key down
  kSpeedUp,     // edge-triggered: speed scale × kSpeedStep
  kSpeedDown,   // edge-triggered: speed scale ÷ kSpeedStep
  kFineMode,    // held: speeds × fine_factor
  kCount
};

struct KeyBinding {
  const char* key;  // key name as the GUI reports it: "W", "Space", "+", "-", "Shift"
  KeyAction action;
  const char* description;  // for the help panel
};

// The default key map, in help-panel order. Key names: upper-case letters, "Space", "+" (the GUI
// should also map '=' and keypad '+' here), "-" (also keypad '-'), "Shift" (either shift key).
// Robot/world axes: x forward, y left, z up.
std::span<const KeyBinding> DefaultKeyMap();

// Looks a key name up in DefaultKeyMap (case-insensitive for letters).
std::optional<KeyAction> ActionForKey(std::string_view key_name);

struct KeyboardConfig {
  double linear_speed_m_per_s = 0.10;  // while held, at speed scale 1
  double angular_speed_rad_per_s = 0.5;
  // A tap (a press shorter than tap_max_s) moves one jog step (× fine_factor with Shift).
  double jog_step_m = 1e-3;
  double jog_step_rad = 0.017453292519943295;  // 1°
  double tap_max_s = 0.2;
  double fine_factor = 0.2;  // multiplier while Shift is held
  double min_speed_scale = 0.125, max_speed_scale = 4.0;
  CommandFrame frame = CommandFrame::kWorld;
  EventClock clock = SteadyClockSeconds;  // the events' clock, read at each poll
};

// One line for the help panel: what a tap and a hold of a motion key do with `config`.
std::string MotionKeysHelp(const KeyboardConfig& config);

// A key event at t_s on the device's clock; poll: the index of the GUI's event poll that
// delivered it (its stamp has that poll's resolution), or −1 for an exact time.
struct TimedKeyEvent {
  KeyAction action = KeyAction::kCount;
  bool down = false;
  double t_s = 0;
  int64_t poll = -1;
};

class KeyboardDevice : public InputDevice {
 public:
  static constexpr double kSpeedStep = 1.4142135623730951;  // two presses double the speed

  explicit KeyboardDevice(KeyboardConfig config = {});

  // Thread-safe: the GUI thread calls these while the sim thread polls. Repeated "down" events
  // for a key already held (auto-repeat) do not re-trigger the edge actions.
  // A frame's events, in order, and the time up to which they are all the events there were
  // (the start of the event poll that delivered them): held keys move up to then.
  void HandOver(std::span<const TimedKeyEvent> events, double known_until_s);
  // One event now (the clock's), known until now.
  void SetKey(KeyAction action, bool down);
  // Returns false if the key name is not in the default map (the event is ignored).
  bool SetKeyByName(std::string_view key_name, bool down);
  // Releases every held key at t_s (now); call when the window loses focus so no key sticks.
  void ReleaseAll(double t_s, int64_t poll = -1);
  void ReleaseAll();
  // Motion not yet executed is dropped (the arm's targets were set anew: a reset, a new scene).
  void RestartMotion();
  // The speeds the commands are clamped to downstream (ButtonMotion::SetSpeedLimits).
  void SetSpeedLimits(double linear_m_per_s, double angular_rad_per_s);

  TeleopCommand Poll(double t) override { return PollStep(t, 0); }
  // The keys' motion over the step [t, t + h] (ButtonMotion::Poll's coming step).
  TeleopCommand PollStep(double t, double h) override;
  std::string Status() const override;
  std::string Name() const override { return "keyboard"; }

  double speed_scale() const;
  double grip() const;
  // The motion keys' linear displacement owed and not yet executed by polls [m, the device's
  // axes]: what a reset drops (tests).
  Eigen::Vector3d owed_m() const;
  // The grip the toggle starts from (0 open, 1 closed; rounded to one of them): a scene that
  // starts with the gripper closed sets it closed, so that the first toggle opens it.
  void SetGrip(double grip);

 private:
  void Apply(const TimedKeyEvent& event);  // under mutex_
  void UpdateSpeed(double t_s);            // under mutex_

  KeyboardConfig config_;
  mutable std::mutex mutex_;
  std::array<bool, static_cast<size_t>(KeyAction::kCount)> held_{};
  double speed_scale_ = 1.0;
  double grip_ = 0.0;
  ButtonMotion motion_;
};

}  // namespace contactlab
