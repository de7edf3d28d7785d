// GuiRunStats: the FrameStats of a run and the FrameTrace of --gui-stats, from the frames and
// snapshots it is given (times given, not read: the numbers are exact).
#include "ui/gui_run_stats.h"

#include <gtest/gtest.h>

#include <chrono>

namespace contactlab {
namespace {

using Clock = GuiRunStats::Clock;
using std::chrono::milliseconds;

const Clock::time_point kStart = Clock::time_point() + std::chrono::hours(2);

Snapshot At(uint64_t step, double time_s, Clock::time_point published) {
  Snapshot s;
  s.step_index = step;
  s.time_s = time_s;
  s.published = published;
  return s;
}

TEST(GuiRunStats, AFrameRunsStatisticsAreItsFramesOverItsWallTime) {
  GuiRunStats stats(kStart, 100);
  stats.AddFrame(20.0, 4.0, 3.0, {}, At(110, 0.11, kStart), 0);
  stats.AddFrame(50.0, 6.0, 5.0, {}, At(130, 0.13, kStart), 1);
  stats.AddFrame(30.0, 5.0, 4.0, {}, At(150, 0.15, kStart), 1);
  const FrameStats s =
      stats.Finish(kStart + milliseconds(120), At(160, 0.16, kStart), 2, 1, "label");
  EXPECT_EQ(s.frames, 3);
  EXPECT_DOUBLE_EQ(s.wall_s, 0.12);
  EXPECT_DOUBLE_EQ(s.mean_frame_ms, 40.0);  // wall time over frames, swap and sleeps included
  EXPECT_EQ(s.max_frame_ms, 50.0);
  EXPECT_DOUBLE_EQ(s.mean_work_ms, 4.0);  // the CPU time in our code
  EXPECT_EQ(s.sim_steps, 60u);
  EXPECT_EQ(s.sim_time_s, 0.16);
  EXPECT_EQ(s.errors, 2u);
  EXPECT_EQ(s.quality_level, 1);
  EXPECT_EQ(s.ghost_lag_s, -1.0) << "no ghost";
}

TEST(GuiRunStats, NoFramesNoMeansAndARunAfterAResetTakesNoNegativeSteps) {
  const GuiRunStats stats(kStart, 500);
  const FrameStats s = stats.Finish(kStart + milliseconds(10), At(3, 0.003, kStart), 0, 0, "");
  EXPECT_EQ(s.frames, 0);
  EXPECT_EQ(s.mean_frame_ms, 0.0);
  EXPECT_EQ(s.mean_work_ms, 0.0);
  EXPECT_EQ(s.sim_steps, 0u) << "the step index restarted below the run's first";
}

TEST(GuiRunStats, AGhostsLagIsReportedAtTheEnd) {
  const GuiRunStats stats(kStart, 0);
  Snapshot latest = At(10, 0.01, kStart);
  latest.ghost.active = true;
  latest.ghost.lag_s = 0.25;
  EXPECT_EQ(stats.Finish(kStart, latest, 0, 0, "").ghost_lag_s, 0.25);
}

TEST(GuiRunStats, TheTraceHoldsEveryFrameAndTheFinalQuality) {
  FrameTrace trace;
  trace.frame_ms = {99.0};  // of an earlier run: cleared
  GuiRunStats stats(kStart, 0, &trace);
  EXPECT_TRUE(trace.frame_ms.empty());
  stats.AddFrame(16.0, 3.0, 2.5, {8.0, 1.5, 6.0}, At(5, 0.005, kStart + milliseconds(10)), 0);
  stats.AddFrame(17.0, 3.5, 3.0, {9.0, 0.5, 7.0}, At(12, 0.012, kStart + milliseconds(25)), 2);
  stats.Finish(kStart + milliseconds(40), At(12, 0.012, kStart), 0, 2, "the label");
  EXPECT_EQ(trace.frame_ms, (std::vector<double>{16.0, 17.0}));
  EXPECT_EQ(trace.work_ms, (std::vector<double>{3.0, 3.5}));
  EXPECT_EQ(trace.work_cpu_ms, (std::vector<double>{2.5, 3.0}));
  EXPECT_EQ(trace.scene_ms, (std::vector<double>{8.0, 9.0}));
  EXPECT_EQ(trace.panels_ms, (std::vector<double>{1.5, 0.5}));
  EXPECT_EQ(trace.swap_ms, (std::vector<double>{6.0, 7.0}));
  ASSERT_EQ(trace.published_s.size(), 2u);
  EXPECT_DOUBLE_EQ(trace.published_s[0], 0.010);  // since the run began
  EXPECT_DOUBLE_EQ(trace.published_s[1], 0.025);
  EXPECT_EQ(trace.sim_time_s, (std::vector<double>{0.005, 0.012}));
  EXPECT_EQ(trace.quality_level, (std::vector<int>{0, 2}));
  EXPECT_EQ(trace.final_quality, "the label");
}

}  // namespace
}  // namespace contactlab
