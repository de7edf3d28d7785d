// The solver panel's count of non-converged steps comes from the lossless plot sample stream,
// per run (a reset or a new scene starts the count afresh).
#include <gtest/gtest.h>

#include <vector>

#include "app/runtime/sim_runtime.h"
#include "ui/panels/panels.h"
#include "ui/state/ui_state.h"

namespace contactlab {
namespace {

PlotSample Sample(double t, bool converged, uint64_t run = 0) {
  PlotSample s;
  s.time_s = t;
  s.converged = converged;
  s.run = run;
  return s;
}

TEST(Convergence, CountsEveryNonConvergedSampleEvenBetweenSnapshots) {
  UiState ui;
  // 1000 steps drained in one frame (the renderer saw one snapshot of them): all counted.
  std::vector<PlotSample> samples;
  for (int i = 1; i <= 1000; ++i) samples.push_back(Sample(i * 1e-3, i % 100 != 0));
  CountConvergence(samples, &ui);
  EXPECT_EQ(ui.nonconverged_seen, 10);
  EXPECT_DOUBLE_EQ(ui.last_nonconverged_time_s, 1.0);
  CountConvergence({Sample(1.001, false), Sample(1.002, true)}, &ui);
  EXPECT_EQ(ui.nonconverged_seen, 11);
  EXPECT_DOUBLE_EQ(ui.last_nonconverged_time_s, 1.001);
}

TEST(Convergence, ANewRunStartsAfreshAndOlderSamplesAreIgnored) {
  UiState ui;
  CountConvergence({Sample(0.001, false), Sample(0.002, false)}, &ui);
  EXPECT_EQ(ui.nonconverged_seen, 2);
  // A reset while paused: the snapshot shows the new run before any sample does.
  Snapshot reset;
  reset.run = 1;
  TrackConvergence(reset, &ui);
  EXPECT_EQ(ui.nonconverged_seen, 0);
  EXPECT_EQ(ui.last_nonconverged_time_s, -1);
  // Samples of the old run drained late do not count; the new run's do.
  CountConvergence({Sample(0.003, false, 0), Sample(0.001, false, 1), Sample(0.002, true, 1)}, &ui);
  EXPECT_EQ(ui.nonconverged_seen, 1);
  EXPECT_DOUBLE_EQ(ui.last_nonconverged_time_s, 0.001);
  // A reset the samples show first (while running): counted from its first step on, and the
  // snapshot of the same run changes nothing.
  CountConvergence({Sample(0.003, false, 1), Sample(0.001, false, 2)}, &ui);
  EXPECT_EQ(ui.nonconverged_seen, 1);
  reset.run = 2;
  TrackConvergence(reset, &ui);
  EXPECT_EQ(ui.nonconverged_seen, 1);
}

}  // namespace
}  // namespace contactlab
