// The patch layer's automatic pressure range (what the colour bar and the renderer show) and
// the colour bar's labels.
#include "ui/widgets/pressure_color_bar.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "render/render_layers.h"

namespace contactlab {
namespace {

Snapshot WithMaxPressure(float max_Pa, uint64_t generation = 1, uint64_t run = 0) {
  Snapshot s;
  s.scene_generation = generation;
  s.run = run;
  if (max_Pa > 0) {
    s.hydroelastic.patches.emplace_back();
    s.hydroelastic.max_pressure_Pa = max_Pa;
  }
  return s;
}

TEST(AutoPressureRange, RisesAtOnceAndFallsWithItsTimeConstant) {
  AutoPressureRange range;
  RenderLayers layers;
  range.Update(WithMaxPressure(1000), 0.016f, &layers);
  EXPECT_EQ(layers.pressure_min_Pa, 0.0f);
  EXPECT_EQ(layers.pressure_max_Pa, 1000.0f) << "the first frame takes the maximum";
  range.Update(WithMaxPressure(5000), 0.016f, &layers);
  EXPECT_EQ(layers.pressure_max_Pa, 5000.0f) << "an impact: at once, no saturated colours";
  // Falling back to 1 kPa: after one time constant (in many frames) 1/e of the excess is left.
  const int frames = 100;
  for (int i = 0; i < frames; ++i) {
    range.Update(WithMaxPressure(1000), AutoPressureRange::kDecay_s / frames, &layers);
  }
  EXPECT_NEAR(layers.pressure_max_Pa, 1000.0f + 4000.0f * std::exp(-1.0f), 1.0f);
  // Frames without patches (a bounce) keep the value; bad frame times change nothing.
  const float kept = layers.pressure_max_Pa;
  range.Update(WithMaxPressure(0), 0.5f, &layers);
  EXPECT_EQ(layers.pressure_max_Pa, kept);
  range.Update(WithMaxPressure(1000), std::numeric_limits<float>::quiet_NaN(), &layers);
  range.Update(WithMaxPressure(1000), -1.0f, &layers);
  EXPECT_EQ(layers.pressure_max_Pa, kept);
  // A reset (new run) or a new scene starts afresh.
  range.Update(WithMaxPressure(200, 1, 1), 0.016f, &layers);
  EXPECT_EQ(layers.pressure_max_Pa, 200.0f);
  range.Update(WithMaxPressure(0, 2, 1), 0.016f, &layers);
  EXPECT_EQ(layers.pressure_max_Pa, 0.0f) << "a new scene without patches: no stale range";
}

TEST(AutoPressureRange, LeavesAFixedRangeAlone) {
  AutoPressureRange range;
  RenderLayers layers;
  layers.pressure_auto = false;
  layers.pressure_min_Pa = 10;
  layers.pressure_max_Pa = 2e5f;
  range.Update(WithMaxPressure(1000), 0.016f, &layers);
  EXPECT_EQ(layers.pressure_min_Pa, 10.0f);
  EXPECT_EQ(layers.pressure_max_Pa, 2e5f);
}

TEST(PressureColorBar, LabelsShareTheTopsUnit) {
  EXPECT_EQ(FormatPressure(0.0f, 1270.0f), "0");
  EXPECT_EQ(FormatPressure(1270.0f, 1270.0f), "1.27 kPa");
  EXPECT_EQ(FormatPressure(635.0f, 1270.0f), "0.635 kPa");
  EXPECT_EQ(FormatPressure(850.0f, 850.0f), "850 Pa");
  EXPECT_EQ(FormatPressure(3.5e6f, 3.5e6f), "3.5 MPa");
  EXPECT_EQ(FormatPressure(2e9f, 2e9f), "2 GPa");
  EXPECT_EQ(FormatPressure(std::numeric_limits<float>::quiet_NaN(), 1.0f), "-");
  EXPECT_EQ(FormatPressure(5e4f, 0.0f), "50 kPa") << "no usable scale: the value's own unit";
}

TEST(PressureColorBar, SitsInTheSceneCorner) {
  const ColorBarRect r = PressureColorBarRect(960.0f, 400.0f);
  EXPECT_LT(r.x1, 960.0f);
  EXPECT_LT(r.y1, 400.0f);
  EXPECT_GT(r.x1 - r.x0, 100.0f);
  EXPECT_GT(r.y1 - r.y0, 30.0f);
}

}  // namespace
}  // namespace contactlab
