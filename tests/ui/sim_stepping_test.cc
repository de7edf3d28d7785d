// Stepping the sim thread from the render loop: the steps a stepped frame shows (whole steps,
// rounded down, exact when the product is whole), and a paused SimRuntime taken to an exact step,
// paused from running, and its ghost waited for — a real sim thread, no window.
#include "ui/sim_stepping.h"

#include <gtest/gtest.h>

#include "test_support/pile_scene.h"
#include "test_support/runtime_waits.h"

namespace contactlab {
namespace {

TEST(SimStepping, AFrameShowsWholeStepsOfItsPeriodTimesTheRealTimeFactor) {
  const double per_frame = StepsPerFrame(1.0 / 60.0, 1.0, 1e-3);  // 16.67 steps of 1 ms
  EXPECT_NEAR(per_frame, 1000.0 / 60.0, 1e-12);
  EXPECT_EQ(StepsAfterFrames(1, per_frame), 16u);
  EXPECT_EQ(StepsAfterFrames(2, per_frame), 33u);
  EXPECT_EQ(StepsAfterFrames(3, per_frame), 50u) << "0.05 s exactly, whatever the rounding";
  EXPECT_EQ(StepsAfterFrames(6, StepsPerFrame(1.0 / 60.0, 1.0, 1e-3)), 100u);
  EXPECT_EQ(StepsAfterFrames(60, StepsPerFrame(1.0 / 60.0, 0.5, 5e-4)), 1000u);
  // As fast as possible (factor 0) has no time per frame to show: stepped frames stand still.
  EXPECT_EQ(StepsPerFrame(1.0 / 60.0, 0.0, 1e-3), 0.0);
  EXPECT_EQ(StepsPerFrame(1.0 / 60.0, -1.0, 1e-3), 0.0);
}

// A paused runtime, as the Application starts it.
std::unique_ptr<SimRuntime> PausedRuntime() {
  auto runtime = std::make_unique<SimRuntime>(testing::PileScene(2, 1e-3), 1.0);
  runtime->Post(command::Pause{});
  runtime->Start();
  return runtime;
}

TEST(SimStepping, APausedSimIsSteppedToExactlyTheStepAsked) {
  const std::unique_ptr<SimRuntime> runtime = PausedRuntime();
  const auto never = [] { return false; };
  StepSimTo(*runtime, 25, never);
  EXPECT_EQ(runtime->Latest()->step_index, 25u);
  StepSimTo(*runtime, 25, never);  // there already: no step posted
  StepSimTo(*runtime, 26, never);
  EXPECT_EQ(runtime->Latest()->step_index, 26u);
  EXPECT_TRUE(runtime->Latest()->paused);
}

TEST(SimStepping, AStopConditionCutsTheWaitShort) {
  const std::unique_ptr<SimRuntime> runtime = PausedRuntime();
  int asked = 0;
  // An error to show at once: the first look ends the wait, whether the steps came or not.
  StepSimTo(*runtime, 5, [&] { return ++asked > 0; });
  EXPECT_EQ(asked, 1);
}

TEST(SimStepping, ARunningSimIsPausedWithNoStepUnderWay) {
  auto runtime = std::make_unique<SimRuntime>(testing::PileScene(2, 1e-3), 0.0);
  runtime->Start();  // as fast as possible
  ASSERT_TRUE(testing::WaitFor([&] { return runtime->Latest()->step_index > 5; }, 120));
  PauseSim(*runtime);
  ASSERT_TRUE(runtime->Latest()->paused);
  const uint64_t step = runtime->Latest()->step_index;
  StepSimTo(*runtime, step + 3, [] { return false; });
  EXPECT_EQ(runtime->Latest()->step_index, step + 3) << "paused: only the steps posted";
}

TEST(SimStepping, TheGhostIsWaitedForUntilItHasCaughtUp) {
  const std::unique_ptr<SimRuntime> runtime = PausedRuntime();
  command::StartGhost ghost;
  ghost.overrides.approximation = ContactApproximation::kSap;
  runtime->Post(ghost);
  StepSimTo(*runtime, 40, [] { return false; });
  ASSERT_TRUE(WaitForGhost(*runtime, *runtime->Latest()));
  ASSERT_NE(runtime->LatestGhost(), nullptr);
  EXPECT_GE(runtime->LatestGhost()->step_index, 40u);
}

TEST(SimStepping, AWaitWhoseConditionHoldsEndsAtOnce) {
  int polls = 0;
  EXPECT_TRUE(WaitWithoutStall([&] { return ++polls >= 3; }, [] { return uint64_t{0}; }));
  EXPECT_EQ(polls, 3);
}

}  // namespace
}  // namespace contactlab
