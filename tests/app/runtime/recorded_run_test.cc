// The timeline copied for a fit of the scene to its own run: the log's coordinates of every
// record's start state, and where the run stopped being the scene's own (its settings changed,
// or an input drove it).
#include "app/runtime/recorded_run.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "test_support/pile_scene.h"

namespace contactlab {
namespace {

TEST(RecordedRun, HoldsTheLoggedCoordinatesOfEveryRecordsStartState) {
  const SceneSpec scene = testing::PileScene(2, 2e-3);  // two floating spheres
  World world(scene);
  Timeline timeline(world, 10.0, SimRuntime::kTimelineBudget_bytes);
  std::vector<Eigen::VectorXd> q_before;
  for (int i = 0; i < 50; ++i) {
    q_before.push_back(world.q());
    timeline.Record(world, i);
    ASSERT_TRUE(world.Step());
    timeline.Taken(world);
  }
  const RecordedRun run = ExportRecordedRun(timeline, world);
  const std::string a = scene.bodies[1].body.name, b = scene.bodies[2].body.name;
  EXPECT_EQ(run.columns, (std::vector<std::string>{a + ".px", a + ".py", a + ".pz", b + ".px",
                                                   b + ".py", b + ".pz"}));
  ASSERT_EQ(run.values.rows(), 50);
  ASSERT_EQ(run.time_s.size(), 50u);
  EXPECT_EQ(run.settings, scene.contact_settings);
  for (int i : {0, 1, 49}) {
    EXPECT_EQ(run.time_s[i], timeline.time_s(i));
    const int qa = world.multibody().position_start(world.multibody_index(1));
    const int qb = world.multibody().position_start(world.multibody_index(2));
    EXPECT_EQ(run.values.row(i).head(3).transpose(), q_before[i].segment(qa, 3)) << i;
    EXPECT_EQ(run.values.row(i).tail(3).transpose(), q_before[i].segment(qb, 3)) << i;
  }
  EXPECT_TRUE(std::isnan(run.settings_changed_s));
  EXPECT_TRUE(std::isnan(run.driven_s));
}

TEST(RecordedRun, SaysWhenTheSettingsChangedAndWhenAnInputDroveIt) {
  const SceneSpec scene = testing::PileScene(1, 2e-3);
  World world(scene);
  Timeline timeline(world, 10.0, SimRuntime::kTimelineBudget_bytes);
  for (int i = 0; i < 30; ++i) {
    if (i == 10) world.SetExternalForce({1, Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 0, 0)});
    if (i == 12) world.SetExternalForce({});
    if (i == 20) {
      ContactOverrides o;
      o.friction = 0.1;
      world.SetOverrides(o);
    }
    timeline.Record(world, i);
    ASSERT_TRUE(world.Step());
    timeline.Taken(world);
  }
  const RecordedRun run = ExportRecordedRun(timeline, world);
  EXPECT_EQ(run.driven_s, timeline.time_s(10));
  EXPECT_EQ(run.settings_changed_s, timeline.time_s(20));
  EXPECT_EQ(run.settings, scene.contact_settings) << "the oldest record's";
}

}  // namespace
}  // namespace contactlab
