// DrawnForceArrowLength: the layers' scale for short arrows, then ever slower growth, bounded by
// a fraction of the view (the renderer's use: renderer_test.cc).
#include "render/force_arrow_length.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace contactlab {
namespace {

TEST(ForceArrowLength, ShortArrowsKeepTheScaleLongOnesStayBelowTheMaximum) {
  constexpr float kMax = 0.06f;  // e.g. 15 % of a 40 cm view
  EXPECT_EQ(DrawnForceArrowLength(0.01f, kMax), 0.01f);
  EXPECT_EQ(DrawnForceArrowLength(0.03f, kMax), 0.03f);  // the knee: half the maximum
  // A 30 N grip at 1 cm/N: 30 cm, drawn just short of the maximum.
  const float grip = DrawnForceArrowLength(0.3f, kMax);
  EXPECT_LT(grip, kMax);
  EXPECT_GT(grip, 0.95f * kMax);
  EXPECT_LE(DrawnForceArrowLength(1e6f, kMax), kMax);
  // Larger forces are drawn longer (until float rounding reaches the maximum), and the curve
  // leaves the knee with slope 1: no kink.
  float previous = 0;
  for (float l = 0.001f; l < 0.2f; l += 0.001f) {
    const float drawn = DrawnForceArrowLength(l, kMax);
    EXPECT_GT(drawn, previous) << l;
    previous = drawn;
  }
  const float h = 1e-4f;
  EXPECT_NEAR((DrawnForceArrowLength(0.03f + h, kMax) - 0.03f) / h, 1.0f, 0.01f);
}

TEST(ForceArrowLength, TheMaximumIsAFractionOfTheViewWhereTheArrowStarts) {
  // 1 mm pixels in a 600 pixel view: the view is 60 cm tall there.
  EXPECT_FLOAT_EQ(MaxForceArrowLength(1e-3f, 600.0f), kMaxForceArrowViewFraction * 0.6f);
}

TEST(ForceArrowLength, UnusableInputDrawsNothingOrTheScale) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(DrawnForceArrowLength(nan, 0.06f), 0.0f);
  EXPECT_EQ(DrawnForceArrowLength(-1.0f, 0.06f), 0.0f);
  EXPECT_EQ(DrawnForceArrowLength(0.0f, 0.06f), 0.0f);
  EXPECT_EQ(DrawnForceArrowLength(0.3f, 0.0f), 0.3f);  // no view to fit: the scale
  EXPECT_EQ(DrawnForceArrowLength(0.3f, nan), 0.3f);
}

}  // namespace
}  // namespace contactlab
