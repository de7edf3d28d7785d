// The default scene's hot path allocates nothing once warm: the Panda holding the peg between
// its compliant pads (hydroelastic patches on an arm, summed per body pair in the Hessian, and
// point contacts) through the teleop controller, under every approximation, and under the
// θ-method's free motion and error control's doubled steps (docs/contact-model.md §1.1–§1.2).
#include <gtest/gtest.h>

#include <optional>

#include "physics_test_util.h"
#include "test_support/allocation_counter.h"

namespace contactlab {
namespace {

// 300 steps to settle and warm up, then 20 counted.
void ExpectWarmGraspStepsAllocateNothing(const SceneSpec& scene) {
  World world(scene);
  const std::optional<TeleopConfig> config = FindTeleopConfig(scene);
  ASSERT_TRUE(config);
  TeleopController teleop(world, *config);
  ASSERT_TRUE(testing::HoldGrasp(&world, &teleop, 300));
  {
    testing::ScopedAllocationCount counter;
    ASSERT_TRUE(testing::HoldGrasp(&world, &teleop, 20));
    EXPECT_EQ(counter.count(), 0) << counter.new_count() << " through operator new";
  }
  // What the steps exercised: the pads' patches on the peg.
  EXPECT_GT(world.last_stats().num_hydroelastic_faces, 20);
}

TEST(PegInHoleAllocation, WarmGraspStepsDoNotAllocate) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  for (const ContactApproximation approximation : testing::kAllApproximations) {
    SCOPED_TRACE(ContactApproximationName(approximation));
    SceneSpec scene = testing::LoadBuiltinScene("peg_in_hole");
    ContactOverrides overrides;
    overrides.approximation = approximation;
    ApplyOverrides(overrides, &scene.contact_settings);
    ExpectWarmGraspStepsAllocateNothing(scene);
  }
}

TEST(PegInHoleAllocation, WarmGraspStepsDoNotAllocateUnderOtherIntegrators) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  for (const TimeIntegration& integrator :
       {TimeIntegration::Midpoint(), TimeIntegration::ErrorControlled(1e-3)}) {
    SCOPED_TRACE(TimeIntegrationName(integrator));
    SceneSpec scene = testing::LoadBuiltinScene("peg_in_hole");
    scene.contact_settings.integrator = integrator;
    ExpectWarmGraspStepsAllocateNothing(scene);
  }
}

}  // namespace
}  // namespace contactlab
