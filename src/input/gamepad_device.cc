#include "input/gamepad_device.h"

#include <spdlog/spdlog.h>

#include <array>
#include <utility>

namespace contactlab {
namespace {

// The shoulder buttons as buttons in time: 0 right (+z), 1 left (−z).
std::array<ButtonMotion::Button, 2> Bumpers() {
  return {ButtonMotion::Button{ButtonMotion::kLinear, Eigen::Vector3d::UnitZ()},
          ButtonMotion::Button{ButtonMotion::kLinear, -Eigen::Vector3d::UnitZ()}};
}
constexpr GamepadState::Button kBumperButtons[] = {GamepadState::kRightBumper,
                                                   GamepadState::kLeftBumper};

ButtonMotion::Params BumperParams(const GamepadConfig& config) {
  ButtonMotion::Params p;
  p.jog_step_m = config.jog_step_m;
  p.tap_max_s = config.tap_max_s;
  return p;
}

}  // namespace

GamepadDevice::GamepadDevice(GamepadConfig config)
    : config_(std::move(config)), bumpers_(BumperParams(config_), Bumpers()) {
  if (!config_.clock) config_.clock = SteadyClockSeconds;
  bumpers_.SetSpeed(config_.linear_speed_m_per_s, config_.angular_speed_rad_per_s, 1.0,
                    config_.clock());
}

void GamepadDevice::SetState(const GamepadState& state, double t_s, int64_t poll) {
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
  const auto pressed = [&](GamepadState::Button b) {
    return next.buttons[b] && !state_.buttons[b];
  };
  if (pressed(GamepadState::kA)) grip_ = grip_ >= 0.5 ? 0.0 : 1.0;
  bumpers_.BeginHandOver();
  if (next.buttons[GamepadState::kB] != state_.buttons[GamepadState::kB]) {
    const double fine = next.buttons[GamepadState::kB] ? config_.fine_factor : 1.0;
    bumpers_.SetSpeed(config_.linear_speed_m_per_s * fine, config_.angular_speed_rad_per_s * fine,
                      fine, t_s);
  }
  for (int i = 0; i < 2; ++i) {
    const GamepadState::Button b = kBumperButtons[i];
    if (next.buttons[b] && !state_.buttons[b]) bumpers_.Press(i, t_s, poll);
    if (!next.buttons[b] && state_.buttons[b]) bumpers_.Release(i, t_s, poll);
  }
  bumpers_.AdvanceTo(t_s);
  state_ = std::move(next);
}

void GamepadDevice::SetState(const GamepadState& state) { SetState(state, config_.clock()); }

void GamepadDevice::RestartMotion() {
  std::lock_guard lock(mutex_);
  bumpers_.Restart();
}

void GamepadDevice::SetSpeedLimits(double linear_m_per_s, double angular_rad_per_s) {
  std::lock_guard lock(mutex_);
  bumpers_.SetSpeedLimits(linear_m_per_s, angular_rad_per_s);
}

TeleopCommand GamepadDevice::PollStep(double t, double h) {
  std::lock_guard lock(mutex_);
  TeleopCommand c;
  c.t = t;
  c.frame = config_.frame;
  c.grip = grip_;
  GamepadToTwist(state_, config_, &c);
  Eigen::Vector3d linear, angular;
  bumpers_.Poll(t, config_.clock(), &linear, &angular, h);
  c.linear_m_per_s += linear;
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
