// ParseCommandLine's checks of the options against each other and against the build, called
// in-process (command_line_test.cc runs the binary for the rest).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/command_line.h"

namespace contactlab {
namespace {

// Parses `args` (after the program name) as a build with or without the GUI would: the exit
// code, with *cl filled.
int Parse(std::vector<std::string> args, bool gui_built, CommandLine* cl) {
  args.insert(args.begin(), "contactlab");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  bool exit_now = false;
  const int code =
      ParseCommandLine(static_cast<int>(argv.size()), argv.data(), gui_built, cl, &exit_now);
  EXPECT_EQ(exit_now, code != kExitOk);
  return code;
}

TEST(ParseCommandLine, WindowOutputsNeedABuildWithTheGui) {
  for (const char* option : {"--screenshot", "--gui-stats"}) {
    SCOPED_TRACE(option);
    CommandLine with, without;
    EXPECT_EQ(Parse({option, "out.file"}, true, &with), kExitOk);
    EXPECT_EQ(Parse({option, "out.file"}, false, &without), kExitBadInput);
  }
}

TEST(ParseCommandLine, TheGamepadNeedsTheGuiWindow) {
  CommandLine gui, headless, no_gui;
  EXPECT_EQ(Parse({"--input", "gamepad"}, true, &gui), kExitOk);
  EXPECT_EQ(gui.input, "gamepad");
  EXPECT_EQ(Parse({"--headless", "--input", "gamepad"}, true, &headless), kExitBadInput);
  EXPECT_EQ(Parse({"--input", "gamepad"}, false, &no_gui), kExitBadInput);
}

TEST(ParseCommandLine, ContactOptionsAreCheckedAsTheSceneAndTheSlidersAre) {
  CommandLine good, zero_friction, bad;
  EXPECT_EQ(Parse({"--dt", "5e-4", "--stiffness", "2e5", "--model", "sap"}, true, &good), kExitOk);
  EXPECT_EQ(good.overrides.dt_s, 5e-4);
  EXPECT_EQ(good.overrides.stiffness_N_per_m, 2e5);
  EXPECT_EQ(good.overrides.approximation, ContactApproximation::kSap);
  EXPECT_FALSE(good.overrides.friction.has_value());
  EXPECT_EQ(Parse({"--friction", "0"}, true, &zero_friction), kExitOk);
  EXPECT_EQ(zero_friction.overrides.friction, 0.0);
  EXPECT_EQ(Parse({"--stiction-tolerance", "0"}, true, &bad), kExitBadInput);
}

// docs/contact-model.md §1.1–§1.2: an accuracy or a δt_max alone asks for error control; with
// another integrator, or δt_max beside --dt, they are refused.
TEST(ParseCommandLine, IntegratorAccuracyAndDtMax) {
  CommandLine midpoint, accuracy, dt_max, theta;
  EXPECT_EQ(Parse({"--integrator", "midpoint"}, true, &midpoint), kExitOk);
  EXPECT_EQ(midpoint.overrides.integrator, TimeIntegration::Midpoint());
  EXPECT_EQ(Parse({"--accuracy", "1e-4"}, true, &accuracy), kExitOk);
  EXPECT_EQ(accuracy.overrides.integrator, TimeIntegration::ErrorControlled(1e-4));
  EXPECT_EQ(Parse({"--integrator", "error_controlled", "--dt-max", "0.01"}, true, &dt_max),
            kExitOk);
  EXPECT_EQ(dt_max.overrides.integrator, TimeIntegration::ErrorControlled(1e-3));
  EXPECT_EQ(dt_max.overrides.dt_s, 0.01);
  EXPECT_EQ(Parse({"--integrator", "theta:0.3,0.6"}, true, &theta), kExitOk);
  EXPECT_EQ(theta.overrides.integrator, TimeIntegration::Theta(0.3, 0.6));
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--integrator", "rk4"},
        std::vector<std::string>{"--integrator", "theta:1.5,0.5"},
        std::vector<std::string>{"--integrator", "midpoint", "--accuracy", "1e-3"},
        std::vector<std::string>{"--accuracy", "0"}, std::vector<std::string>{"--accuracy", "2"},
        std::vector<std::string>{"--dt-max", "0.01", "--dt", "0.001"},
        std::vector<std::string>{"--dt-max", "-1"}}) {
    CommandLine cl;
    EXPECT_EQ(Parse(bad, true, &cl), kExitBadInput) << bad[0] << " " << bad[1];
  }
}

// --output-dir: created if missing, made absolute (the GUI shows it); a folder that cannot be
// created or written is bad input.
// --ghost-integrator (issue 37): a ghost under another integrator, by the names the scene
// files and --integrator take; a bad name or θ out of range is refused, and so is a ghost
// without a window.
TEST(ParseCommandLine, TheGhostIntegratorTakesAnIntegratorsNameForTheGui) {
  CommandLine good;
  ASSERT_EQ(Parse({"--ghost-integrator", "error_controlled"}, true, &good), kExitOk);
  ASSERT_TRUE(good.ghost_integrator);
  EXPECT_EQ(good.ghost_integrator->scheme, TimeIntegration::Scheme::kErrorControlled);
  EXPECT_FALSE(good.ghost) << "the main run's approximation";
  CommandLine theta;
  ASSERT_EQ(Parse({"--ghost", "sap", "--ghost-integrator", "theta:0.5,1"}, true, &theta), kExitOk);
  EXPECT_EQ(*theta.ghost_integrator, TimeIntegration::Theta(0.5, 1));
  EXPECT_EQ(theta.ghost, ContactApproximation::kSap);
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--ghost-integrator", "rk4"},
                                              {"--ghost-integrator", "theta:2,0.5"},
                                              {"--headless", "--ghost-integrator", "midpoint"}}) {
    CommandLine cl;
    EXPECT_EQ(Parse(bad, true, &cl), kExitBadInput) << bad.back();
  }
}

TEST(ParseCommandLine, ContactViewsAndVectorScaleTakeTheirNamesOnly) {
  CommandLine good;
  EXPECT_EQ(Parse({"--contact-view", "slip,wireframe", "--vector-scale", "log"}, true, &good),
            kExitOk);
  EXPECT_EQ(good.contact_views, "slip,wireframe");
  EXPECT_EQ(good.vector_scale, "log");
  CommandLine none;
  EXPECT_EQ(Parse({"--contact-view", "none"}, true, &none), kExitOk);
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--contact-view", "slip,arrows"},
        std::vector<std::string>{"--contact-view", "slip,"},
        std::vector<std::string>{"--vector-scale", "logarithmic"}}) {
    CommandLine cl;
    EXPECT_EQ(Parse(bad, true, &cl), kExitBadInput) << bad[1];
  }
}

TEST(ParseCommandLine, TheOutputFolderIsCreatedOrRefused) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("contactlab_parse_output_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  CommandLine good, under_a_file, none;
  EXPECT_EQ(Parse({"--output-dir", (dir / "a/../b").string()}, true, &good), kExitOk);
  EXPECT_EQ(good.output_dir, (dir / "b").string());
  EXPECT_TRUE(fs::is_directory(dir / "b"));
  std::ofstream(dir / "file") << "x";
  EXPECT_EQ(Parse({"--output-dir", (dir / "file/out").string()}, true, &under_a_file),
            kExitBadInput);
  EXPECT_EQ(Parse({}, true, &none), kExitOk);
  EXPECT_EQ(none.output_dir, "");  // the GUI's setting or the default
  fs::remove_all(dir);
}

}  // namespace
}  // namespace contactlab
