// The contact model panel shows the settings the UI posted until a snapshot has them in force,
// then the snapshot's; a change the runtime would reject is posted but never shown. Through Dear
// ImGui, headless (a context without a window or renderer), clicked like a user: the sliders of
// the parameters a model does not read are greyed out and take no click (docs/contact-model.md
// §8: Drumwright & Shell read only μ and ε), and the restitution slider's override goes through
// a World and back, and its reset restores the scene's value exactly.
#include "ui/panels/contact_model_panel.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <variant>

#include "engine/solver/contact_constraint_factory.h"
#include "engine/world/contact_properties.h"
#include "io/scene_loader.h"
#include "ui/panels/headless_panel.h"
#include "ui/widgets/widgets.h"

namespace contactlab {

// Found by argument-dependent lookup: gtest prints a set of parameters by their names.
static void PrintTo(ContactParameter p, std::ostream* os) {
  static constexpr const char* kNames[] = {"stiffness", "hunt_crossley",      "relaxation_time",
                                           "friction",  "stiction_tolerance", "restitution"};
  *os << kNames[static_cast<int>(p)];
}

namespace {

const ContactOverrides& PostedChange(const UiActions& actions, size_t i) {
  return std::get<command::SetOverrides>(actions.commands.at(i)).overrides;
}

TEST(ContactModelPanel, ShowsThePostedSettingsUntilASnapshotHasThem) {
  Snapshot snapshot;
  snapshot.contact_settings.friction = 0.5;
  UiState ui;
  UiActions actions;
  EXPECT_EQ(ShownContactSettings(snapshot, &ui), snapshot.contact_settings);

  ContactOverrides faster;
  faster.dt_s = 5e-4;
  PostContactChange(faster, snapshot, &ui, &actions);
  ContactOverrides clear_friction;
  clear_friction.clear.friction = true;
  PostContactChange(clear_friction, snapshot, &ui, &actions);
  ASSERT_EQ(actions.commands.size(), 2u);
  EXPECT_EQ(PostedChange(actions, 0), faster);
  EXPECT_EQ(PostedChange(actions, 1), clear_friction);
  // The snapshot lags: both changes are shown at once, on top of what it had.
  ContactSettings expected = snapshot.contact_settings;
  expected.dt_s = 5e-4;
  expected.friction.reset();
  EXPECT_EQ(ShownContactSettings(snapshot, &ui), expected);

  // The first change arrives: still the UI's (the second is on its way).
  snapshot.contact_settings.dt_s = 5e-4;
  EXPECT_EQ(ShownContactSettings(snapshot, &ui), expected);
  ASSERT_TRUE(ui.posted_settings.has_value());
  // Both have arrived: from now on the snapshot's, whatever changes them (a timeline scrub).
  snapshot.contact_settings.friction.reset();
  EXPECT_EQ(ShownContactSettings(snapshot, &ui), expected);
  EXPECT_FALSE(ui.posted_settings.has_value());
  snapshot.contact_settings.dt_s = 2e-3;
  EXPECT_EQ(ShownContactSettings(snapshot, &ui).dt_s, 2e-3);
}

TEST(ContactModelPanel, ARejectedChangeIsPostedForItsErrorButNotShown) {
  Snapshot snapshot;
  UiState ui;
  UiActions actions;
  ContactOverrides bad;
  bad.friction = -1;
  PostContactChange(bad, snapshot, &ui, &actions);
  ASSERT_EQ(actions.commands.size(), 1u);
  EXPECT_EQ(PostedChange(actions, 0), bad);
  EXPECT_FALSE(ui.posted_settings.has_value());
  EXPECT_FALSE(ShownContactSettings(snapshot, &ui).friction.has_value());
}

constexpr ContactParameter kAllParameters[] = {
    ContactParameter::kStiffness,         ContactParameter::kHuntCrossley,
    ContactParameter::kRelaxationTime,    ContactParameter::kFriction,
    ContactParameter::kStictionTolerance, ContactParameter::kRestitution};

// The parameters a change sets (the approximation and δt are not pair parameters).
std::set<ContactParameter> ParametersSet(const ContactOverrides& o) {
  std::set<ContactParameter> set;
  if (o.stiffness_N_per_m) set.insert(ContactParameter::kStiffness);
  if (o.hunt_crossley_s_per_m) set.insert(ContactParameter::kHuntCrossley);
  if (o.relaxation_time_s) set.insert(ContactParameter::kRelaxationTime);
  if (o.friction) set.insert(ContactParameter::kFriction);
  if (o.stiction_tolerance_m_per_s) set.insert(ContactParameter::kStictionTolerance);
  if (o.restitution) set.insert(ContactParameter::kRestitution);
  return set;
}

// The panel in the sidebar's widest (ComputePanelLayout: 340 pixels), clicked down a column.
class ContactModelPanelClicks : public ::testing::Test {
 protected:
  // Clicks down the column at x, every 3 pixels, each click on the settings in force (what an
  // earlier click posted is dropped); calls `posted` with each pair-parameter change posted (a
  // click on the approximation combo opens it, and the next one picks a model: not a pair
  // parameter, dropped).
  void ClickDown(float x, const std::function<void(const ContactOverrides&)>& posted) {
    const auto draw = [this] { ContactModelPanel(snapshot_, &ui_, &actions_); };
    for (float y = 2; y < panel_.height(); y += 3) {
      panel_.Click(x, y, draw);
      for (const Command& c : actions_.commands) {
        const ContactOverrides& o = std::get<command::SetOverrides>(c).overrides;
        if (!o.approximation) posted(o);
      }
      actions_.commands.clear();
      ui_.posted_settings.reset();
    }
  }

  // The parameters whose sliders took a click, under `model`.
  std::set<ContactParameter> LiveSliders(ContactApproximation model) {
    snapshot_.contact_settings.approximation = model;
    std::set<ContactParameter> live;
    ClickDown(panel_.width() / 2,
              [&live](const ContactOverrides& o) { live.merge(ParametersSet(o)); });
    return live;
  }

  testing::HeadlessPanel panel_{340, 600};
  Snapshot snapshot_;
  UiState ui_;
  UiActions actions_;
};

TEST_F(ContactModelPanelClicks, GreysOutExactlyTheSlidersTheModelDoesNotRead) {
  for (const ContactApproximation model : kApproximationChoices) {
    std::set<ContactParameter> read;
    for (const ContactParameter p : kAllParameters) {
      if (UsesParameter(model, p)) read.insert(p);
    }
    EXPECT_EQ(LiveSliders(model), read) << ContactApproximationName(model);
    // ε is the rigid model's alone: a compliant model dissipates through its damping.
    EXPECT_EQ(read.count(ContactParameter::kRestitution),
              model == ContactApproximation::kDrumwrightShell)
        << ContactApproximationName(model);
  }
  // Drumwright & Shell (docs/contact-model.md §8): no stiffness, dissipation or stiction
  // tolerance; μ and ε only.
  EXPECT_EQ(LiveSliders(ContactApproximation::kDrumwrightShell),
            (std::set{ContactParameter::kFriction, ContactParameter::kRestitution}));
}

TEST_F(ContactModelPanelClicks,
       TheRestitutionOverrideGoesThroughAWorldAndItsResetRestoresTheScene) {
  SceneSpec scene = LoadSceneFile(ResolveScenePath("falling_sphere"));
  scene.contact_settings.approximation = ContactApproximation::kDrumwrightShell;
  scene.bodies[scene.FindBody("ground")].geometries[0].contact.restitution = 0.25;
  World world(scene);
  ui_.defaults = ComputeSceneDefaults(scene);
  FillSnapshot(world, 0, 0, &snapshot_);
  const ContactSettings scene_settings = snapshot_.contact_settings;
  ASSERT_FALSE(scene_settings.restitution.has_value());
  const auto sphere_on_ground = [&world, &scene]() {
    return CombinePointContactProperties(
               scene.bodies[scene.FindBody("sphere")].geometries[0].contact,
               scene.bodies[scene.FindBody("ground")].geometries[0].contact,
               world.contact_settings())
        .restitution;
  };
  EXPECT_EQ(sphere_on_ground(), 0.25) << "the larger of the pair's";

  // The slider's click (mid-slider: ε = 0.5, thereabouts) posts the override of every pair.
  std::optional<ContactOverrides> change;
  ClickDown(panel_.width() / 2, [&change](const ContactOverrides& o) {
    if (o.restitution && !change) change = o;
  });
  ASSERT_TRUE(change.has_value()) << "the restitution slider took no click";
  const double epsilon = *change->restitution;
  EXPECT_GT(epsilon, 0.3);
  EXPECT_LT(epsilon, 0.7);
  EXPECT_EQ(ParametersSet(*change), std::set{ContactParameter::kRestitution});
  // The sim thread applies it between steps; the next snapshot has it, and the panel shows it.
  world.SetOverrides(*change);
  ASSERT_TRUE(world.Step());
  FillSnapshot(world, 0, 1, &snapshot_);
  EXPECT_EQ(ShownContactSettings(snapshot_, &ui_).restitution, epsilon);
  EXPECT_EQ(sphere_on_ground(), epsilon) << "the override replaces the pair's";

  // Its reset (right of the slider, enabled while overridden) clears the override: every pair
  // has its own scene value again, exactly.
  std::optional<ContactOverrides> reset;
  ClickDown(panel_.width() - 20, [&reset](const ContactOverrides& o) {
    if (o.clear.restitution) reset = o;
  });
  ASSERT_TRUE(reset.has_value()) << "no reset posted";
  ContactOverrides expected;
  expected.clear.restitution = true;
  EXPECT_EQ(*reset, expected);
  world.SetOverrides(*reset);
  FillSnapshot(world, 0, 2, &snapshot_);
  EXPECT_EQ(snapshot_.contact_settings, scene_settings);
  EXPECT_EQ(sphere_on_ground(), 0.25);
}

}  // namespace
}  // namespace contactlab
