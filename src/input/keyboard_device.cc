#include "input/keyboard_device.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <utility>

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

constexpr int kNumMotionKeys = static_cast<int>(KeyAction::kToggleGrip);
static_assert(kNumMotionKeys == ButtonMotion::kMaxButtons);

// The motion keys in KeyAction order: ±x, ±y, ±z, then ±roll, ±pitch, ±yaw.
std::array<ButtonMotion::Button, kNumMotionKeys> MotionKeys() {
  std::array<ButtonMotion::Button, kNumMotionKeys> keys;
  for (int i = 0; i < kNumMotionKeys; ++i) {
    keys[i].group = i < 6 ? ButtonMotion::kLinear : ButtonMotion::kAngular;
    keys[i].direction = Eigen::Vector3d::Unit((i / 2) % 3) * (i % 2 == 0 ? 1.0 : -1.0);
  }
  return keys;
}

ButtonMotion::Params MotionParams(const KeyboardConfig& config) {
  ButtonMotion::Params p;
  p.jog_step_m = config.jog_step_m;
  p.jog_step_rad = config.jog_step_rad;
  p.tap_max_s = config.tap_max_s;
  return p;
}

bool IsMotionKey(KeyAction action) { return static_cast<int>(action) < kNumMotionKeys; }

}  // namespace

std::span<const KeyBinding> DefaultKeyMap() { return kDefaultKeyMap; }

std::string MotionKeysHelp(const KeyboardConfig& config) {
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "motion keys: a tap moves one step (%.3g mm, %.3g deg), a hold moves at "
                "%.3g m/s, %.3g rad/s (x speed scale) for as long as it is held; Shift: both "
                "x%.3g",
                config.jog_step_m * 1e3, config.jog_step_rad * 180.0 / M_PI,
                config.linear_speed_m_per_s, config.angular_speed_rad_per_s, config.fine_factor);
  return buf;
}

std::optional<KeyAction> ActionForKey(std::string_view key_name) {
  for (const KeyBinding& b : kDefaultKeyMap) {
    if (EqualsIgnoreCase(b.key, key_name)) return b.action;
  }
  return std::nullopt;
}

KeyboardDevice::KeyboardDevice(KeyboardConfig config)
    : config_(std::move(config)), motion_(MotionParams(config_), MotionKeys()) {
  if (!config_.clock) config_.clock = SteadyClockSeconds;
  UpdateSpeed(config_.clock());
}

// The speeds held keys move at from t_s on (speed scale, Shift), and the jog steps' factor.
void KeyboardDevice::UpdateSpeed(double t_s) {
  const double fine = held_[static_cast<size_t>(KeyAction::kFineMode)] ? config_.fine_factor : 1.0;
  const double scale = speed_scale_ * fine;
  motion_.SetSpeed(config_.linear_speed_m_per_s * scale, config_.angular_speed_rad_per_s * scale,
                   fine, t_s);
}

void KeyboardDevice::Apply(const TimedKeyEvent& e) {
  if (e.action == KeyAction::kCount) return;
  bool& held = held_[static_cast<size_t>(e.action)];
  const bool pressed_now = e.down && !held;  // ignore auto-repeat
  const bool changed = e.down != held;
  held = e.down;
  if (IsMotionKey(e.action)) {
    const int button = static_cast<int>(e.action);
    if (e.down) {
      motion_.Press(button, e.t_s, e.poll);
    } else {
      motion_.Release(button, e.t_s, e.poll);
    }
    return;
  }
  if (e.action == KeyAction::kFineMode && changed) UpdateSpeed(e.t_s);
  if (!pressed_now) return;
  switch (e.action) {
    case KeyAction::kToggleGrip:
      grip_ = grip_ >= 0.5 ? 0.0 : 1.0;
      break;
    case KeyAction::kSpeedUp:
      speed_scale_ = std::min(speed_scale_ * kSpeedStep, config_.max_speed_scale);
      UpdateSpeed(e.t_s);
      break;
    case KeyAction::kSpeedDown:
      speed_scale_ = std::max(speed_scale_ / kSpeedStep, config_.min_speed_scale);
      UpdateSpeed(e.t_s);
      break;
    default:
      break;
  }
}

void KeyboardDevice::HandOver(std::span<const TimedKeyEvent> events, double known_until_s) {
  std::lock_guard lock(mutex_);
  motion_.BeginHandOver();
  for (const TimedKeyEvent& e : events) Apply(e);
  motion_.AdvanceTo(known_until_s);
}

void KeyboardDevice::SetKey(KeyAction action, bool down) {
  const double now = config_.clock();
  const TimedKeyEvent e{action, down, now, -1};
  HandOver({&e, 1}, now);
}

bool KeyboardDevice::SetKeyByName(std::string_view key_name, bool down) {
  const std::optional<KeyAction> action = ActionForKey(key_name);
  if (!action) return false;
  SetKey(*action, down);
  return true;
}

void KeyboardDevice::ReleaseAll(double t_s, int64_t poll) {
  std::lock_guard lock(mutex_);
  if (std::none_of(held_.begin(), held_.end(), [](bool h) { return h; })) return;
  motion_.BeginHandOver();
  const bool fine = held_[static_cast<size_t>(KeyAction::kFineMode)];
  held_.fill(false);
  motion_.ReleaseAll(t_s, poll);
  if (fine) UpdateSpeed(t_s);
}

void KeyboardDevice::ReleaseAll() { ReleaseAll(config_.clock()); }

void KeyboardDevice::RestartMotion() {
  std::lock_guard lock(mutex_);
  motion_.Restart();
}

void KeyboardDevice::SetSpeedLimits(double linear_m_per_s, double angular_rad_per_s) {
  std::lock_guard lock(mutex_);
  motion_.SetSpeedLimits(linear_m_per_s, angular_rad_per_s);
}

TeleopCommand KeyboardDevice::PollStep(double t, double h) {
  std::lock_guard lock(mutex_);
  TeleopCommand c;
  c.t = t;
  c.frame = config_.frame;
  c.grip = grip_;
  motion_.Poll(t, config_.clock(), &c.linear_m_per_s, &c.angular_rad_per_s, h);
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

Eigen::Vector3d KeyboardDevice::owed_m() const {
  std::lock_guard lock(mutex_);
  return motion_.budget(ButtonMotion::kLinear) - motion_.executed(ButtonMotion::kLinear);
}

}  // namespace contactlab
