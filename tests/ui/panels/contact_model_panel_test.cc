// The contact model panel shows the settings the UI posted until a snapshot has them in force,
// then the snapshot's; a change the runtime would reject is posted but never shown.
#include "ui/panels/contact_model_panel.h"

#include <gtest/gtest.h>

#include <variant>

namespace contactlab {
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

}  // namespace
}  // namespace contactlab
