// `contactlab calibrate` as a user runs it (docs/architecture.md §7): the fit printed, the fitted
// scene written and loadable with the fitted values, the plot written; bad input one line and
// exit 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/command_line.h"
#include "io/scene_loader.h"
#include "test_support/build_paths.h"
#include "test_support/run_contactlab.h"
#include "test_support/temp_path.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;

using contactlab::testing::TempPath;

// A command line that must be refused with exit code 2 and a line containing `message`.
struct BadCase {
  std::string args, message;
};

template <size_t N>
void ExpectOneLineAndExitTwo(const BadCase (&cases)[N]) {
  for (const BadCase& c : cases) {
    const testing::RunResult run = testing::RunContactlab(c.args);
    EXPECT_EQ(run.exit_code, kExitBadInput) << c.args << "\n" << run.output;
    EXPECT_NE(run.output.find(c.message), std::string::npos) << c.args << "\n" << run.output;
  }
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
      {base + " --fit friction@box", "NAME@BODY_A/BODY_B"},
      {base + " --fit friction@box/crate", "two bodies of the scene"},
      // The scene's global μ (contact_overrides) would override the pair's own.
      {base + " --fit friction@box/ramp --from friction@box/ramp=0.5", "overrides every pair"},
  };
  ExpectOneLineAndExitTwo(cases);
}

// A pair's own friction (`--fit friction@box/ramp`): fitted in the scene's contact_pairs entry,
// which the fitted scene then holds; a global --friction in the scene would override it, so the
// scene here has only the stiffness as a global value.
TEST(CalibrateCommand, FitsAPairsOwnFrictionIntoItsContactPairsEntry) {
  const std::string scene_path = TempPath("pair_scene.yaml");
  {
    std::ifstream in(testing::SourceDirectory() + "/assets/scenes/sliding_box.yaml");
    std::stringstream text;
    text << in.rdbuf();
    std::string yaml = text.str();
    const std::string global = "contact_overrides: {stiffness: 1.0e5, friction: 0.4}";
    ASSERT_NE(yaml.find(global), std::string::npos);
    yaml.replace(yaml.find(global), global.size(), "contact_overrides: {stiffness: 1.0e5}");
    std::ofstream(scene_path) << yaml;
  }
  const std::string reference = TempPath("pair_ref.csv");
  const std::string fitted = TempPath("pair_fitted.yaml");
  ASSERT_EQ(testing::RunContactlab("--headless --scene " + scene_path + " --duration 2 --log " +
                                   reference)
                .exit_code,
            0);
  const testing::RunResult run =
      testing::RunContactlab("calibrate --scene " + scene_path + " --reference " + reference +
                             " --fit friction@box/ramp --from friction@box/ramp=0.6 --output " +
                             fitted + " --plot " + TempPath("pair_fit.png"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.output;
  EXPECT_NE(run.output.find("friction@box/ramp"), std::string::npos) << run.output;
  const SceneSpec scene = LoadSceneFile(fitted);
  ASSERT_EQ(scene.contact_pairs.size(), 1u);
  EXPECT_TRUE(scene.contact_pairs[0].Joins(scene.FindBody("box"), scene.FindBody("ramp")));
  ASSERT_TRUE(scene.contact_pairs[0].friction.has_value());
  EXPECT_NEAR(*scene.contact_pairs[0].friction, 0.4, 4e-3);
  EXPECT_FALSE(scene.contact_settings.friction.has_value());
}

// The pads' stiffness and friction from a recorded insertion (docs/contact-model.md §10): the
// binary's own log of peg_in_hole's first two seconds (its teleop script, assets/teleop/
// insert_peg.csv, carries the peg over the hole) at E_h = 2e7 Pa, μ = 1, fitted from 5e7 Pa and
// μ = 0.6 of each pad–peg pair. (Over the first second alone the pads' μ moves the fingers and
// the peg by less than 0.1 µm per 0.1 and is reported unidentified.) The calibration runs replay
// the script as the headless run did (teleop_driver.h): without it the arm would not move and the
// fit could not reach the log.
TEST(CalibrateCommand, FitsThePadsModulusAndFrictionToARecordedInsertion) {
  const std::string reference = TempPath("peg_ref.csv"), fitted = TempPath("peg_fitted.yaml");
  ASSERT_EQ(testing::RunContactlab("--headless --scene peg_in_hole --duration 2 --log " + reference)
                .exit_code,
            0);
  const std::string pads = "friction@peg/panda_leftfinger,friction@peg/panda_rightfinger";
  const testing::RunResult run =
      testing::RunContactlab("calibrate --scene peg_in_hole --reference " + reference +
                             " --fit hydroelastic-modulus," + pads +
                             " --from hydroelastic-modulus=5e7,friction@peg/panda_leftfinger=0.6,"
                             "friction@peg/panda_rightfinger=0.6 --output " +
                             fitted + " --plot " + TempPath("peg_fit.png"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.output;
  const SceneSpec scene = LoadSceneFile(fitted);
  int compliant = 0;
  for (const SceneBody& body : scene.bodies) {
    for (const GeometrySpec& g : body.geometries) {
      if (g.hydroelastic.model != ContactModel::kHydroelasticCompliant) continue;
      ++compliant;
      EXPECT_NEAR(g.hydroelastic.modulus_Pa, 2e7, 2e5) << g.name << "\n" << run.output;
    }
  }
  EXPECT_EQ(compliant, 2) << "the two finger pads";
  ASSERT_EQ(scene.contact_pairs.size(), 2u);
  for (const ContactPairSpec& pair : scene.contact_pairs) {
    ASSERT_TRUE(pair.friction.has_value());
    EXPECT_NEAR(*pair.friction, 1.0, 1e-2) << run.output;
  }
}

TEST(CalibrateCommand, RefusesAModulusItCannotFitAndAnInputItCannotReplay) {
  const std::string reference = TempPath("peg_ref_short.csv");
  ASSERT_EQ(
      testing::RunContactlab("--headless --scene peg_in_hole --duration 0.05 --log " + reference)
          .exit_code,
      0);
  const std::string peg = "calibrate --scene peg_in_hole --reference " + reference;
  const BadCase cases[] = {
      {peg + " --fit hydroelastic-modulus@peg/panda_leftfinger", "without a pair"},
      {peg + " --fit hydroelastic-modulus --input spacemouse", "replays its input"},
      {peg + " --fit hydroelastic-modulus --input replay:/nonexistent.csv", "nonexistent.csv"},
      {"calibrate --scene sliding_box --reference " + reference + " --fit hydroelastic-modulus",
       "no hydroelastic_compliant geometry"},
  };
  ExpectOneLineAndExitTwo(cases);
}

}  // namespace
}  // namespace contactlab
