// The Calibrate window's work without a window: a bad log is the window's red line and a toast,
// the last reference kept; Accept posts the fit as the sliders post a change, checked by
// ApplyOverrides, and Undo the values before; the timeline's copy is taken only for its request
// and scene; a new scene cancels the fit under way and discards it.
#include "ui/calibration_session.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <variant>

#include "io/scene_loader.h"
#include "test_support/temp_path.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;
using Kind = CalibrationRequest::Kind;

using contactlab::testing::TempPath;

class CalibrationSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    World world(LoadSceneFile(ResolveScenePath("sliding_box")));
    FillSnapshot(world, 0, 0, &snapshot_);
    ui_.defaults = ComputeSceneDefaults(*snapshot_.scene);
  }
  void Handle(CalibrationRequest request) { session_.Handle(request, snapshot_, &ui_, &actions_); }

  CalibrationSession session_;
  Snapshot snapshot_;
  UiState ui_;
  UiActions actions_;
};

TEST_F(CalibrationSessionTest, ABadLogIsTheRedLineAndAToastAndTheLastReferenceStays) {
  const std::string good = TempPath("good.csv");
  std::ofstream(good) << "t,box.px\n0.001,0.5\n0.002,0.6\n";
  Handle({Kind::kLoadLog, good});
  const CalibrationPanelState& c = ui_.calibration;
  ASSERT_TRUE(c.reference);
  const std::string label = fs::path(good).filename().string() + ": 2 rows, t = 0.001 to 0.002 s";
  EXPECT_EQ(c.reference_label, label);
  EXPECT_EQ(c.status, "loaded " + good);
  EXPECT_EQ(c.error, "");
  Handle({Kind::kLoadLog, TempPath("missing.csv")});
  EXPECT_EQ(c.error, TempPath("missing.csv") + ": cannot open the reference log");
  ASSERT_EQ(ui_.files.toasts.toasts().size(), 1u);
  EXPECT_EQ(ui_.files.toasts.toasts()[0].kind, ToastKind::kError);
  EXPECT_EQ(c.reference_label, label);
  EXPECT_EQ(c.reference->time_s.size(), 2u);
  fs::remove(good);
}

// The scene's file sets k = 1e5 N/m for every pair and no global d: Accept of (k, d) posts both,
// and Undo brings k back and clears d (each pair its own again).
TEST_F(CalibrationSessionTest, AcceptPostsTheFitAsTheSlidersDoAndUndoTheValuesBefore) {
  CalibrationResult r;
  r.parameters = {ContactParameter::kStiffness, ContactParameter::kHuntCrossley};
  r.initial = {1e6, 50};
  r.fitted = {2e5, 30};
  ui_.calibration.result = r;
  Handle(Kind::kAccept);
  ASSERT_EQ(actions_.commands.size(), 1u);
  ContactOverrides accepted;
  accepted.stiffness_N_per_m = 2e5;
  accepted.hunt_crossley_s_per_m = 30;
  EXPECT_EQ(std::get<command::SetOverrides>(actions_.commands[0]).overrides, accepted);
  ASSERT_TRUE(ui_.posted_settings.has_value()) << "shown at once, as a slider's change";
  EXPECT_EQ(ui_.posted_settings->stiffness_N_per_m, 2e5);
  ContactOverrides before;
  before.stiffness_N_per_m = 1e5;
  before.clear.hunt_crossley = true;
  EXPECT_EQ(ui_.calibration.undo, before);
  Handle(Kind::kUndo);
  ASSERT_EQ(actions_.commands.size(), 2u);
  EXPECT_EQ(std::get<command::SetOverrides>(actions_.commands[1]).overrides, before);
  EXPECT_FALSE(ui_.calibration.undo.has_value());
  Handle(Kind::kUndo);
  EXPECT_EQ(actions_.commands.size(), 2u) << "once";
}

TEST_F(CalibrationSessionTest, AValueApplyOverridesRefusesIsNotPosted) {
  CalibrationResult r;
  r.parameters = {ContactParameter::kStiffness};
  r.initial = {1e6};
  r.fitted = {-1};
  ui_.calibration.result = r;
  Handle(Kind::kAccept);
  EXPECT_TRUE(actions_.commands.empty());
  EXPECT_EQ(ui_.calibration.error.rfind("not accepted: --stiffness must be", 0), 0u)
      << ui_.calibration.error;
  EXPECT_FALSE(ui_.calibration.undo.has_value());
}

RecordedRun ThreeSteps(uint64_t request, uint64_t scene_generation) {
  RecordedRun run;
  run.request = request;
  run.scene_generation = scene_generation;
  run.time_s = {0, 1e-3, 2e-3};
  run.columns = {"box.px"};
  run.values.resize(3, 1);
  run.values << 0.5, 0.6, 0.7;
  return run;
}

TEST_F(CalibrationSessionTest, TheTimelinesCopyIsTakenForItsRequestAndSceneOnly) {
  Handle(Kind::kUseTimeline);
  ASSERT_EQ(actions_.commands.size(), 1u);
  EXPECT_EQ(std::get<command::ExportRecordedRun>(actions_.commands[0]).request, 1u);
  EXPECT_TRUE(session_.awaiting_run());
  session_.Update(ThreeSteps(1, 5), 6, &ui_);  // copied before a new scene came
  EXPECT_FALSE(session_.awaiting_run());
  EXPECT_FALSE(ui_.calibration.reference);
  Handle(Kind::kUseTimeline);
  session_.Update(ThreeSteps(1, 6), 6, &ui_);  // an older request's
  EXPECT_TRUE(session_.awaiting_run());
  session_.Update(ThreeSteps(2, 6), 6, &ui_);
  ASSERT_TRUE(ui_.calibration.reference);
  EXPECT_EQ(ui_.calibration.reference->source, "the run's timeline");
  EXPECT_EQ(ui_.calibration.reference_label,
            "the run's timeline: 2 rows, t = 0.001 to 0.002 s (lagged, dt = 0.001 s)");
  ASSERT_TRUE(ui_.calibration.reference_settings.has_value());

  RecordedRun driven = ThreeSteps(3, 6);
  driven.driven_s = 1e-3;
  Handle(Kind::kUseTimeline);
  session_.Update(driven, 6, &ui_);
  EXPECT_NE(ui_.calibration.error.find("driven from t = 0.001 s"), std::string::npos);
  EXPECT_EQ(ui_.calibration.reference->values.rows(), 2) << "the last reference stays";
  session_.OnNewScene(&ui_);
  EXPECT_FALSE(ui_.calibration.reference) << "the old scene's run";
}

// Discarded whether the fit has ended or not when the scene changes: no timing in the test.
TEST_F(CalibrationSessionTest, ANewSceneCancelsTheFitUnderWayAndDiscardsIt) {
  auto log = std::make_shared<ReferenceLog>();
  log->source = "box";
  log->columns = {"t", "box.px", "box.py", "box.pz"};
  World world(*snapshot_.scene);
  log->values.resize(2000, 4);
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE(world.Step());
    log->time_s.push_back(world.time());
    log->values.row(i) << world.time(), world.BodyPose(1).translation().transpose();
  }
  ui_.calibration.reference = log;
  CalibrationRequest start(Kind::kStart);
  start.parameters = {ContactParameter::kStiffness};
  start.initial = {1e6};
  Handle(start);
  EXPECT_TRUE(ui_.calibration.running);
  session_.OnNewScene(&ui_);
  session_.WaitForFit();
  session_.Update(std::nullopt, 0, &ui_);
  EXPECT_FALSE(ui_.calibration.running);
  EXPECT_FALSE(ui_.calibration.result.has_value());
  EXPECT_EQ(ui_.calibration.status, "");
  EXPECT_EQ(ui_.calibration.error, "");
  EXPECT_TRUE(ui_.calibration.reference) << "a file's reference stays for the new scene";
}

}  // namespace
}  // namespace contactlab
