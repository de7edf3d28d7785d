// Timeline: a recorded step, restored into any world of the same scene and taken again, is the
// original step bit for bit (state, inputs and settings recorded); the history is bounded.
#include "app/runtime/timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "test_support/pile_scene.h"

namespace contactlab {
namespace {

// A varying push on body 1 during steps [100, 200), as a user's mouse spring would give.
void Push(World* world, int step) {
  if (step >= 100 && step < 200) {
    world->SetExternalForce({1, Eigen::Vector3d(0.01, 0, 0), Eigen::Vector3d(0.02 * step, 0, 1)});
  } else {
    world->SetExternalForce({});
  }
}

ContactOverrides Approximation(ContactApproximation a) {
  ContactOverrides o;
  o.approximation = a;
  return o;
}

TEST(Timeline, RecordedStepsAreRecomputedBitForBit) {
  const SceneSpec scene = testing::PileScene(6, 2e-3);
  World world(scene);
  Timeline timeline(world, 10.0, SimRuntime::kTimelineBudget_bytes);
  std::vector<Eigen::VectorXd> q_after;
  for (int i = 0; i < 300; ++i) {
    Push(&world, i);
    if (i == 150) world.SetOverrides(Approximation(ContactApproximation::kSap));
    timeline.Record(world, i);
    ASSERT_TRUE(world.Step());
    q_after.push_back(world.q());
  }
  ASSERT_EQ(timeline.size(), 300);
  World other(scene);  // Lagged, no force: everything comes from the record
  for (int i : {0, 120, 149, 150, 299}) {
    timeline.Restore(i, &other);
    ASSERT_TRUE(other.Step());
    EXPECT_EQ(other.q(), q_after[i]) << "step " << i;
    EXPECT_EQ(other.approximation(),
              i < 150 ? ContactApproximation::kLagged : ContactApproximation::kSap);
  }
  // keep_settings: the world's own settings stay (a branch with new settings).
  other.SetOverrides(Approximation(ContactApproximation::kSimilar));
  timeline.Restore(120, &other, /*keep_settings=*/true);
  EXPECT_EQ(other.approximation(), ContactApproximation::kSimilar);
  EXPECT_EQ(other.inputs().external_force.f_Q_W, Eigen::Vector3d(0.02 * 120, 0, 1));
}

TEST(Timeline, KeepsTheNewestStepsWithinItsDuration) {
  const SceneSpec scene = testing::PileScene(2, 2e-3);
  World world(scene);
  Timeline timeline(
      world, 0.1, SimRuntime::kTimelineBudget_bytes);  // 50 steps of 2 ms, plus the one in progress
  ASSERT_EQ(timeline.capacity(), 51);
  for (int i = 0; i < 200; ++i) {
    timeline.Record(world, i);
    ASSERT_TRUE(world.Step());
  }
  EXPECT_EQ(timeline.size(), 51);
  EXPECT_EQ(timeline.step_index(0), 149u);
  EXPECT_EQ(timeline.step_index(50), 199u);
  // Per record: step index, time, settings index, the step sizes (last, next, its own), q (2 × 7),
  // v (2 × 6), the external force (7).
  const size_t record_doubles = 6 + 14 + 12 + 7;
  EXPECT_GE(timeline.memory_bytes(), 51 * record_doubles * sizeof(double));
  EXPECT_LT(timeline.memory_bytes(), 51 * record_doubles * sizeof(double) + 1024);
  // Find: the step in progress at a time.
  EXPECT_EQ(timeline.Find(timeline.time_s(10) + 1e-4), 10);
  EXPECT_EQ(timeline.Find(-1.0), 0);
  EXPECT_EQ(timeline.Find(1e9), 50);
  timeline.TruncateAfter(20);
  EXPECT_EQ(timeline.size(), 21);
  EXPECT_EQ(timeline.step_index(20), 169u);
  timeline.Clear();
  EXPECT_EQ(timeline.size(), 0);
  EXPECT_EQ(timeline.Find(0.0), -1);
}

// Find at a record's exact start time (as the UI asks for a recorded step's own time): that
// record's step is the one in progress then ("starting at or before", timeline.h), not the one
// before it, which has just ended. The 51 records held after 200 steps of 2 ms are steps
// 149 … 199: record i starts at (149 + i) · 2 ms.
TEST(Timeline, FindAtARecordsExactTimeGivesThatRecord) {
  const SceneSpec scene = testing::PileScene(2, 2e-3);
  World world(scene);
  Timeline timeline(world, 0.1, SimRuntime::kTimelineBudget_bytes);
  for (int i = 0; i < 200; ++i) {
    timeline.Record(world, i);
    ASSERT_TRUE(world.Step());
  }
  ASSERT_EQ(timeline.size(), 51);
  for (int i : {0, 1, 10, 25, 49, 50}) {  // the oldest, the newest and some in between
    EXPECT_NEAR(timeline.time_s(i), (149 + i) * 2e-3, 1e-12) << "record " << i;
    EXPECT_EQ(timeline.Find(timeline.time_s(i)), i) << "record " << i;
    // Just before it starts, the previous step is still in progress (the oldest: none is, so
    // the oldest).
    EXPECT_EQ(timeline.Find(timeline.time_s(i) - 1e-4), std::max(i - 1, 0)) << "record " << i;
  }
}

// A slider moved every step for 4 spans of the history: the settings kept are only those of the
// records still held (memory bounded as in a long session), and each record restores its own.
TEST(Timeline, SettingsChangedEveryStepStayBoundedAndRestoreExactly) {
  const SceneSpec scene = testing::PileScene(2, 2e-3);
  World world(scene);
  Timeline timeline(world, 0.1, SimRuntime::kTimelineBudget_bytes);
  const size_t bounded_bytes = timeline.memory_bytes() + 2 * 51 * sizeof(ContactSettings);
  for (int i = 0; i < 4 * 51; ++i) {
    ContactOverrides o;
    o.stiffness_N_per_m = 1e5 + i;
    world.SetOverrides(o);
    timeline.Record(world, i);
    ASSERT_TRUE(world.Step());
    EXPECT_LE(timeline.memory_bytes(), bounded_bytes) << "step " << i;
  }
  World other(scene);
  for (int i : {0, 25, 50}) {
    timeline.Restore(i, &other);
    const int step = static_cast<int>(timeline.step_index(i));
    ContactOverrides o;
    o.stiffness_N_per_m = 1e5 + step;
    World expected(scene);
    expected.SetOverrides(o);
    EXPECT_EQ(other.contact_settings(), expected.contact_settings()) << "record " << i;
  }
}

TEST(Timeline, KeepsTheDurationOrTheMemoryBudgetWhicheverIsLess) {
  // A long history of a large scene at a small δt must not take gigabytes (a 40 s ring of
  // clutter at 0.5 ms would be 340 MB): the budget caps the records, the duration otherwise.
  const World world(testing::PileScene(40, 5e-4, ContactApproximation::kLagged));
  const size_t budget = size_t{4} << 20;
  const Timeline capped(world, 40.0, budget);
  EXPECT_LE(capped.memory_bytes(), budget);
  EXPECT_GT(capped.memory_bytes(), budget * 9 / 10);  // as many records as fit
  EXPECT_LT(capped.capacity() * world.dt(), 40.0);
  const Timeline timed(world, 0.25, budget);
  EXPECT_EQ(timed.capacity(), 501);  // 0.25 s of 0.5 ms steps, plus the one in progress
  EXPECT_LT(timed.memory_bytes(), budget);
}

// Error control (docs/contact-model.md §1.2): steps vary in size and the next one's depends on
// the last's error, which World::SetState forgets. Each record keeps the step-size state it
// started with and its own size, so a restored step is the original bit for bit, and the
// recorded times are a chain of the recorded sizes. The ring is sized by δt_max / 10.
TEST(Timeline, ErrorControlledStepsAreRecomputedBitForBitWithTheirStepSizes) {
  const SceneSpec scene = testing::PileScene(4, 2e-3);
  World world(scene);
  ContactOverrides o;
  o.integrator = TimeIntegration::ErrorControlled(1e-4);
  world.SetOverrides(o);
  Timeline timeline(world, 0.1, SimRuntime::kTimelineBudget_bytes);
  EXPECT_NEAR(timeline.capacity(), 501, 1) << "0.1 s of 0.2 ms steps, plus the one in progress";
  std::vector<Eigen::VectorXd> q_after, v_after;
  for (int i = 0; i < 120; ++i) {
    Push(&world, i + 90);
    timeline.Record(world, i);
    ASSERT_TRUE(world.Step());
    timeline.Taken(world);
    q_after.push_back(world.q());
    v_after.push_back(world.v());
  }
  double smallest = 1, largest = 0;
  for (int i = 0; i + 1 < timeline.size(); ++i) {
    EXPECT_EQ(timeline.time_s(i + 1), timeline.time_s(i) + timeline.dt_s(i)) << i;
    smallest = std::min(smallest, timeline.dt_s(i));
    largest = std::max(largest, timeline.dt_s(i));
  }
  EXPECT_DOUBLE_EQ(timeline.dt_s(0), 2e-4) << "the first step: a tenth of δt_max";
  EXPECT_GT(largest, 2 * smallest) << "the sizes vary";
  World other(scene);  // symplectic Euler, no force: everything comes from the record
  for (int i : {0, 1, 40, 77, 119}) {
    timeline.Restore(i, &other);
    ASSERT_TRUE(other.Step());
    EXPECT_EQ(other.last_stats().dt_s, timeline.dt_s(i)) << "step " << i;
    EXPECT_EQ(other.q(), q_after[i]) << "step " << i;
    EXPECT_EQ(other.v(), v_after[i]) << "step " << i;
  }
}

}  // namespace
}  // namespace contactlab
