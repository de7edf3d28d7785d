#include "engine/world/step_size_controller.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace contactlab {
namespace {

constexpr StepSizeLimits kLimits{.accuracy = 1e-3, .dt_max_s = 1e-2, .dt_min_s = 1e-7};

TEST(StepSizeController, AcceptsWithinTheAccuracyAndGrowsByTheSquareRootRule) {
  // e = ε/16: the ideal size is 0.9 · 4 h.
  const StepSizeDecision d = DecideStepSize(1e-3, 1e-3 / 16, kLimits);
  EXPECT_TRUE(d.accept);
  EXPECT_DOUBLE_EQ(d.next_dt_s, 3.6e-3);
  EXPECT_FALSE(d.at_floor);
}

TEST(StepSizeController, GrowthIsCappedAtFiveAndByDtMax) {
  EXPECT_DOUBLE_EQ(DecideStepSize(1e-4, 1e-12, kLimits).next_dt_s, 5e-4);
  EXPECT_DOUBLE_EQ(DecideStepSize(1e-4, 0, kLimits).next_dt_s, 5e-4);
  EXPECT_DOUBLE_EQ(DecideStepSize(4e-3, 0, kLimits).next_dt_s, 1e-2);
}

TEST(StepSizeController, TheDeadBandKeepsTheSize) {
  // Ideal 0.9 h √(ε/e): 1.1 h (below the 1.2× growth threshold) and 0.95 h (a shrink while
  // accepted) both keep h.
  const double h = 2e-3;
  const double grow_a_little = 1e-3 / std::pow(1.1 / 0.9, 2);
  const double shrink_a_little = 1e-3 / std::pow(0.95 / 0.9, 2);
  EXPECT_DOUBLE_EQ(DecideStepSize(h, grow_a_little, kLimits).next_dt_s, h);
  const StepSizeDecision d = DecideStepSize(h, shrink_a_little, kLimits);
  EXPECT_TRUE(d.accept);
  EXPECT_DOUBLE_EQ(d.next_dt_s, h);
}

TEST(StepSizeController, RejectsAboveTheAccuracyShrinkingAtLeastToNineTenths) {
  // e = 1.01 ε: the ideal 0.9/√1.01 h ≈ 0.896 h; e just above: at most 0.9 h.
  const double h = 2e-3;
  StepSizeDecision d = DecideStepSize(h, 1.0001e-3, kLimits);
  EXPECT_FALSE(d.accept);
  EXPECT_LE(d.next_dt_s, 0.9 * h);
  // e = 400 ε: the ideal 0.9 h / 20, limited to a tenth.
  d = DecideStepSize(h, 0.4, kLimits);
  EXPECT_FALSE(d.accept);
  EXPECT_DOUBLE_EQ(d.next_dt_s, 0.1 * h);
}

TEST(StepSizeController, NonFiniteErrorsRejectAndShrinkTenfold) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const StepSizeDecision d = DecideStepSize(1e-3, nan, kLimits);
  EXPECT_FALSE(d.accept);
  EXPECT_DOUBLE_EQ(d.next_dt_s, 1e-4);
  EXPECT_FALSE(DecideStepSize(1e-3, std::numeric_limits<double>::infinity(), kLimits).accept);
}

TEST(StepSizeController, AtTheFloorTheStepIsTakenAndFlagged) {
  const StepSizeDecision d = DecideStepSize(1e-7, 1.0, kLimits);
  EXPECT_TRUE(d.accept);
  EXPECT_TRUE(d.at_floor);
  EXPECT_DOUBLE_EQ(d.next_dt_s, 1e-7);
  // Above the floor a rejection never proposes less than it.
  EXPECT_DOUBLE_EQ(DecideStepSize(5e-7, 1.0, kLimits).next_dt_s, 1e-7);
}

}  // namespace
}  // namespace contactlab
