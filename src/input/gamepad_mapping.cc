#include "input/gamepad_mapping.h"

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace {

// A trigger rests at -1 and reads +1 fully pressed; as a one-sided axis in [0, 1].
double TriggerAxis(float raw, const GamepadConfig& config) {
  return ShapeGamepadAxis((static_cast<double>(raw) + 1.0) * 0.5, config);
}

}  // namespace

double ShapeGamepadAxis(double value, const GamepadConfig& config) {
  const double dz = std::clamp(config.dead_zone, 0.0, 0.99);
  const double magnitude = std::abs(value) - dz;
  if (!(magnitude > 0.0)) return 0.0;  // also NaN from a broken driver
  const double u = std::min(magnitude / (1.0 - dz), 1.0);
  const double e = std::clamp(config.expo, 0.0, 1.0);
  return std::copysign((1.0 - e) * u + e * u * u * u, value);
}

void GamepadToTwist(const GamepadState& state, const GamepadConfig& config,
                    TeleopCommand* command) {
  command->linear_m_per_s.setZero();
  command->angular_rad_per_s.setZero();
  if (!state.connected) return;
  using S = GamepadState;
  const auto axis = [&](S::Axis a) { return ShapeGamepadAxis(state.axes[a], config); };
  // GLFW's y axes point down and x right; the robot's x is forward (stick up) and y left.
  const Eigen::Vector3d v(-axis(S::kLeftY), -axis(S::kLeftX), 0.0);
  const Eigen::Vector3d w(TriggerAxis(state.axes[S::kRightTrigger], config) -
                              TriggerAxis(state.axes[S::kLeftTrigger], config),
                          -axis(S::kRightY), -axis(S::kRightX));
  const double scale = state.buttons[S::kB] ? config.fine_factor : 1.0;
  command->linear_m_per_s = v * (config.linear_speed_m_per_s * scale);
  command->angular_rad_per_s = w * (config.angular_speed_rad_per_s * scale);
}

}  // namespace contactlab
