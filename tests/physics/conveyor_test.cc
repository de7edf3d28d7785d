// Oscillating conveyor belt (ICF paper §VI-A; docs/contact-model.md §2.5 Table I): gliding during
// slip is zero for Lagged, μ(δt + τ_d)‖v_t‖ for SAP and μ δt ‖v_t‖ for Similar.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "physics_test_util.h"

namespace contactlab {
namespace {

struct Gliding {
  double max_lift = 0;       // |z − z_stick| during slip [m]
  double lift_per_slip = 0;  // least-squares slope of lift against slip speed [s]
  // Σ lift / Σ displayed gliding offset (ContactResult::gliding_offset_m, the mean over the
  // box's pressed contacts) over the steps slipping faster than 2 cm/s; the largest offset shown.
  double lift_over_displayed = 0;
  double max_displayed = 0;
  int slip_steps = 0, stick_steps = 0, nonconverged = 0;
};

Gliding Measure(ContactApproximation model) {
  SceneSpec scene = testing::LoadBuiltinScene("conveyor");
  scene.contact_settings.approximation = model;
  EXPECT_DOUBLE_EQ(scene.contact_settings.dt_s, 0.01);
  World world(scene);
  const int box = scene.FindBody("box"), belt = scene.FindBody("belt");
  std::vector<double> stick_z, slip_z, slip_speed, slip_displayed;
  Gliding g;
  g.nonconverged = testing::RunFor(&world, 4.0, [&](const World& w) {
    if (w.time() < 0.5) return;  // first contact transient
    const double slip =
        (w.BodyVelocity(box).tail<3>() - w.BodyVelocity(belt).tail<3>()).head<2>().norm();
    const double z = w.BodyPose(box).translation().z();
    if (slip < 1e-3) {
      stick_z.push_back(z);
    } else {
      slip_z.push_back(z);
      slip_speed.push_back(slip);
      double offset = 0;
      int pressed = 0;
      for (const ContactResult& c : w.contacts()) {
        if ((c.body_a != box && c.body_b != box) || c.normal_force_W.norm() <= 0) continue;
        offset += c.gliding_offset_m;
        ++pressed;
      }
      slip_displayed.push_back(pressed > 0 ? offset / pressed : 0);
    }
  });
  double z_stick = 0;
  for (double z : stick_z) z_stick += z;
  z_stick /= std::max<size_t>(1, stick_z.size());
  double num = 0, den = 0, lift_sum = 0, displayed_sum = 0;
  for (size_t i = 0; i < slip_z.size(); ++i) {
    const double lift = slip_z[i] - z_stick;
    g.max_lift = std::max(g.max_lift, std::abs(lift));
    g.max_displayed = std::max(g.max_displayed, slip_displayed[i]);
    if (slip_speed[i] > 0.02) {
      num += lift * slip_speed[i];
      den += slip_speed[i] * slip_speed[i];
      lift_sum += lift;
      displayed_sum += slip_displayed[i];
    }
  }
  g.lift_over_displayed = displayed_sum > 0 ? lift_sum / displayed_sum : 0;
  g.lift_per_slip = den > 0 ? num / den : 0;
  g.slip_steps = static_cast<int>(slip_z.size());
  g.stick_steps = static_cast<int>(stick_z.size());
  return g;
}

constexpr double kMu = 0.7, kDt = 0.01, kTauD = 1e-3;

TEST(Conveyor, LaggedDoesNotGlide) {
  const Gliding g = Measure(ContactApproximation::kLagged);
  EXPECT_EQ(g.nonconverged, 0);
  ASSERT_GT(g.slip_steps, 20);
  ASSERT_GT(g.stick_steps, 20);
  EXPECT_LT(g.max_lift, 1e-5);
  EXPECT_EQ(g.max_displayed, 0.0);  // and the diagnostics say so
}

TEST(Conveyor, SapGlidesByMuTimesDtPlusTauD) {
  const Gliding g = Measure(ContactApproximation::kSap);
  EXPECT_EQ(g.nonconverged, 0);
  ASSERT_GT(g.slip_steps, 20);
  EXPECT_NEAR(g.lift_per_slip, kMu * (kDt + kTauD), 0.2 * kMu * (kDt + kTauD));
  // The gliding offset the diagnostics display is the lift the box shows.
  EXPECT_NEAR(g.lift_over_displayed, 1.0, 0.2);
}

TEST(Conveyor, SimilarGlidesByMuTimesDt) {
  const Gliding g = Measure(ContactApproximation::kSimilar);
  EXPECT_EQ(g.nonconverged, 0);
  ASSERT_GT(g.slip_steps, 20);
  EXPECT_NEAR(g.lift_per_slip, kMu * kDt, 0.2 * kMu * kDt);
  EXPECT_NEAR(g.lift_over_displayed, 1.0, 0.2);
}

}  // namespace
}  // namespace contactlab
