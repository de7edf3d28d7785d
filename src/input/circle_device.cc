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

// The last step ended at t, before its planned end: its phase and p̂ go back by the rest.
void CircleDevice::TakeBackOvershoot(double t) {
  const double planned_end = last_t_ + last_h_;
  if (!(t > last_t_ && t < planned_end)) return;
  phase_rad_ -= last_rate_rad_per_s_ *
                (RampedTime(planned_end - start_t_, ramp_s_) - RampedTime(t - start_t_, ramp_s_));
  integrated_offset_ -= (planned_end - t) * last_linear_;
}

TeleopCommand CircleDevice::PollStep(double t, double h) {
  if (t < last_t_) Restart();  // the world was reset
  if (last_t_ == -1e300 || t < last_t_) {
    start_t_ = t;
  } else {
    TakeBackOvershoot(t);
  }
  last_t_ = t;
  last_h_ = h;
  // The phase advances over the step [t, t + h] at the ramped rate 2πf·min(1, s/T).
  const double s = t - start_t_;
  last_rate_rad_per_s_ = 2 * std::numbers::pi * frequency_Hz();
  phase_rad_ += last_rate_rad_per_s_ * (RampedTime(s + h, ramp_s_) - RampedTime(s, ramp_s_));
  TeleopCommand c;
  c.t = t;
  c.frame = CommandFrame::kWorld;
  c.grip = 1.0;
  c.linear_m_per_s = (Offset(phase_rad_) - integrated_offset_) / h;
  integrated_offset_ += h * c.linear_m_per_s;  // as the controller integrates it
  last_linear_ = c.linear_m_per_s;
  return c;
}

std::string CircleDevice::Status() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "circle r = %.1f mm at %.2f Hz, %.1f turns", 1e3 * radius_m_,
                frequency_Hz(), phase_rad_ / (2 * std::numbers::pi));
  return buf;
}

}  // namespace contactlab
