// Drives the tool point around a horizontal circle (a scene's `teleop: {circle: {radius,
// frequency}}`, issue 36; the ICF paper's grasp stress test, §XII-B) as an input device.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <string>

#include "input/input_device.h"

namespace contactlab {

// The circle lies in the world's horizontal plane through the tool point's initial position
// p0, with its centre at p0 − r·x̂_W: the tool starts at the circle's +x point and turns
// counter-clockwise seen from above (+z), p(θ) = p0 + r·(cos θ − 1, sin θ, 0). The phase θ
// starts at 0 and its rate ramps linearly from 0 to 2πf over the first period T = 1/f (at the
// frequency given at construction; 1 s when it is 0), so the tool starts at rest and its
// velocity never jumps (a jump at t = 0 is a shock the paper's test did not have): θ(t) = πf t²/T
// during the ramp (half a turn), then θ grows at 2πf. The frequency is a live setting
// (SetFrequency, any thread): the phase keeps its value and turns on at the new rate.
//
// Each PollStep(t, h), for the step [t, t + h] (h: its planned size, World::next_dt), returns
// the world-frame twist v = (p(θ(t + h)) − p̂)/h, where p̂ is the target the controller has
// integrated so far (p̂ += h·v, the arithmetic of TeleopController::IntegrateTargetPose,
// replayed here): the integrated target lands on the circle at every step's end, with no drift
// from rounding. A step that ended before its planned end (error control's rejections,
// docs/contact-model.md §1.2) is taken back to its actual end, as the controller takes it back
// (TeleopController::TakeBackOvershoot): phase and p̂ are those of the time actually stepped.
// Poll(t) is PollStep(t, dt_s) with the constructor's fixed step. The grip is 1 (closed: the
// scene's object stays held). Polled at an earlier time than before (the world was reset), the
// circle starts over.
class CircleDevice : public InputDevice {
 public:
  // `dt_s`: the step Poll(t) assumes (a fixed step); PollStep is told each step's.
  CircleDevice(double radius_m, double frequency_Hz, double dt_s);

  TeleopCommand Poll(double t) override { return PollStep(t, dt_s_); }
  TeleopCommand PollStep(double t, double h) override;
  std::string Status() const override;
  std::string Name() const override { return "circle"; }
  bool IsLive() const override { return false; }  // a program: reproduced exactly

  void SetFrequency(double frequency_Hz);  // clamped to [0, kMaxFrequencyHz]
  double frequency_Hz() const { return frequency_Hz_.load(std::memory_order_relaxed); }
  double radius_m() const { return radius_m_; }
  static constexpr double kMaxFrequencyHz = 3.0;

 private:
  void Restart();
  void TakeBackOvershoot(double t);
  Eigen::Vector3d Offset(double phase_rad) const;  // p(θ) − p0
  double radius_m_, dt_s_, ramp_s_;
  std::atomic<double> frequency_Hz_;
  double phase_rad_ = 0;  // θ at the end of the last polled step
  double last_t_ = -1e300;
  // The last polled step: its planned size, the rate its phase turned at (2πf) and its twist.
  double last_h_ = 0, last_rate_rad_per_s_ = 0;
  Eigen::Vector3d last_linear_ = Eigen::Vector3d::Zero();
  double start_t_ = 0;  // the time of the first poll (after a restart)
  Eigen::Vector3d integrated_offset_ = Eigen::Vector3d::Zero();  // p̂ − p0
};

}  // namespace contactlab
