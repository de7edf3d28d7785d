// The timeline browser on a World stepped by the test: a shown record is the recorded step as
// it was, bit for bit; StepTimeline's and ShowTime's records have known answers; a branch
// replays the recorded inputs that followed the step shown, bit for bit, over whatever live
// input there is, and keeps settings edited while viewing.
#include "app/runtime/timeline_browser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "test_support/pile_scene.h"

namespace contactlab {
namespace {

constexpr int kSteps = 60;
constexpr double kDt = 2e-3;

// A push on body 1 that changes every step, as a user's mouse spring would.
ExternalForce Push(int step) {
  return {1, Eigen::Vector3d(0.01, 0, 0), Eigen::Vector3d(0.5 * step, 0.1, 2.0)};
}

ContactOverrides Sap() {
  ContactOverrides o;
  o.approximation = ContactApproximation::kSap;
  return o;
}

// kSteps steps of the pile, each pushed and recorded first, as the sim thread does.
struct TimelineBrowserTest : ::testing::Test {
  World world{testing::PileScene(3, kDt)};
  TimelineBrowser browser{world, 1.0, SimRuntime::kTimelineBudget_bytes};
  std::vector<double> start_s;                    // when step k starts
  std::vector<Eigen::VectorXd> q_after, v_after;  // the state step k ends in

  void SetUp() override {
    for (int k = 0; k < kSteps; ++k) {
      world.SetExternalForce(Push(k));
      start_s.push_back(world.time());
      browser.Record(world, k);
      ASSERT_TRUE(world.Step());
      browser.Taken(world);
      q_after.push_back(world.q());
      v_after.push_back(world.v());
    }
  }
  void ExpectStateAfter(int k) {
    EXPECT_EQ(world.q(), q_after[k]) << "step " << k;
    EXPECT_EQ(world.v(), v_after[k]) << "step " << k;
  }
};

TEST_F(TimelineBrowserTest, AShownRecordIsTheRecordedStepAsItWas) {
  ASSERT_EQ(browser.size(), kSteps);
  EXPECT_FALSE(browser.viewing());
  for (int k : {0, 20, 21, kSteps - 1}) {
    ASSERT_TRUE(browser.Show(k, &world));
    EXPECT_EQ(browser.view(), k);
    EXPECT_EQ(browser.shown_step_index(), static_cast<uint64_t>(k + 1));
    ExpectStateAfter(k);
    EXPECT_EQ(world.inputs().external_force.f_Q_W, Push(k).f_Q_W);
  }
  TimelineView view;
  browser.Fill(world, &view);
  EXPECT_EQ(view.records, kSteps);
  EXPECT_EQ(view.oldest_s, start_s[0]);
  EXPECT_EQ(view.newest_s, start_s[kSteps - 1] + kDt);
  EXPECT_TRUE(view.viewing);
  EXPECT_EQ(view.replay_steps_left, 0);
  browser.Leave();
  EXPECT_FALSE(browser.viewing());
}

TEST_F(TimelineBrowserTest, StepsAndTimesNameKnownRecords) {
  // From the head (the newest record, 59).
  EXPECT_EQ(browser.RecordAfter(0), TimelineBrowser::kNone);
  EXPECT_EQ(browser.RecordAfter(-1), kSteps - 2);
  EXPECT_EQ(browser.RecordAfter(+1), kSteps - 1);  // shows the newest record
  EXPECT_EQ(browser.RecordAfter(-1000), 0);
  // From record 20.
  ASSERT_TRUE(browser.Show(20, &world));
  EXPECT_EQ(browser.RecordAfter(+5), 25);
  EXPECT_EQ(browser.RecordAfter(-30), 0);
  EXPECT_EQ(browser.RecordAfter(kSteps - 2 - 20), kSteps - 2);
  EXPECT_EQ(browser.RecordAfter(kSteps - 1 - 20), TimelineBrowser::kHead);
  // The record in progress at a time.
  EXPECT_EQ(browser.RecordAt(start_s[30]), 30);
  EXPECT_EQ(browser.RecordAt(start_s[30] + kDt / 2), 30);
  EXPECT_EQ(browser.RecordAt(-1.0), 0);
  EXPECT_EQ(browser.RecordAt(1e9), kSteps - 1);
  EXPECT_EQ(browser.RecordAt(NAN), TimelineBrowser::kNone);
  browser.Clear();
  EXPECT_FALSE(browser.viewing());
  EXPECT_EQ(browser.RecordAt(0.0), TimelineBrowser::kNone);
  EXPECT_EQ(browser.RecordAfter(-1), TimelineBrowser::kNone);
}

TEST_F(TimelineBrowserTest, ABranchReplaysTheRecordedInputsBitForBit) {
  EXPECT_FALSE(browser.Branch(world)) << "nothing shown";
  ASSERT_TRUE(browser.Show(20, &world));
  ASSERT_TRUE(browser.Branch(world));
  EXPECT_FALSE(browser.viewing());
  EXPECT_EQ(browser.size(), 21);  // records 0…20; the newer ones are replayed
  TimelineView view;
  browser.Fill(world, &view);
  EXPECT_EQ(view.replay_steps_left, kSteps - 21);
  for (int k = 21; k < kSteps; ++k) {
    world.SetExternalForce({1, Eigen::Vector3d::Zero(), Eigen::Vector3d(0, 0, 50)});  // live
    ASSERT_EQ(browser.ReplayNext(&world),
              k < kSteps - 1 ? TimelineBrowser::Replayed::kYes : TimelineBrowser::Replayed::kLast);
    browser.Record(world, k);
    ASSERT_TRUE(world.Step());
    ExpectStateAfter(k);
  }
  EXPECT_EQ(browser.ReplayNext(&world), TimelineBrowser::Replayed::kNo);
  EXPECT_EQ(browser.size(), kSteps);
}

TEST_F(TimelineBrowserTest, SettingsEditedWhileViewingAreKeptByShowAndBranch) {
  ASSERT_TRUE(browser.Show(20, &world));
  world.SetOverrides(Sap());
  ASSERT_TRUE(browser.Show(20, &world));  // not edited in view: the recorded settings
  EXPECT_EQ(world.approximation(), ContactApproximation::kLagged);
  ExpectStateAfter(20);
  world.SetOverrides(Sap());
  browser.EditSettings();
  ASSERT_TRUE(browser.Show(20, &world));  // recomputed with the user's settings
  EXPECT_EQ(world.approximation(), ContactApproximation::kSap);
  ASSERT_TRUE(browser.Branch(world));
  ASSERT_EQ(browser.ReplayNext(&world), TimelineBrowser::Replayed::kYes);
  browser.Record(world, 21);
  EXPECT_EQ(world.approximation(), ContactApproximation::kSap);
  // The next Show restores recorded settings again: the edit belonged to that view.
  ASSERT_TRUE(browser.Show(10, &world));
  EXPECT_EQ(world.approximation(), ContactApproximation::kLagged);
}

// Under error control (docs/contact-model.md §1.2) the steps vary in size: a shown record and a
// branch's replay take each step at its recorded size, bit for bit, and the history's newest
// time is the newest step's end, not a count of steps times δt.
struct ErrorControlledTimelineBrowserTest : TimelineBrowserTest {
  void SetUp() override {
    ContactOverrides o;
    o.integrator = TimeIntegration::ErrorControlled(1e-4);
    world.SetOverrides(o);
    TimelineBrowserTest::SetUp();
  }
};

TEST_F(ErrorControlledTimelineBrowserTest, ShownAndBranchedStepsKeepTheirSizesBitForBit) {
  const double end_s = world.time();
  EXPECT_NE(start_s[2] - start_s[1], start_s[1] - start_s[0]) << "the sizes vary";
  TimelineView view;
  browser.Fill(world, &view);
  EXPECT_EQ(view.newest_s, end_s);
  for (int k : {0, 1, 33, kSteps - 1}) {
    ASSERT_TRUE(browser.Show(k, &world));
    ExpectStateAfter(k);
    EXPECT_EQ(world.time(), k + 1 < kSteps ? start_s[k + 1] : end_s) << "step " << k;
  }
  ASSERT_TRUE(browser.Show(20, &world));
  ASSERT_TRUE(browser.Branch(world));
  for (int k = 21; k < kSteps; ++k) {
    browser.ReplayNext(&world);
    browser.Record(world, k);
    ASSERT_TRUE(world.Step());
    browser.Taken(world);
    ExpectStateAfter(k);
  }
  EXPECT_EQ(world.time(), end_s);
}

}  // namespace
}  // namespace contactlab
