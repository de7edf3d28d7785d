// The run's own timeline as a fit's reference (docs/contact-model.md §10): the state after each
// step on the scene's time grid, refused with one line when the run is not one the fit can
// replay; and the sliding box's own run refitted from a wrong start gives back the values it ran
// with.
#include "app/calibration/recorded_reference.h"

#include <gtest/gtest.h>

#include <string>

#include "app/calibration/calibration.h"
#include "app/runtime/sim_runtime.h"
#include "io/scene_loader.h"
#include "test_support/build_paths.h"

namespace contactlab {
namespace {

// Three records of a box's x, δt = 1 ms: the state at 0, 1 and 2 ms.
RecordedRun ThreeRecords() {
  RecordedRun run;
  run.settings.dt_s = 1e-3;
  run.time_s = {0, 1e-3, 2e-3};
  run.columns = {"box.px"};
  run.values.resize(3, 1);
  run.values << 0.5, 0.6, 0.7;
  return run;
}

std::string Refusal(const RecordedRun& run) {
  try {
    ReferenceFromRecordedRun(run);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(RecordedReference, IsTheStateAfterEachStepOnTheTimeGrid) {
  const ReferenceLog log = ReferenceFromRecordedRun(ThreeRecords());
  EXPECT_EQ(log.source, "the run's timeline");
  EXPECT_EQ(log.columns, (std::vector<std::string>{"t", "box.px"}));
  EXPECT_EQ(log.time_s, (std::vector<double>{1e-3, 2e-3}));  // t = 0 is the scene's own state
  ASSERT_EQ(log.values.rows(), 2);
  EXPECT_EQ(log.values(0, log.Column("box.px")), 0.6);
  EXPECT_EQ(log.values(1, log.Column("t")), 2e-3);
}

TEST(RecordedReference, RefusesARunTheFitCannotReplay) {
  RecordedRun run = ThreeRecords();
  run.time_s.resize(1);
  EXPECT_EQ(Refusal(run), "the timeline holds no step yet: run the scene first");
  run = ThreeRecords();
  run.time_s = {12.5, 12.501, 12.502};
  EXPECT_NE(Refusal(run).find("starts at t = 12.5 s, not at 0"), std::string::npos);
  run = ThreeRecords();
  run.settings.integrator.scheme = TimeIntegration::Scheme::kErrorControlled;
  EXPECT_NE(Refusal(run).find("error-controlled: its steps are off the dt grid"),
            std::string::npos);
  run = ThreeRecords();
  run.time_s[2] = 2.5e-3;
  EXPECT_NE(Refusal(run).find("t = 0.0025 s is off the run's dt grid"), std::string::npos);
  run = ThreeRecords();
  run.settings_changed_s = 1e-3;
  EXPECT_NE(Refusal(run).find("settings changed at t = 0.001 s"), std::string::npos);
  run = ThreeRecords();
  run.driven_s = 2e-3;
  EXPECT_NE(Refusal(run).find("driven from t = 0.002 s"), std::string::npos);
  run = ThreeRecords();
  run.columns.clear();
  run.values.resize(3, 0);
  EXPECT_NE(Refusal(run).find("nothing to fit"), std::string::npos);
}

// The sliding box (k = 1e5 N/m, μ = 0.4 in its file) for 1 s, as the GUI's sim thread records
// it, fitted from k = 1e6, μ = 0.7.
TEST(RecordedReference, TheSlidingBoxsOwnRunRefitsTheValuesItRanWith) {
  const SceneSpec scene =
      LoadSceneFile(testing::SourceDirectory() + "/assets/scenes/sliding_box.yaml");
  World world(scene);
  Timeline timeline(world, 10.0, SimRuntime::kTimelineBudget_bytes);
  for (int i = 0; i < 1000; ++i) {
    timeline.Record(world, i);
    ASSERT_TRUE(world.Step());
    timeline.Taken(world);
  }
  const ReferenceLog reference = ReferenceFromRecordedRun(ExportRecordedRun(timeline, world));
  EXPECT_EQ(reference.values.rows(), 999);
  CalibrationSpec spec;
  spec.parameters = {ContactParameter::kStiffness, ContactParameter::kFriction};
  spec.initial = {1e6, 0.7};
  const CalibrationResult r = Calibrate(scene, reference, spec);
  EXPECT_NEAR(r.fitted[0], 1e5, 0.01 * 1e5);
  EXPECT_NEAR(r.fitted[1], 0.4, 0.01 * 0.4);
  EXPECT_LT(r.rms_after_m, 1e-7);
}

}  // namespace
}  // namespace contactlab
