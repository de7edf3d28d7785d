// The slip meter on the sim thread (docs/architecture.md §5, The slip meter): measured every step
// for the plot body (the held object by default), published with the snapshot and, losslessly,
// in the plot samples; a reset or another plot body starts it afresh.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "app/teleop/slip_meter.h"
#include "io/scene_loader.h"
#include "test_support/runtime_waits.h"

namespace contactlab {
namespace {

using testing::StepAndWait;
using testing::WaitFor;

TEST(SimRuntimeSlipMeter, MeasuresTheHeldObjectEveryStepAndRestartsAtAReset) {
  const SceneSpec scene = LoadSceneFile(ResolveScenePath("peg_in_hole"));
  const int peg = scene.FindBody("peg"), hand = scene.FindBody("panda_hand");
  EXPECT_EQ(DefaultPlotBody(scene), peg);  // the scene's held_object
  SimRuntime rt(scene);
  rt.Post(command::Pause{});
  rt.Start();
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->paused; }, 60));
  const std::shared_ptr<const Snapshot> initial = rt.Latest();  // held: its slot stays ours
  ASSERT_TRUE(initial->slip_meter.active);
  EXPECT_EQ(initial->slip_meter.reading.body, peg);
  EXPECT_EQ(initial->slip_meter.reading.hand, hand);
  StepAndWait(&rt, 20, 120);
  const std::shared_ptr<const Snapshot> s = rt.Latest();
  const SlipReading& r = s->slip_meter.reading;
  EXPECT_TRUE(r.held);
  EXPECT_TRUE(r.has_slip);
  EXPECT_EQ(r.time_s, s->time_s);
  EXPECT_NEAR(r.held_since_s, scene.contact_settings.dt_s, 1e-15);
  EXPECT_GT(r.creep_path_m, 0);
  // The plot samples carry every step's slip speed; the last one is the snapshot's.
  std::vector<PlotSample> samples;
  rt.DrainPlotSamples(&samples);
  ASSERT_FALSE(samples.empty());
  EXPECT_EQ(samples.back().meter_slip_speed_m_per_s, r.slip_speed_m_per_s());
  // The same body selected again (the UI does so at a new scene's first snapshot): the meter
  // goes on, the grasp still closed at the first step.
  rt.Post(command::SelectPlotBody{peg});
  StepAndWait(&rt, 1, 120);
  const std::shared_ptr<const Snapshot> again = rt.Latest();
  EXPECT_NEAR(again->slip_meter.reading.held_since_s, scene.contact_settings.dt_s, 1e-15);
  EXPECT_GT(again->slip_meter.reading.creep_path_m, r.creep_path_m);
  // Another plot body: the meter follows it, in the same hand's frame.
  const int table = scene.FindBody("table");
  rt.Post(command::SelectPlotBody{table});
  StepAndWait(&rt, 2, 120);
  const std::shared_ptr<const Snapshot> on_table = rt.Latest();
  EXPECT_EQ(on_table->slip_meter.reading.body, table);
  EXPECT_EQ(on_table->slip_meter.reading.hand, hand);
  EXPECT_FALSE(on_table->slip_meter.reading.held);
  // A reset: no slip until the first step, no creep.
  rt.Post(command::SelectPlotBody{-1});  // none selected: the held object again
  rt.Post(command::Reset{});
  ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index == 0; }, 60));
  const std::shared_ptr<const Snapshot> reset = rt.Latest();
  const SlipReading& after = reset->slip_meter.reading;
  EXPECT_EQ(after.body, peg);
  EXPECT_FALSE(after.has_slip);
  EXPECT_EQ(after.creep_path_m, 0);
  rt.Stop();
}

}  // namespace
}  // namespace contactlab
