// PlotFeed: one plot row per sample of the run shown (none of an earlier run), and the ghost's
// difference rows from its samples paired with the main run's at the same time (interpolated
// between main samples when the ghost steps other sizes), however far the ghost lags; with no
// ghost, nothing waits.
#include "ui/plot_feed.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ui/panels/inspect_panels.h"
#include "ui/state/ui_state.h"

namespace contactlab {
namespace {

PlotSample Main(uint64_t step, uint64_t run = 0) {
  PlotSample s;
  s.step_index = step;
  s.run = run;
  s.time_s = 1e-3 * static_cast<double>(step);
  s.normal_force_N = 10.0 + static_cast<double>(step);
  s.friction_force_N = 2.0;
  s.slip_speed_m_per_s = 0.5;
  s.signed_distance_m = -1e-4;
  s.iterations = 3;
  s.barrier_iterations = 41;
  s.step_ms = 0.25;
  s.grip_force_N = 7.0;
  s.meter_slip_speed_m_per_s = 1e-4;  // 100 µm/s: 2 on the slip meter's log10 µm/s plot
  s.body_position_W = {0.0, 0.0, 0.1};
  return s;
}

GhostSample Ghost(uint64_t step) {
  GhostSample g;
  g.step_index = step;
  g.time_s = 1e-3 * static_cast<double>(step);
  g.body_position_W = {0.003, 0.004, 0.1};  // 5 mm from the main run's
  g.normal_force_N = 10.0 + static_cast<double>(step) + 1.5;
  g.slip_speed_m_per_s = 0.25;
  return g;
}

PlotData GhostPlots() { return InspectState{}.ghost_plots; }

TEST(PlotFeed, EachSampleIsARowOfThePlotSeries) {
  PlotFeed feed;
  EXPECT_EQ(feed.plots().num_series(), static_cast<size_t>(kNumPlotSeries));
  EXPECT_EQ(feed.plots().capacity(), PlotFeed::kHistorySamples);
  feed.AppendMain({Main(1), Main(2)}, false);
  ASSERT_EQ(feed.plots().size(), 2u);
  EXPECT_EQ(feed.plots().time(1), 2e-3);
  EXPECT_EQ(feed.plots().value(kSeriesNormalForce, 1), 12.0);
  EXPECT_EQ(feed.plots().value(kSeriesFrictionForce, 1), 2.0);
  EXPECT_EQ(feed.plots().value(kSeriesSlipSpeed, 1), 0.5);
  EXPECT_EQ(feed.plots().value(kSeriesSignedDistance, 1), -1e-4);
  EXPECT_EQ(feed.plots().value(kSeriesIterations, 1), 3.0);
  EXPECT_EQ(feed.plots().value(kSeriesStepMs, 1), 0.25);
  EXPECT_EQ(feed.plots().value(kSeriesGripForce, 1), 7.0);
  EXPECT_NEAR(feed.plots().value(kSeriesMeterSlip, 1), 2.0, 1e-12);
  EXPECT_EQ(feed.plots().value(kSeriesBarrierIterations, 1), 41.0);
  EXPECT_EQ(feed.waiting(), 0u) << "no ghost to wait for";
}

TEST(PlotFeed, ANewRunStartsEmptyAndSkipsTheSamplesOfEarlierOnes) {
  PlotFeed feed;
  feed.AppendMain({Main(1, 0), Main(2, 0)}, false);
  feed.StartRun(3);
  EXPECT_EQ(feed.plots().size(), 0u);
  // Samples of the old scene still on their way, then the new one's.
  feed.AppendMain({Main(3, 2), Main(1, 3), Main(2, 4)}, false);
  ASSERT_EQ(feed.plots().size(), 2u);
  EXPECT_EQ(feed.plots().time(0), 1e-3);
}

TEST(PlotFeed, GhostSamplesArePairedWithTheMainRunsOfTheSameStep) {
  PlotFeed feed;
  PlotData ghost_plots = GhostPlots();
  feed.AppendMain({Main(1), Main(2), Main(3), Main(4)}, true);
  EXPECT_EQ(feed.waiting(), 4u);
  // The ghost lags: steps 1 and 2 now (step 1 was missed, say: its main sample is dropped).
  feed.AppendGhost({Ghost(2)}, &ghost_plots);
  ASSERT_EQ(ghost_plots.size(), 1u);
  EXPECT_EQ(ghost_plots.time(0), 2e-3);
  EXPECT_NEAR(ghost_plots.value(kGhostPositionDifference, 0), 0.005, 1e-15);
  EXPECT_NEAR(ghost_plots.value(kGhostNormalForceDifference, 0), 1.5, 1e-12);
  EXPECT_EQ(ghost_plots.value(kGhostSlipSpeedDifference, 0), -0.25);
  EXPECT_EQ(feed.waiting(), 3u) << "steps 2 (until a later ghost step), 3 and 4";
  // A ghost step whose main sample is gone makes no row.
  feed.AppendGhost({Ghost(3), Ghost(4), Ghost(5)}, &ghost_plots);
  EXPECT_EQ(ghost_plots.size(), 3u);
  EXPECT_EQ(ghost_plots.time(2), 4e-3);
}

// A ghost under another integrator steps other sizes: its samples are compared with the main
// run interpolated to their times, and one ahead of the newest main sample waits for the main
// run instead of being dropped.
TEST(PlotFeed, GhostSamplesOfOtherStepSizesAreComparedWithTheMainRunAtTheirTimes) {
  PlotFeed feed;
  PlotData ghost_plots = GhostPlots();
  feed.AppendMain({Main(1), Main(2), Main(3)}, true);
  GhostSample between = Ghost(1);
  between.time_s = 1.25e-3;  // a quarter of the way from main step 1 to 2: normal force 11.25
  between.normal_force_N = 12.0;
  GhostSample ahead = Ghost(3);
  ahead.time_s = 3.5e-3;  // past the newest main sample
  ahead.normal_force_N = 20.0;
  feed.AppendGhost({between, ahead}, &ghost_plots);
  ASSERT_EQ(ghost_plots.size(), 1u);
  EXPECT_EQ(ghost_plots.time(0), 1.25e-3);
  EXPECT_NEAR(ghost_plots.value(kGhostNormalForceDifference, 0), 0.75, 1e-12);
  EXPECT_NEAR(ghost_plots.value(kGhostPositionDifference, 0), 0.005, 1e-15);
  EXPECT_EQ(feed.ghost_waiting(), 1u);
  feed.AppendMain({Main(4)}, true);  // normal force 14 at 4 ms: 13.5 at 3.5 ms
  feed.AppendGhost({}, &ghost_plots);
  ASSERT_EQ(ghost_plots.size(), 2u);
  EXPECT_EQ(ghost_plots.time(1), 3.5e-3);
  EXPECT_NEAR(ghost_plots.value(kGhostNormalForceDifference, 1), 6.5, 1e-12);
  EXPECT_EQ(feed.ghost_waiting(), 0u);
}

TEST(PlotFeed, WithoutAGhostNothingWaitsAndAFarBehindGhostForgetsTheOldest) {
  PlotFeed feed;
  PlotData ghost_plots = GhostPlots();
  feed.AppendMain({Main(1), Main(2)}, true);
  feed.ForgetGhost();
  EXPECT_EQ(feed.waiting(), 0u);

  std::vector<PlotSample> many;
  for (uint64_t s = 1; s <= PlotFeed::kMaxWaiting + 10; ++s) many.push_back(Main(s));
  feed.AppendMain(many, true);
  feed.AppendGhost({}, &ghost_plots);
  EXPECT_EQ(feed.waiting(), PlotFeed::kMaxWaiting);
  feed.AppendGhost({Ghost(5)}, &ghost_plots);
  EXPECT_EQ(ghost_plots.size(), 0u) << "step 5 was among the oldest, forgotten";
  feed.AppendGhost({Ghost(20)}, &ghost_plots);
  EXPECT_EQ(ghost_plots.size(), 1u);
}

}  // namespace
}  // namespace contactlab
