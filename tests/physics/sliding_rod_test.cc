// Sliding rod (Painlevé, μ = 2.3, 30°, U0 = 10 m/s): the rod jams and jumps.
#include <gtest/gtest.h>

#include "physics_test_util.h"

namespace contactlab {
namespace {

class SlidingRod : public ::testing::TestWithParam<ContactApproximation> {};

TEST_P(SlidingRod, JamsAndJumps) {
  SceneSpec scene = testing::LoadBuiltinScene("sliding_rod");
  scene.approximation = GetParam();
  World world(scene);
  const int rod = scene.FindBody("rod");
  bool touched = false, airborne_after_touch = false;
  double max_rise = 0;
  const double z0 = world.BodyPose(rod).translation().z();
  double speed_at_jump = -1;
  const int nonconverged = testing::RunFor(&world, 0.3, [&](const World& w) {
    const bool touching = w.NetNormalForce(rod).norm() > 0;
    if (touching) touched = true;
    if (touched && !touching && !airborne_after_touch) {
      airborne_after_touch = true;
      speed_at_jump = w.BodyVelocity(rod).tail<3>().head<2>().norm();
    }
    max_rise = std::max(max_rise, w.BodyPose(rod).translation().z() - z0);
  });
  EXPECT_EQ(nonconverged, 0);
  EXPECT_TRUE(touched);
  EXPECT_TRUE(airborne_after_touch) << "the rod never left the ground";
  // Jamming is a tangential impact: the horizontal speed drops sharply at once.
  EXPECT_LT(speed_at_jump, 10.0);
  EXPECT_GT(max_rise, 1e-3);  // the centre of mass rises: a jump, not a slide
}

INSTANTIATE_TEST_SUITE_P(AllModels, SlidingRod,
                         ::testing::Values(ContactApproximation::kSap,
                                           ContactApproximation::kLagged,
                                           ContactApproximation::kSimilar),
                         [](const auto& info) { return ContactApproximationName(info.param); });

}  // namespace
}  // namespace contactlab
