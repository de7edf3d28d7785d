// A fit on the worker's thread is Calibrate's fit, its progress readable meanwhile; Cancel stops
// it before its next step without waiting; a failure is Calibrate's line; one fit at a time; a
// worker destroyed during a fit cancels and joins it. (Also under ThreadSanitizer:
// runtime_tsan_test.)
#include "app/calibration/calibration_worker.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "io/scene_loader.h"
#include "test_support/build_paths.h"

namespace contactlab {
namespace {

std::shared_ptr<const SceneSpec> SlidingBox() {
  static const auto scene = std::make_shared<const SceneSpec>(
      LoadSceneFile(testing::SourceDirectory() + "/assets/scenes/sliding_box.yaml"));
  return scene;
}

// The box's position after each of the first `steps` steps of its own run (k = 1e5 N/m, μ = 0.4).
std::shared_ptr<const ReferenceLog> OwnRun(int steps) {
  World world(*SlidingBox());
  auto log = std::make_shared<ReferenceLog>();
  log->source = "sliding_box";
  log->columns = {"t", "box.px", "box.py", "box.pz"};
  log->values.resize(steps, 4);
  const int box = SlidingBox()->FindBody("box");
  for (int i = 0; i < steps; ++i) {
    EXPECT_TRUE(world.Step());
    log->time_s.push_back(world.time());
    log->values.row(i) << world.time(), world.BodyPose(box).translation().transpose();
  }
  return log;
}

CalibrationJob WrongStart(std::shared_ptr<const ReferenceLog> reference) {
  CalibrationJob job;
  job.scene = SlidingBox();
  job.settings = SlidingBox()->contact_settings;
  job.reference = std::move(reference);
  job.spec.parameters = {ContactParameter::kStiffness, ContactParameter::kFriction};
  job.spec.initial = {1e6, 0.7};
  return job;
}

TEST(CalibrationWorker, FitsOnItsThreadAsCalibrateDoes) {
  const CalibrationJob job = WrongStart(OwnRun(500));
  CalibrationWorker worker;
  EXPECT_FALSE(worker.TakeOutcome().has_value()) << "none started";
  ASSERT_TRUE(worker.Start(job));
  EXPECT_TRUE(worker.busy());
  worker.Wait();
  const CalibrationProgressReport progress = worker.progress();
  std::optional<CalibrationOutcome> outcome = worker.TakeOutcome();
  ASSERT_TRUE(outcome.has_value());
  EXPECT_FALSE(worker.busy());
  ASSERT_EQ(outcome->kind, CalibrationOutcome::Kind::kFitted) << outcome->error;
  const CalibrationResult direct = Calibrate(*job.scene, *job.reference, job.spec);
  EXPECT_EQ(outcome->result.fitted, direct.fitted);
  EXPECT_NEAR(outcome->result.fitted[0], 1e5, 0.01 * 1e5);
  EXPECT_NEAR(outcome->result.fitted[1], 0.4, 0.01 * 0.4);
  EXPECT_GT(progress.iteration, 0);
  EXPECT_EQ(progress.values, direct.fitted) << "the last accepted step's";
  EXPECT_FALSE(worker.TakeOutcome().has_value()) << "taken once";
}

// A fit of 3 s of the box takes seconds: Cancel, microseconds after the start, comes during it.
TEST(CalibrationWorker, CancelStopsTheFitAndOneFitRunsAtATime) {
  const CalibrationJob job = WrongStart(OwnRun(3000)), short_job = WrongStart(OwnRun(50));
  CalibrationWorker worker;
  ASSERT_TRUE(worker.Start(job));
  EXPECT_FALSE(worker.Start(short_job)) << "one at a time";
  worker.Cancel();  // never waits: the fit sees it before its next step
  EXPECT_TRUE(worker.cancelling());
  worker.Wait();
  std::optional<CalibrationOutcome> outcome = worker.TakeOutcome();
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->kind, CalibrationOutcome::Kind::kCancelled);
  ASSERT_TRUE(worker.Start(short_job)) << "the next fit, once the last was taken";
  worker.Wait();
  outcome = worker.TakeOutcome();
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->kind, CalibrationOutcome::Kind::kFitted) << "a new fit is not cancelled";
}

TEST(CalibrationWorker, AFailedFitGivesCalibratesLine) {
  CalibrationJob job = WrongStart(OwnRun(50));
  job.spec.bodies = {"crate"};
  CalibrationWorker worker;
  ASSERT_TRUE(worker.Start(job));
  worker.Wait();
  const std::optional<CalibrationOutcome> outcome = worker.TakeOutcome();
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->kind, CalibrationOutcome::Kind::kFailed);
  EXPECT_EQ(outcome->error, "calibrate: the scene has no body 'crate'");
}

TEST(CalibrationWorker, DestroyedDuringAFitItCancelsAndJoins) {
  const CalibrationJob job = WrongStart(OwnRun(3000));
  CalibrationWorker worker;
  ASSERT_TRUE(worker.Start(job));
}  // the destructor cancels: it returns within a step, not at the fit's end

}  // namespace
}  // namespace contactlab
