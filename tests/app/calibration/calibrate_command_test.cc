// `contactlab calibrate` as a user runs it (docs/architecture.md §7): the fit printed, the fitted
// scene written and loadable with the fitted values, the plot written; bad input one line and
// exit 2.
#include <gtest/gtest.h>

#include <filesystem>

#include "app/command_line.h"
#include "io/scene_loader.h"
#include "test_support/run_contactlab.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;

std::string TempPath(const std::string& name) {
  return (fs::temp_directory_path() / ("contactlab_calibrate_" + name)).string();
}

TEST(CalibrateCommand, FitsPrintsAndWritesTheFittedSceneAndThePlot) {
  const std::string reference = TempPath("ref.csv"), fitted = TempPath("fitted.yaml"),
                    plot = TempPath("fit.png");
  fs::remove(fitted);
  fs::remove(plot);
  ASSERT_EQ(testing::RunContactlab("--headless --scene sliding_box --duration 2 --log " + reference)
                .exit_code,
            0);
  const testing::RunResult run = testing::RunContactlab(
      "calibrate --scene sliding_box --reference " + reference +
      " --fit stiffness,friction --from stiffness=3e5,friction=0.5 --bodies box --output " +
      fitted + " --plot " + plot);
  ASSERT_EQ(run.exit_code, kExitOk) << run.output;
  EXPECT_NE(run.output.find("stiffness"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("RMS error"), std::string::npos) << run.output;
  const SceneSpec scene = LoadSceneFile(fitted);
  ASSERT_TRUE(scene.contact_settings.stiffness_N_per_m.has_value());
  EXPECT_NEAR(*scene.contact_settings.stiffness_N_per_m, 1e5, 1e3);
  EXPECT_NEAR(*scene.contact_settings.friction, 0.4, 4e-3);
  EXPECT_GT(fs::file_size(plot), 1000u);
}

TEST(CalibrateCommand, BadInputIsOneLineAndExitTwo) {
  const std::string reference = TempPath("ref_short.csv");
  ASSERT_EQ(
      testing::RunContactlab("--headless --scene sliding_box --duration 0.05 --log " + reference)
          .exit_code,
      0);
  const std::string base = "calibrate --scene sliding_box --reference " + reference;
  struct BadCase {
    std::string args, message;
  };
  const BadCase cases[] = {
      {base + " --fit stiffness,grip", "unknown parameter 'grip'"},
      {base + " --fit relaxation-time --from relaxation-time=0.1", "only SAP"},
      {"calibrate --scene incline --reference " + reference + " --fit stiffness",
       "no initial value"},
      {base + " --fit friction --from friction=9", "outside [0, 5]"},
      {base + " --fit friction --window 0.04,0.01", "t0 < t1"},
      {"calibrate --scene sliding_box --reference /nonexistent.csv --fit friction",
       "cannot open the reference log"},
      {base + " --fit friction --bodies crate", "no body 'crate'"},
  };
  for (const BadCase& c : cases) {
    const testing::RunResult run = testing::RunContactlab(c.args);
    EXPECT_EQ(run.exit_code, kExitBadInput) << c.args << "\n" << run.output;
    EXPECT_NE(run.output.find(c.message), std::string::npos) << c.args << "\n" << run.output;
  }
}

}  // namespace
}  // namespace contactlab
