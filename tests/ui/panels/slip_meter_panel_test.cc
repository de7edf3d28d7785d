// The Slip meter section's text and plot value (ui/panels/slip_meter_panel.h) for readings with
// known numbers.
#include "ui/panels/slip_meter_panel.h"

#include <gtest/gtest.h>

#include <cmath>

#include "io/scene_loader.h"

namespace contactlab {
namespace {

TEST(SlipMeterPanel, SpeedsAreInMicronsPerSecondBelowAMillimetrePerSecondAndBothShow) {
  EXPECT_EQ(SlipSpeedLabel(3.2e-6), "3.2 µm/s = 0.0032 mm/s");
  EXPECT_EQ(SlipSpeedLabel(0.999e-3), "999 µm/s = 0.999 mm/s");
  EXPECT_EQ(SlipSpeedLabel(12.5e-3), "12.5 mm/s = 1.25e+04 µm/s");
  EXPECT_EQ(SlipSpeedLabel(0), "0 µm/s = 0 mm/s");
}

TEST(SlipMeterPanel, ThePlotIsLog10OfMicronsPerSecondFlooredAtANanometrePerSecond) {
  EXPECT_NEAR(SlipPlotValue(1e-6), 0, 1e-12);
  EXPECT_NEAR(SlipPlotValue(1e-3), 3, 1e-12);
  EXPECT_NEAR(SlipPlotValue(2.5e-5), std::log10(25.0), 1e-12);
  EXPECT_NEAR(SlipPlotValue(0), -3, 1e-12);
  EXPECT_TRUE(std::isnan(SlipPlotValue(NAN)));  // no slip measured: a gap in the line
}

TEST(SlipMeterPanel, TheLinesNameTheFramesHeldStateSlipAndCreep) {
  Snapshot s;
  s.scene = std::make_shared<const SceneSpec>(LoadSceneFile(ResolveScenePath("peg_in_hole")));
  SlipReading& r = s.slip_meter.reading;
  r.body = s.scene->FindBody("peg");
  r.hand = s.scene->FindBody("panda_hand");
  r.held = r.has_slip = true;
  r.hand_bodies_touching = 2;
  r.held_since_s = 0.001;
  r.v_slip_H = Eigen::Vector3d(0, 3e-6, -4e-6);  // 5 µm/s
  r.w_slip_rad_per_s = 2e-3;
  r.creep_path_m = 12e-6, r.creep_displacement_m = 10e-6, r.creep_angle_rad = 1e-3;
  std::vector<std::string> lines = SlipMeterLines(s);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0], "peg in panda_hand");
  EXPECT_EQ(lines[1], "held by 2 hand bodies since t = 0.001 s");
  EXPECT_EQ(lines[2], "slip 5 µm/s = 0.005 mm/s");
  EXPECT_EQ(lines[3], "v_H (0, 3, -4) µm/s");
  EXPECT_EQ(lines[4], "rotation 2 mrad/s");
  EXPECT_EQ(lines[5], "creep since closed: 12 µm path");
  EXPECT_EQ(lines[6], "  net 10 µm, turned 1 mrad");
  r.hand = -1;
  r.held = r.has_slip = false;
  r.hand_bodies_touching = 0;
  r.held_since_s = -1;
  r.creep_path_m = 0;
  lines = SlipMeterLines(s);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "peg in the world (no hand: world frame)");
  EXPECT_EQ(lines[1], "not held (0 hand bodies press)");
  EXPECT_EQ(lines[2], "slip: no step yet");
}

}  // namespace
}  // namespace contactlab
