// Keyboard teleoperation: the GUI translates its key events into KeyAction up/down calls (or key
// names through DefaultKeyMap), this device turns the held keys into a twist and a grip target.
#pragma once

#include <array>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

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
  double linear_speed_m_per_s = 0.10;  // at speed scale 1
  double angular_speed_rad_per_s = 0.5;
  double fine_factor = 0.2;  // multiplier while Shift is held
  double min_speed_scale = 0.125, max_speed_scale = 4.0;
  CommandFrame frame = CommandFrame::kWorld;
};

class KeyboardDevice : public InputDevice {
 public:
  static constexpr double kSpeedStep = 1.4142135623730951;  // two presses double the speed

  explicit KeyboardDevice(KeyboardConfig config = {});

  // Thread-safe: the GUI thread calls these while the sim thread polls. Repeated "down" events
  // for a key already held (auto-repeat) do not re-trigger the edge actions.
  void SetKey(KeyAction action, bool down);
  // Returns false if the key name is not in the default map (the event is ignored).
  bool SetKeyByName(std::string_view key_name, bool down);
  // Releases every held key; call when the window loses focus so no key sticks.
  void ReleaseAll();

  TeleopCommand Poll(double t) override;
  std::string Status() const override;
  std::string Name() const override { return "keyboard"; }

  double speed_scale() const;
  double grip() const;
  // The grip the toggle starts from (0 open, 1 closed; rounded to one of them): a scene that
  // starts with the gripper closed sets it closed, so that the first toggle opens it.
  void SetGrip(double grip);

 private:
  KeyboardConfig config_;
  mutable std::mutex mutex_;
  std::array<bool, static_cast<size_t>(KeyAction::kCount)> held_{};
  double speed_scale_ = 1.0;
  double grip_ = 0.0;
};

}  // namespace contactlab
