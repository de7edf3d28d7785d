// The θ-method's free motion and error control's doubled steps allocate nothing once warm, on
// the default scene (the Panda holding the peg between its hydroelastic pads).
#include <gtest/gtest.h>

#include <optional>

#include "physics_test_util.h"
#include "test_support/allocation_counter.h"

namespace contactlab {
namespace {

TEST(TimeIntegrationAllocation, WarmStepsDoNotAllocate) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  for (const TimeIntegration& integrator :
       {TimeIntegration::Midpoint(), TimeIntegration::ErrorControlled(1e-3)}) {
    SCOPED_TRACE(TimeIntegrationName(integrator));
    SceneSpec scene = testing::LoadBuiltinScene("peg_in_hole");
    scene.contact_settings.integrator = integrator;
    World world(scene);
    const std::optional<TeleopConfig> config = FindTeleopConfig(scene);
    ASSERT_TRUE(config);
    TeleopController teleop(world, *config);
    ASSERT_TRUE(testing::HoldGrasp(&world, &teleop, 300));  // settle, warm up
    {
      testing::ScopedAllocationCount counter;
      ASSERT_TRUE(testing::HoldGrasp(&world, &teleop, 20));
      EXPECT_EQ(counter.count(), 0) << counter.new_count() << " through operator new";
    }
    EXPECT_GT(world.last_stats().num_hydroelastic_faces, 20);
  }
}

}  // namespace
}  // namespace contactlab
