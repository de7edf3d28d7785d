// --gui-stats from a given trace: the sim thread's real-time factor after the first second (over
// the rest, and its worst half second), the frames at the final render quality, and the JSON.
#include "ui/gui_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

namespace contactlab {
namespace {

// Snapshot samples every 0.1 s over `seconds`, simulated time advancing at `rate` except
// within [stall_from, stall_to), where the sim thread stands still.
FrameTrace Trace(double seconds, double rate, double stall_from = -1, double stall_to = -1) {
  FrameTrace trace;
  double sim = 0;
  for (int i = 0; i <= static_cast<int>(std::lround(seconds / 0.1)); ++i) {
    const double t = 0.1 * i;
    if (i > 0 && !(t > stall_from + 1e-9 && t <= stall_to + 1e-9)) sim += 0.1 * rate;
    trace.published_s.push_back(t);
    trace.sim_time_s.push_back(sim);
    trace.frame_ms.push_back(100.0);
    trace.work_ms.push_back(5.0);
    trace.work_cpu_ms.push_back(4.0);
    trace.scene_ms.push_back(60.0);
    trace.panels_ms.push_back(10.0);
    trace.swap_ms.push_back(25.0);
    trace.quality_level.push_back(0);
  }
  return trace;
}

TEST(GuiStats, TheRealTimeFactorIsMeasuredAfterTheFirstSecond) {
  const GuiRunSummary steady = SummarizeGuiRun(Trace(3.0, 0.5));
  EXPECT_NEAR(steady.realtime_factor_mean, 0.5, 1e-9);
  EXPECT_NEAR(steady.realtime_factor_min, 0.5, 1e-9);
  // A first second at another pace (start-up) does not count.
  FrameTrace slow_start = Trace(3.0, 0.5);
  for (size_t i = 0; i < slow_start.sim_time_s.size(); ++i) {
    if (slow_start.published_s[i] < 1.0 - 1e-9) slow_start.sim_time_s[i] = 0;
  }
  EXPECT_NEAR(SummarizeGuiRun(slow_start).realtime_factor_mean, 0.5, 1e-9);
}

TEST(GuiStats, AStallShowsInTheWorstHalfSecond) {
  const GuiRunSummary s = SummarizeGuiRun(Trace(4.0, 1.0, 2.0, 2.5));
  EXPECT_NEAR(s.realtime_factor_min, 0.0, 1e-9) << "half a second without a step";
  EXPECT_NEAR(s.realtime_factor_mean, 2.5 / 3.0, 1e-9);  // 2.5 s simulated in 3 s after 1 s
}

TEST(GuiStats, ARunOfASecondOrLessSaysNothingOfTheRealTimeFactor) {
  const GuiRunSummary s = SummarizeGuiRun(Trace(0.9, 1.0));
  EXPECT_TRUE(std::isnan(s.realtime_factor_mean));
  EXPECT_TRUE(std::isnan(s.realtime_factor_min));
  EXPECT_TRUE(std::isnan(SummarizeGuiRun(FrameTrace{}).realtime_factor_mean));
}

TEST(GuiStats, TheSettledFramesAreThoseAtTheFinalQuality) {
  FrameTrace trace = Trace(0.6, 1.0);  // 7 frames
  trace.quality_level = {0, 0, 1, 1, 2, 2, 2};
  trace.frame_ms = {10, 11, 20, 21, 30, 31, 32};
  trace.work_cpu_ms = {1, 1, 2, 2, 3, 4, 5};
  const GuiRunSummary s = SummarizeGuiRun(trace);
  EXPECT_EQ(s.quality_changes, 2);
  EXPECT_EQ(s.settled_frame_ms, (std::vector<double>{30, 31, 32}));
  EXPECT_EQ(s.settled_work_cpu_ms, (std::vector<double>{3, 4, 5}));
}

TEST(GuiStats, TheJsonHoldsTheSettingsAndTheSummary) {
  ApplicationOptions options;
  options.scene.name = "a scene";
  options.width = 640;
  FrameStats stats;
  stats.frames = 41;
  stats.wall_s = 4.1;
  FrameTrace trace = Trace(4.0, 1.0, 2.0, 2.5);
  trace.final_quality = "the label";
  const std::string path = ::testing::TempDir() + "/gui_stats_test.json";
  WriteGuiStats(path, options, 4.0, stats, trace);
  std::ifstream in(path);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* expected :
       {"\"scene\": \"a scene\"", "\"width\": 640", "\"frames\": 41", "\"fps\": 10,",
        "\"frame_ms\": {\"mean\": 100, \"median\": 100, \"p99\": 100, \"max\": 100}",
        "\"work_ms\": {\"mean\": 5, \"median\": 5, \"p99\": 5}",
        "\"frame_cost_ms\": {\"scene\": {\"mean\": 60, \"median\": 60, \"p99\": 60}, "
        "\"panels\": {\"mean\": 10, \"median\": 10, \"p99\": 10}, "
        "\"swap\": {\"mean\": 25, \"median\": 25, \"p99\": 25}}",
        "\"label\": \"the label\"", "\"changes\": 0", "\"min_0.5s_window\": 0}"}) {
    EXPECT_NE(json.find(expected), std::string::npos) << expected << " in " << json;
  }
  EXPECT_THROW(WriteGuiStats("/no/such/dir/stats.json", options, 4.0, stats, trace),
               std::runtime_error);
}

}  // namespace
}  // namespace contactlab
