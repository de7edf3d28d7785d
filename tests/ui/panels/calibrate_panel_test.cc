// The Calibrate window without a window system: its table, summary and progress lines as a person
// reads them, the initial values it offers, and, clicked like a user through Dear ImGui
// (headless), only the parameters the model reads can be checked and fitted.
#include "ui/panels/calibrate_panel.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <variant>

#include "engine/solver/contact_constraint_factory.h"
#include "io/scene_loader.h"
#include "ui/panels/headless_panel.h"
#include "ui/widgets/widgets.h"

namespace contactlab {
namespace {

CalibrationResult AResult() {
  CalibrationResult r;
  r.parameters = {ContactParameter::kStiffness, ContactParameter::kFriction,
                  ContactParameter::kHuntCrossley};
  r.initial = {1e6, 0.7, 50};
  r.fitted = {100123.4, 0.40012, 50};
  r.standard_deviation = {0.0123, 0.00045, NAN};
  r.identified = {true, true, false};
  r.unidentified_reason = {"", "", "the data cannot identify it"};
  r.rms_before_m = 0.0321;
  r.rms_after_m = 3.2e-9;
  r.iterations = 27;
  r.converged = true;
  return r;
}

TEST(CalibratePanel, TheTableShowsTheFitAsAPersonReadsIt) {
  const auto rows = CalibrationTable(AResult());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::array<std::string, 5>{"k [N/m]", "1e+06", "1.001e+05", "1.2 %", "yes"}))
      << "log-scaled: sigma relative";
  EXPECT_EQ(rows[1], (std::array<std::string, 5>{"mu", "0.7", "0.4001", "0.00045", "yes"}));
  EXPECT_EQ(rows[2], (std::array<std::string, 5>{"d [s/m]", "50", "50", "-", "no"}));
  CalibrationResult r = AResult();
  EXPECT_EQ(CalibrationSummary(r), "RMS error 0.0321 m before, 3.2e-09 m after; 27 iterations");
  r.converged = false;
  EXPECT_EQ(CalibrationSummary(r),
            "RMS error 0.0321 m before, 3.2e-09 m after; 27 iterations (the cap: not converged)");
}

TEST(CalibratePanel, TheProgressLineNamesTheIterationTheErrorAndTheValues) {
  const std::vector<ContactParameter> p = {ContactParameter::kStiffness,
                                           ContactParameter::kFriction};
  EXPECT_EQ(CalibrationProgressLine({}, p), "running the initial values...");
  EXPECT_EQ(CalibrationProgressLine({4, 1.2345e-3, {312345, 0.52}}, p),
            "iteration 4: RMS error 0.00123 m; k 3.123e+05, mu 0.52");
}

TEST(CalibratePanel, OffersTheGlobalValueElseTheSelectedBodysOwn) {
  const SceneSpec scene = LoadSceneFile(ResolveScenePath("sliding_box"));
  const SceneDefaults defaults = ComputeSceneDefaults(scene);
  const int box = scene.FindBody("box");
  // The file's contact_overrides set k and mu for every pair; v_s is always global.
  ContactSettings settings = scene.contact_settings;
  EXPECT_EQ(OfferedInitialValue(ContactParameter::kStiffness, settings, scene, box, defaults), 1e5);
  EXPECT_EQ(
      OfferedInitialValue(ContactParameter::kStictionTolerance, settings, scene, box, defaults),
      1e-3);
  // d has no global value: the box's own (its default_contact), as with no body selected.
  EXPECT_EQ(OfferedInitialValue(ContactParameter::kHuntCrossley, settings, scene, box, defaults),
            50.0);
  settings.friction.reset();
  SceneSpec grippy = scene;
  grippy.bodies[box].geometries[0].contact.friction = 0.9;
  EXPECT_EQ(OfferedInitialValue(ContactParameter::kFriction, settings, grippy, box, defaults), 0.9);
  EXPECT_EQ(OfferedInitialValue(ContactParameter::kFriction, settings, grippy, -1, defaults), 0.4);
}

// The window at 1440 × 900 (beside the sidebar), clicked down its left column every 3 pixels.
class CalibratePanelClicks : public ::testing::Test {
 protected:
  void SetUp() override {
    World world(LoadSceneFile(ResolveScenePath("sliding_box")));
    FillSnapshot(world, 0, 0, &snapshot_);
    ui_.defaults = ComputeSceneDefaults(*snapshot_.scene);
    ui_.calibration.show = true;
    auto log = std::make_shared<ReferenceLog>();
    log->source = "log.csv";
    ui_.calibration.reference = log;
  }

  // Under `model`, every box checked before each click: the parameters whose checkboxes took a
  // click, and those a Fit asked for.
  void ClickDown(ContactApproximation model, std::set<ContactParameter>* toggled,
                 std::set<ContactParameter>* fitted) {
    snapshot_.contact_settings.approximation = model;
    const auto draw = [this] { CalibrateWindow(snapshot_, 1440, 900, &ui_, &actions_); };
    for (float y = 12; y < 760; y += 3) {
      ui_.calibration.fit.fill(true);
      panel_.Click(363, y, draw);
      for (int i = 0; i < kNumCalibrated; ++i) {
        if (!ui_.calibration.fit[i]) toggled->insert(kCalibratedParameters[i]);
      }
      if (actions_.calibrate && actions_.calibrate->kind == CalibrationRequest::Kind::kStart) {
        fitted->insert(actions_.calibrate->parameters.begin(),
                       actions_.calibrate->parameters.end());
      }
      actions_ = UiActions{};
    }
  }

  testing::HeadlessPanel panel_{1440, 900};
  Snapshot snapshot_;
  UiState ui_;
  UiActions actions_;
};

TEST_F(CalibratePanelClicks, OnlyTheParametersTheModelReadsAreCheckedAndFitted) {
  for (const ContactApproximation model : kApproximationChoices) {
    std::set<ContactParameter> read;
    for (const ContactParameter p : kCalibratedParameters) {
      if (UsesParameter(model, p)) read.insert(p);
    }
    std::set<ContactParameter> toggled, fitted;
    ClickDown(model, &toggled, &fitted);
    EXPECT_EQ(toggled, read) << ContactApproximationName(model);
    EXPECT_EQ(fitted, read) << ContactApproximationName(model);
  }
}

}  // namespace
}  // namespace contactlab
