// ContactSettings: one validation for the scene file, the command line and the live setter, and
// ApplyOverrides as a change that is applied whole or not at all.
#include "engine/solver/contact_settings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace contactlab {
namespace {

std::string ValidationMessage(const ContactSettings& s, ContactSettingNames names) {
  try {
    ValidateContactSettings(s, "scene.yaml: ", names);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ContactSettings, ValidationNamesTheSettingByItsSceneKeyOrItsOption) {
  struct Case {
    void (*spoil)(ContactSettings*);
    const char* scene_message;
    const char* option_message;
  };
  const Case cases[] = {
      {[](ContactSettings* s) { s->dt_s = 0; }, "scene.yaml: dt must be a positive finite number",
       "scene.yaml: --dt must be"},
      {[](ContactSettings* s) { s->stiction_tolerance_m_per_s = NAN; },
       "scene.yaml: stiction_tolerance must be", "scene.yaml: --stiction-tolerance must be"},
      {[](ContactSettings* s) { s->sap_sigma = -1; }, "scene.yaml: sigma must be",
       "scene.yaml: sigma must be"},
      {[](ContactSettings* s) { s->stiffness_N_per_m = 0; }, "scene.yaml: stiffness must be",
       "scene.yaml: --stiffness must be"},
      {[](ContactSettings* s) { s->hunt_crossley_s_per_m = -1e-9; },
       "scene.yaml: hunt_crossley must be a non-negative", "scene.yaml: --hunt-crossley must be"},
      {[](ContactSettings* s) { s->relaxation_time_s = INFINITY; },
       "scene.yaml: relaxation_time must be", "scene.yaml: --relaxation-time must be"},
      {[](ContactSettings* s) { s->friction = -0.1; }, "scene.yaml: friction must be",
       "scene.yaml: --friction must be"},
  };
  EXPECT_EQ(ValidationMessage(ContactSettings{}, ContactSettingNames::kSceneKeys), "");
  for (const Case& c : cases) {
    ContactSettings s;
    c.spoil(&s);
    SCOPED_TRACE(c.option_message);
    EXPECT_EQ(ValidationMessage(s, ContactSettingNames::kSceneKeys).rfind(c.scene_message, 0), 0u)
        << ValidationMessage(s, ContactSettingNames::kSceneKeys);
    EXPECT_EQ(ValidationMessage(s, ContactSettingNames::kOptions).rfind(c.option_message, 0), 0u)
        << ValidationMessage(s, ContactSettingNames::kOptions);
  }
}

TEST(ContactSettings, ZeroDissipationAndFrictionAreValidOverrides) {
  ContactSettings s;
  s.hunt_crossley_s_per_m = 0;
  s.relaxation_time_s = 0;
  s.friction = 0;
  EXPECT_EQ(ValidationMessage(s, ContactSettingNames::kOptions), "");
}

TEST(ContactSettings, AChangeSetsWhatItHoldsAndKeepsTheRest) {
  ContactSettings s;
  s.friction = 0.3;
  ContactOverrides change;
  change.dt_s = 5e-4;
  change.stiffness_N_per_m = 2e5;
  change.approximation = ContactApproximation::kSap;
  ApplyOverrides(change, &s);
  EXPECT_EQ(s.dt_s, 5e-4);
  EXPECT_EQ(s.stiffness_N_per_m, 2e5);
  EXPECT_EQ(s.approximation, ContactApproximation::kSap);
  EXPECT_EQ(s.friction, 0.3);                         // not in the change: kept
  EXPECT_EQ(s.stiction_tolerance_m_per_s, 1e-4);      // the default, untouched
  EXPECT_FALSE(s.hunt_crossley_s_per_m.has_value());  // still each pair's own
}

TEST(ContactSettings, AClearDropsThePairOverrideBeforeTheChangeSetsIt) {
  ContactSettings s;
  s.friction = 0.3;
  s.stiffness_N_per_m = 1e5;
  ContactOverrides clear;
  clear.clear.friction = true;
  ApplyOverrides(clear, &s);
  EXPECT_FALSE(s.friction.has_value());
  EXPECT_EQ(s.stiffness_N_per_m, 1e5);
  // A clear and a value in one change: the value wins (the clear comes first).
  ContactOverrides both;
  both.clear.stiffness = true;
  both.stiffness_N_per_m = 3e5;
  ApplyOverrides(both, &s);
  EXPECT_EQ(s.stiffness_N_per_m, 3e5);
}

TEST(ContactSettings, ABadChangeChangesNothing) {
  ContactSettings s;
  s.friction = 0.3;
  const ContactSettings before = s;
  ContactOverrides change;
  change.dt_s = 2e-3;    // valid, but part of a change that is rejected as a whole
  change.friction = -1;  // invalid
  try {
    ApplyOverrides(change, &s);
    FAIL() << "a negative friction was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--friction must be a non-negative finite number", 0), 0u)
        << e.what();
  }
  EXPECT_EQ(s, before);
}

}  // namespace
}  // namespace contactlab
