// Contact vectors' arrow lengths (render/vector_scaling.h) against lengths worked by hand.
#include "render/vector_scaling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "render/force_arrow_length.h"

namespace contactlab {
namespace {

constexpr float kFixed_m = 0.04f, kMax_m = 1.0f;  // the knee at 0.5 m: no compression below

TEST(VectorScaling, LinearIsTheScaleTimesTheMagnitude) {
  const VectorStyle style{.scale_m_per_unit = 0.01f, .reference = 1.0f, .threshold = 0.0f};
  EXPECT_FLOAT_EQ(ArrowLength(3.0f, style, VectorScaling::kLinear, kFixed_m, kMax_m), 0.03f);
  // Beyond the knee compressed as force arrows always were.
  EXPECT_FLOAT_EQ(ArrowLength(80.0f, style, VectorScaling::kLinear, kFixed_m, kMax_m),
                  DrawnForceArrowLength(0.8f, kMax_m));
}

TEST(VectorScaling, LogKeepsSmallVectorsAndAddsAFixedLengthPerDecade) {
  // s·r·ln(1 + |v|/r) with s = 0.01 m/N, r = 1 N: 0.01 N is 0.1 mm as linear; 99 N and 999 N
  // differ by s·r·ln(10) = 2.3 cm.
  const VectorStyle style{.scale_m_per_unit = 0.01f, .reference = 1.0f, .threshold = 0.0f};
  EXPECT_NEAR(ArrowLength(0.01f, style, VectorScaling::kLog, kFixed_m, kMax_m), 1e-4f, 1e-6f);
  const float l99 = ArrowLength(99.0f, style, VectorScaling::kLog, kFixed_m, kMax_m);
  const float l999 = ArrowLength(999.0f, style, VectorScaling::kLog, kFixed_m, kMax_m);
  EXPECT_NEAR(l99, 0.01f * std::log(100.0f), 1e-6f);
  EXPECT_NEAR(l999 - l99, 0.01f * std::log(10.0f), 1e-6f);
}

TEST(VectorScaling, FixedIgnoresTheMagnitudeAndTheThresholdHidesSmallVectors) {
  const VectorStyle style{.scale_m_per_unit = 0.01f, .reference = 1.0f, .threshold = 0.5f};
  for (const VectorScaling s :
       {VectorScaling::kLinear, VectorScaling::kLog, VectorScaling::kFixed}) {
    EXPECT_EQ(ArrowLength(0.5f, style, s, kFixed_m, kMax_m), 0.0f) << VectorScalingName(s);
    EXPECT_EQ(ArrowLength(std::numeric_limits<float>::quiet_NaN(), style, s, kFixed_m, kMax_m),
              0.0f);
    EXPECT_GT(ArrowLength(0.6f, style, s, kFixed_m, kMax_m), 0.0f) << VectorScalingName(s);
  }
  EXPECT_EQ(ArrowLength(0.6f, style, VectorScaling::kFixed, kFixed_m, kMax_m), kFixed_m);
  EXPECT_EQ(ArrowLength(600.0f, style, VectorScaling::kFixed, kFixed_m, kMax_m), kFixed_m);
  // Zero is never an arrow, even with no threshold.
  EXPECT_EQ(ArrowLength(0.0f, VectorStyle{}, VectorScaling::kFixed, kFixed_m, kMax_m), 0.0f);
}

TEST(VectorScaling, NamesRoundTrip) {
  for (const VectorScaling s :
       {VectorScaling::kLinear, VectorScaling::kLog, VectorScaling::kFixed}) {
    EXPECT_EQ(ParseVectorScaling(VectorScalingName(s)), s);
  }
  EXPECT_FALSE(ParseVectorScaling("logarithmic").has_value());
}

}  // namespace
}  // namespace contactlab
