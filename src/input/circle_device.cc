#include "input/circle_device.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace contactlab {

namespace {

// ∫₀ˢ min(1, u/T) du: the ramped phase in units of 2πf·(seconds at full rate).
double RampedTime(double s, double ramp_s) {
  if (s <= 0) return 0;
  return s <= ramp_s ? 0.5 * s * s / ramp_s : s - 0.5 * ramp_s;
}

}  // namespace

CircleDevice::CircleDevice(double radius_m, double frequency_Hz, double dt_s)
    : radius_m_(radius_m),
      dt_s_(dt_s),
      ramp_s_(frequency_Hz > 0 ? 1.0 / frequency_Hz : 1.0),
      frequency_Hz_(std::clamp(frequency_Hz, 0.0, kMaxFrequencyHz)) {}

void CircleDevice::SetFrequency(double frequency_Hz) {
  if (!std::isfinite(frequency_Hz)) return;
  frequency_Hz_.store(std::clamp(frequency_Hz, 0.0, kMaxFrequencyHz), std::memory_order_relaxed);
}

Eigen::Vector3d CircleDevice::Offset(double phase_rad) const {
  return radius_m_ * Eigen::Vector3d(std::cos(phase_rad) - 1.0, std::sin(phase_rad), 0.0);
}

void CircleDevice::Restart() {
  phase_rad_ = 0;
  integrated_offset_.setZero();
}

TeleopCommand CircleDevice::Poll(double t) {
  if (t < last_t_) Restart();  // the world was reset
  if (last_t_ == -1e300 || t < last_t_) start_t_ = t;
  last_t_ = t;
  // The phase advances over the step [t, t + δt] at the ramped rate 2πf·min(1, s/T).
  const double s = t - start_t_;
  phase_rad_ += 2 * std::numbers::pi * frequency_Hz() *
                (RampedTime(s + dt_s_, ramp_s_) - RampedTime(s, ramp_s_));
  TeleopCommand c;
  c.t = t;
  c.frame = CommandFrame::kWorld;
  c.grip = 1.0;
  c.linear_m_per_s = (Offset(phase_rad_) - integrated_offset_) / dt_s_;
  integrated_offset_ += dt_s_ * c.linear_m_per_s;  // as the controller integrates it
  return c;
}

std::string CircleDevice::Status() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "circle r = %.1f mm at %.2f Hz, %.1f turns", 1e3 * radius_m_,
                frequency_Hz(), phase_rad_ / (2 * std::numbers::pi));
  return buf;
}

}  // namespace contactlab
