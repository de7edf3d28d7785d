#include "input/keyboard_device.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace contactlab {
namespace {

constexpr KeyBinding kDefaultKeyMap[] = {
    {"W", KeyAction::kMoveXPos, "move forward (+x)"},
    {"S", KeyAction::kMoveXNeg, "move back (-x)"},
    {"A", KeyAction::kMoveYPos, "move left (+y)"},
    {"D", KeyAction::kMoveYNeg, "move right (-y)"},
    {"E", KeyAction::kMoveZPos, "move up (+z)"},
    {"Q", KeyAction::kMoveZNeg, "move down (-z)"},
    {"U", KeyAction::kRotXPos, "roll + (about x)"},
    {"O", KeyAction::kRotXNeg, "roll - (about x)"},
    {"I", KeyAction::kRotYPos, "pitch + (about y)"},
    {"K", KeyAction::kRotYNeg, "pitch - (about y)"},
    {"J", KeyAction::kRotZPos, "yaw + (about z)"},
    {"L", KeyAction::kRotZNeg, "yaw - (about z)"},
    {"Space", KeyAction::kToggleGrip, "open / close the gripper"},
    {"+", KeyAction::kSpeedUp, "faster (speed scale x1.41)"},
    {"-", KeyAction::kSpeedDown, "slower (speed scale /1.41)"},
    {"Shift", KeyAction::kFineMode, "hold for fine motion (x0.2)"},
};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// +1 / -1 / 0 from a pair of opposite keys (both held cancel, as on any game keyboard).
double Axis(const std::array<bool, static_cast<size_t>(KeyAction::kCount)>& held, KeyAction pos,
            KeyAction neg) {
  return (held[static_cast<size_t>(pos)] ? 1.0 : 0.0) -
         (held[static_cast<size_t>(neg)] ? 1.0 : 0.0);
}

}  // namespace

std::span<const KeyBinding> DefaultKeyMap() { return kDefaultKeyMap; }

std::optional<KeyAction> ActionForKey(std::string_view key_name) {
  for (const KeyBinding& b : kDefaultKeyMap) {
    if (EqualsIgnoreCase(b.key, key_name)) return b.action;
  }
  return std::nullopt;
}

KeyboardDevice::KeyboardDevice(KeyboardConfig config) : config_(config) {}

void KeyboardDevice::SetKey(KeyAction action, bool down) {
  if (action == KeyAction::kCount) return;
  std::lock_guard lock(mutex_);
  bool& held = held_[static_cast<size_t>(action)];
  const bool pressed_now = down && !held;  // ignore auto-repeat
  held = down;
  if (!pressed_now) return;
  switch (action) {
    case KeyAction::kToggleGrip:
      grip_ = grip_ >= 0.5 ? 0.0 : 1.0;
      break;
    case KeyAction::kSpeedUp:
      speed_scale_ = std::min(speed_scale_ * kSpeedStep, config_.max_speed_scale);
      break;
    case KeyAction::kSpeedDown:
      speed_scale_ = std::max(speed_scale_ / kSpeedStep, config_.min_speed_scale);
      break;
    default:
      break;
  }
}

bool KeyboardDevice::SetKeyByName(std::string_view key_name, bool down) {
  const std::optional<KeyAction> action = ActionForKey(key_name);
  if (!action) return false;
  SetKey(*action, down);
  return true;
}

void KeyboardDevice::ReleaseAll() {
  std::lock_guard lock(mutex_);
  held_.fill(false);
}

TeleopCommand KeyboardDevice::Poll(double t) {
  std::lock_guard lock(mutex_);
  TeleopCommand c;
  c.t = t;
  c.frame = config_.frame;
  c.grip = grip_;
  const double scale =
      speed_scale_ * (held_[static_cast<size_t>(KeyAction::kFineMode)] ? config_.fine_factor : 1.0);
  const Eigen::Vector3d v(Axis(held_, KeyAction::kMoveXPos, KeyAction::kMoveXNeg),
                          Axis(held_, KeyAction::kMoveYPos, KeyAction::kMoveYNeg),
                          Axis(held_, KeyAction::kMoveZPos, KeyAction::kMoveZNeg));
  const Eigen::Vector3d w(Axis(held_, KeyAction::kRotXPos, KeyAction::kRotXNeg),
                          Axis(held_, KeyAction::kRotYPos, KeyAction::kRotYNeg),
                          Axis(held_, KeyAction::kRotZPos, KeyAction::kRotZNeg));
  // Normalized so a diagonal (W+A) moves at the same speed as a single key.
  if (v.squaredNorm() > 0.0)
    c.linear_m_per_s = v.normalized() * config_.linear_speed_m_per_s * scale;
  if (w.squaredNorm() > 0.0)
    c.angular_rad_per_s = w.normalized() * config_.angular_speed_rad_per_s * scale;
  return c;
}

std::string KeyboardDevice::Status() const {
  std::lock_guard lock(mutex_);
  char buf[96];
  // The grip is not here: the teleop panel shows the one applied (a scene's latch included).
  std::snprintf(buf, sizeof buf, "keyboard: speed x%.2f%s", speed_scale_,
                held_[static_cast<size_t>(KeyAction::kFineMode)] ? " (fine)" : "");
  return buf;
}

double KeyboardDevice::speed_scale() const {
  std::lock_guard lock(mutex_);
  return speed_scale_;
}

double KeyboardDevice::grip() const {
  std::lock_guard lock(mutex_);
  return grip_;
}

void KeyboardDevice::SetGrip(double grip) {
  std::lock_guard lock(mutex_);
  grip_ = grip >= 0.5 ? 1.0 : 0.0;
}

}  // namespace contactlab
