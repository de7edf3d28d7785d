// The teleop circle (input/circle_device.h): the target a controller integrates from its
// twists lies on the circle of radius r at every step's end, turns at 1/f per period after the
// ramp, and starts at rest.
#include "input/circle_device.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace contactlab {
namespace {

constexpr double kRadius = 0.03, kDt = 1e-3;
const Eigen::Vector3d kStart(0.3068905666, 0.0, 0.5902820523);  // the Panda's tool point
const Eigen::Vector3d kCentre = kStart - Eigen::Vector3d(kRadius, 0, 0);

// Integrates the device's twists as TeleopController::IntegrateTargetPose does (p += δt·v).
struct Integrated {
  explicit Integrated(double frequency_Hz) : device(kRadius, frequency_Hz, kDt) {}
  // One step from t = k·δt; returns the target at its end.
  Eigen::Vector3d Step() {
    const TeleopCommand c = device.Poll(step * kDt);
    EXPECT_EQ(c.frame, CommandFrame::kWorld);
    EXPECT_EQ(c.grip, 1.0);
    EXPECT_TRUE(c.angular_rad_per_s.isZero(0.0));
    target += kDt * c.linear_m_per_s;
    last_speed = c.linear_m_per_s.norm();
    ++step;
    return target;
  }
  CircleDevice device;
  Eigen::Vector3d target = kStart;
  long step = 0;
  double last_speed = 0;
};

TEST(CircleDevice, TheTargetIsOnTheCircleAtEveryStepEnd) {
  Integrated run(1.0);
  for (int i = 0; i < 20000; ++i) {  // 20 s: the grasp_stress run
    const Eigen::Vector3d p = run.Step();
    ASSERT_NEAR((p - kCentre).head<2>().norm(), kRadius, 1e-12) << "step " << i;
    ASSERT_EQ(p.z(), kStart.z()) << "horizontal: v_z is exactly 0";
  }
}

TEST(CircleDevice, AfterTheRampItTurnsOncePerPeriodCounterClockwise) {
  const double f = 1.25, period = 1 / f;  // 800 steps
  Integrated run(f);
  const long ramp_steps = std::lround(period / kDt);
  for (long i = 0; i < ramp_steps; ++i) run.Step();
  // The ramp turns half a circle (θ = πf t²/T at t = T = 1/f): the −x point.
  EXPECT_NEAR((run.target - (kCentre - Eigen::Vector3d(kRadius, 0, 0))).norm(), 0, 1e-12);
  const Eigen::Vector3d half = run.target;
  for (long i = 0; i < ramp_steps / 4; ++i) run.Step();
  // A quarter period on, counter-clockwise seen from +z: the −y point.
  EXPECT_NEAR((run.target - (kCentre - Eigen::Vector3d(0, kRadius, 0))).norm(), 0, 1e-12);
  for (long i = 0; i < 3 * ramp_steps / 4; ++i) run.Step();
  EXPECT_NEAR((run.target - half).norm(), 0, 1e-12) << "one period later, the same point";
  // Full rate: the chord speed 2r·sin(πfδt)/δt.
  EXPECT_NEAR(run.last_speed, 2 * kRadius * std::sin(std::numbers::pi * f * kDt) / kDt, 1e-9);
}

TEST(CircleDevice, StartsAtRestAndRampsUpOverThePeriod) {
  const double f = 1.0;
  Integrated run(f);
  run.Step();
  // θ(δt) = πf δt²/T: the first step's chord is r·θ(δt) to first order, 9.4e-5 m/s, against
  // 2πfr = 0.19 m/s at full rate.
  const double first = kRadius * std::numbers::pi * f * kDt * kDt * f / kDt;
  EXPECT_NEAR(run.last_speed, first, 1e-3 * first);
  for (int i = 1; i < 500; ++i) run.Step();  // the step to T/2: its mid-time's rate, 0.4995·2πf
  EXPECT_NEAR(run.last_speed, 0.4995 * 2 * std::numbers::pi * f * kRadius, 1e-6);
}

TEST(CircleDevice, AnEarlierTimeRestartsTheCircle) {
  CircleDevice device(kRadius, 1.0, kDt);
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();
  for (int i = 0; i < 1000; ++i) offset += kDt * device.Poll(i * kDt).linear_m_per_s;
  // The world was reset (and the controller's target with it): the circle starts at rest again.
  const TeleopCommand c = device.Poll(0.0);
  EXPECT_LT(c.linear_m_per_s.norm(), 1e-3);
  EXPECT_NEAR(offset.norm(), 2 * kRadius, 1e-12) << "1 s in, the ramp ended at the −x point";
}

TEST(CircleDevice, TheFrequencyIsALiveSettingThatKeepsTheTargetOnTheCircle) {
  Integrated run(1.0);
  for (int i = 0; i < 1500; ++i) run.Step();
  run.device.SetFrequency(2.5);
  for (int i = 0; i < 1500; ++i) {
    const Eigen::Vector3d p = run.Step();
    ASSERT_NEAR((p - kCentre).head<2>().norm(), kRadius, 1e-12);
  }
  EXPECT_NEAR(run.last_speed, 2 * kRadius * std::sin(std::numbers::pi * 2.5 * kDt) / kDt, 1e-9);
  run.device.SetFrequency(7.0);
  EXPECT_EQ(run.device.frequency_Hz(), CircleDevice::kMaxFrequencyHz);
  run.device.SetFrequency(-1.0);
  EXPECT_EQ(run.device.frequency_Hz(), 0.0);
  run.device.SetFrequency(NAN);
  EXPECT_EQ(run.device.frequency_Hz(), 0.0);
}

// Under error control (docs/contact-model.md §1.2) the steps vary, and one may end before its
// planned end h (rejections inside World::Step): the target is on the circle at every step's
// end whatever its size, and a step that ended at t + h/3 instead of t + h is taken back, so the
// run goes on exactly as if h/3 had been planned (the phase at a known time: ramp over, the
// circle at θ(t) = 2πf(t − T/2)).
TEST(CircleDevice, VariableAndShortenedStepsKeepTheTargetOnTheCircleAtTheTimeStepped) {
  const double f = 1.0;
  CircleDevice device(kRadius, f, kDt);
  Eigen::Vector3d target = kStart;
  double t = 0;
  const double sizes[] = {1e-4, 5e-4, 2.5e-3, 1e-3, 7e-4};
  for (int k = 0; t < 1.3; ++k) {  // past the ramp
    const double h = sizes[k % 5];
    const TeleopCommand c = device.PollStep(t, h);
    target += h * c.linear_m_per_s;  // as the controller integrates it
    t += h;
    ASSERT_NEAR((target - kCentre).head<2>().norm(), kRadius, 1e-12) << "t = " << t;
  }
  // Planned 3 ms, ended after 1 ms: the controller takes the last 2 ms back.
  const double h = 3e-3;
  TeleopCommand c = device.PollStep(t, h);
  target += h * c.linear_m_per_s;
  target -= (2 * h / 3) * c.linear_m_per_s;
  t += h / 3;
  const double h_next = 1e-3;
  c = device.PollStep(t, h_next);
  target += h_next * c.linear_m_per_s;
  t += h_next;
  const double phase = 2 * std::numbers::pi * f * (t - 0.5 / f);
  const Eigen::Vector3d expected =
      kCentre + kRadius * Eigen::Vector3d(std::cos(phase), std::sin(phase), 0);
  // (Without the take-back the target would run 2 ms ahead: 0.4 mm along the circle.)
  EXPECT_NEAR((target - expected).norm(), 0, 1e-12);
}

}  // namespace
}  // namespace contactlab
