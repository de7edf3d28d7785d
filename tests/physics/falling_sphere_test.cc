// Falling sphere (docs/contact-model.md §7): slide, then roll; rigid-body answers.
#include <gtest/gtest.h>

#include <cmath>

#include "physics_test_util.h"

namespace contactlab {
namespace {

constexpr double kU0 = 2.0, kMu = 0.5, kG = 9.81, kRadius = 0.025;

struct RollResult {
  double touchdown = -1, rolling = -1, final_speed = 0;
  int nonconverged = 0;
};

// Slip of the lowest point; rolling starts when it falls below 2 mm/s (the sliding phase
// decelerates the slip at (7/2)μg ≈ 17 m/s², so the threshold costs ≈ 0.1 ms).
RollResult RunSphere(SceneSpec scene, double duration) {
  World world(scene);
  const int sphere = scene.FindBody("sphere");
  RollResult r;
  r.nonconverged = testing::RunFor(&world, duration, [&](const World& w) {
    const auto V = w.BodyVelocity(sphere);
    const Eigen::Vector3d slip = V.tail<3>() + V.head<3>().cross(Eigen::Vector3d(0, 0, -kRadius));
    if (r.touchdown < 0 && w.NetNormalForce(sphere).norm() > 0) r.touchdown = w.time() - w.dt();
    if (r.touchdown >= 0 && r.rolling < 0 && slip.head<2>().norm() < 2e-3) r.rolling = w.time();
    r.final_speed = V.tail<3>().head<2>().norm();
  });
  return r;
}

class FallingSphere : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(FallingSphere, FinalRollingSpeedIsFiveSeventhsOfU0) {
  SceneSpec scene = testing::LoadBuiltinScene("falling_sphere");
  scene.contact_settings.approximation = GetParam();
  const RollResult r = RunSphere(scene, 0.4);
  EXPECT_EQ(r.nonconverged, 0);
  ASSERT_GT(r.rolling, 0) << "never started rolling";
  EXPECT_NEAR(r.final_speed, 5.0 / 7.0 * kU0, 0.01 * 5.0 / 7.0 * kU0);
}

INSTANTIATE_TEST_SUITE_P(AllModels, FallingSphere, ::testing::ValuesIn(testing::kAllApproximations),
                         testing::ApproximationTestName);

TEST(FallingSphereLagged, SlideToRollTimeIncludesTheFrictionalImpact) {
  SceneSpec scene = testing::LoadBuiltinScene("falling_sphere");
  scene.contact_settings.approximation = ContactApproximation::kLagged;
  scene.contact_settings.dt_s = 5e-4;
  const RollResult r = RunSphere(scene, 0.3);
  // Rigid reference: v_n = sqrt(2 g h), the impact removes (7/2) μ v_n of slip.
  const double vn = std::sqrt(2 * kG * 0.05);
  const double u1 = kU0 - 3.5 * kMu * vn;
  const double expected = u1 / (3.5 * kMu * kG);
  EXPECT_NEAR(expected, 0.0155, 0.0005);
  ASSERT_GT(r.rolling, 0);
  EXPECT_NEAR(r.rolling - r.touchdown, expected, 0.15 * expected);
}

TEST(FallingSphereLagged, SetDownWithoutNormalSpeedRollsAfterTwoU0Over7MuG) {
  SceneSpec scene = testing::LoadBuiltinScene("falling_sphere");
  scene.contact_settings.approximation = ContactApproximation::kLagged;
  scene.contact_settings.dt_s = 5e-4;
  const int sphere = scene.FindBody("sphere");
  // Resting on the ground at its static penetration mg/k (no normal impact).
  scene.bodies[sphere].initial_pose.translation().z() = kRadius - 0.5 * kG / 1e7;
  const RollResult r = RunSphere(scene, 0.3);
  const double expected = 2 * kU0 / (7 * kMu * kG);  // 116.5 ms
  ASSERT_GT(r.rolling, 0);
  EXPECT_NEAR(r.rolling - r.touchdown, expected, 0.05 * expected);
  EXPECT_NEAR(r.final_speed, 5.0 / 7.0 * kU0, 0.01 * 5.0 / 7.0 * kU0);
}

}  // namespace
}  // namespace contactlab
