// Calibration recovers known parameters from a recorded run (docs/contact-model.md §10): the
// reference is the contactlab binary's own --log of the sliding box at k = 1e5 N/m, μ = 0.4,
// v_s = 1e-3 m/s, fitted from k = 1e6, μ = 0.7, v_s = 1e-4.
#include "app/calibration/calibration.h"

#include <gtest/gtest.h>
#include <spdlog/fmt/fmt.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "io/scene_loader.h"
#include "test_support/build_paths.h"
#include "test_support/run_contactlab.h"
#include "test_support/sliding_box_log.h"
#include "test_support/temp_path.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;

const std::vector<ContactParameter> kFitted = {ContactParameter::kStiffness,
                                               ContactParameter::kFriction,
                                               ContactParameter::kStictionTolerance};

using contactlab::testing::TempPath;

SceneSpec SlidingBox() {
  return LoadSceneFile(testing::SourceDirectory() + "/assets/scenes/sliding_box.yaml");
}

CalibrationSpec FromWrongStart() {
  CalibrationSpec spec;
  spec.parameters = kFitted;
  spec.initial = {1e6, 0.7, 1e-4};
  spec.bodies = {"box"};
  return spec;
}

TEST(Calibration, RecoversKnownParametersFromAWrongStart) {
  const ReferenceLog reference = ReadReferenceLog(testing::SlidingBoxLog());
  const CalibrationResult r = Calibrate(SlidingBox(), reference, FromWrongStart());
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.fitted[0], 1e5, 0.01 * 1e5);
  EXPECT_NEAR(r.fitted[1], 0.4, 0.01 * 0.4);
  EXPECT_NEAR(r.fitted[2], 1e-3, 0.05 * 1e-3);
  EXPECT_GT(r.rms_before_m, 1e-2) << "the wrong start must be visibly wrong";
  EXPECT_LT(r.rms_after_m, 1e-7);
  for (bool identified : r.identified) EXPECT_TRUE(identified);
  ASSERT_EQ(r.traces.size(), 3u);  // box.px, .py, .pz
  EXPECT_EQ(r.traces[0].column, "box.px");
}

TEST(Calibration, RecoversThemFromPositionsWithTenthMillimetreNoise) {
  ReferenceLog reference = ReadReferenceLog(testing::SlidingBoxLog());
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 1e-4);
  for (const char* c : {"box.px", "box.py", "box.pz"}) {
    const int column = reference.Column(c);
    ASSERT_GE(column, 0);
    for (int row = 0; row < reference.values.rows(); ++row)
      reference.values(row, column) += noise(rng);
  }
  const CalibrationResult r = Calibrate(SlidingBox(), reference, FromWrongStart());
  EXPECT_NEAR(r.fitted[0], 1e5, 0.05 * 1e5);
  EXPECT_NEAR(r.fitted[1], 0.4, 0.05 * 0.4);
  EXPECT_NEAR(r.fitted[2], 1e-3, 0.05 * 1e-3);
  // The residual is the noise, and the stated uncertainty covers the error.
  EXPECT_NEAR(r.rms_after_m, 1e-4, 0.1e-4);
  EXPECT_LT(std::abs(std::log(r.fitted[0] / 1e5)), 4 * r.standard_deviation[0]);
}

// A box at rest on level ground has no tangential load: μ changes nothing, and is reported as
// unidentified and kept, not fitted to the noise.
TEST(Calibration, ReportsFrictionOnABoxThatNeverSlidesAsUnidentified) {
  SceneSpec scene = SlidingBox();
  for (SceneBody& b : scene.bodies) b.initial_pose.linear().setIdentity();
  SceneBody& box = scene.bodies[scene.FindBody("box")];
  box.initial_pose.translation() = Eigen::Vector3d(0, 0, 0.05);
  box.initial_velocity.setZero();
  const std::string log = TempPath("resting_box.csv");
  {
    World world(scene);
    std::ofstream out(log);
    out << "t,box.px,box.py,box.pz\n";
    for (int n = 0; n < 500; ++n) {
      ASSERT_TRUE(world.Step());
      const Eigen::Vector3d p = world.BodyPose(scene.FindBody("box")).translation();
      out << fmt::format("{},{},{},{}\n", world.time(), p.x(), p.y(),
                         p.z() + (n % 2 ? 1e-5 : -1e-5));
    }
  }
  CalibrationSpec spec;
  spec.parameters = {ContactParameter::kStiffness, ContactParameter::kFriction};
  spec.initial = {2e5, 0.7};
  const CalibrationResult r = Calibrate(scene, ReadReferenceLog(log), spec);
  EXPECT_TRUE(r.identified[0]);
  EXPECT_NEAR(r.fitted[0], 1e5, 0.05 * 1e5);
  EXPECT_FALSE(r.identified[1]);
  EXPECT_EQ(r.fitted[1], 0.7);
  EXPECT_NE(r.unidentified_reason[1].find("cannot identify"), std::string::npos);
}

TEST(Calibration, RefusesAReferenceThatDoesNotMatchTheScene) {
  const std::string coarse = TempPath("coarse.csv");
  const testing::RunResult run = testing::RunContactlab(
      "--headless --scene sliding_box --duration 0.1 --dt 1.5e-3 --log " + coarse);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  auto message = [](const SceneSpec& scene, const std::string& log, CalibrationSpec spec) {
    try {
      Calibrate(scene, ReadReferenceLog(log), spec);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CalibrationSpec spec = FromWrongStart();
  EXPECT_NE(message(SlidingBox(), coarse, spec).find("time grid"), std::string::npos);
  spec.bodies = {"crate"};
  EXPECT_NE(message(SlidingBox(), testing::SlidingBoxLog(), spec).find("no body 'crate'"),
            std::string::npos);
  spec.bodies = {"ramp"};
  EXPECT_NE(message(SlidingBox(), testing::SlidingBoxLog(), spec).find("no column of body 'ramp'"),
            std::string::npos);
  spec = FromWrongStart();
  spec.parameters[0] = ContactParameter::kRelaxationTime;
  EXPECT_NE(message(SlidingBox(), testing::SlidingBoxLog(), spec).find("only SAP"),
            std::string::npos);
}

TEST(ReferenceLog, RefusesMalformedFilesWithOneLine) {
  auto message = [](const std::string& text) {
    const std::string path = TempPath("bad.csv");
    std::ofstream(path) << text;
    try {
      ReadReferenceLog(path);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("x,box.px\n1,2\n").find("no `t` column"), std::string::npos);
  EXPECT_NE(message("t,box.px\n0.1,2\n0.2\n").find(":3: 1 fields"), std::string::npos);
  EXPECT_NE(message("t,box.px\n0.1,abc\n").find("'abc' is not a number"), std::string::npos);
  EXPECT_NE(message("t,box.px\n0.2,1\n0.1,1\n").find("does not increase"), std::string::npos);
  EXPECT_NE(message("t,box.px\n").find("no rows"), std::string::npos);
  EXPECT_NE(message("").find("empty"), std::string::npos);
}

}  // namespace
}  // namespace contactlab
