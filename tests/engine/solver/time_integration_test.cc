#include "engine/solver/time_integration.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "engine/solver/contact_settings.h"

namespace contactlab {
namespace {

TEST(TimeIntegration, NamesRoundTrip) {
  for (const char* name : {"symplectic_euler", "implicit_euler", "midpoint", "error_controlled",
                           "theta:0.25,0.75", "theta:0,0"}) {
    const auto parsed = ParseTimeIntegration(name);
    ASSERT_TRUE(parsed) << name;
    EXPECT_EQ(TimeIntegrationName(*parsed), name);
  }
  EXPECT_EQ(*ParseTimeIntegration("theta:0.5,0.5"), TimeIntegration::Midpoint());
  EXPECT_EQ(*ParseTimeIntegration("theta:1,1"), TimeIntegration::ImplicitEuler());
  // The accuracy is error control's: a θ scheme is named by its weights alone.
  TimeIntegration midpoint = TimeIntegration::Midpoint();
  midpoint.accuracy = 1e-5;
  EXPECT_EQ(TimeIntegrationName(midpoint), "midpoint");
  // Symplectic Euler by name is the default step (linearly implicit springs), not theta:1,0.
  EXPECT_NE(*ParseTimeIntegration("symplectic_euler"), TimeIntegration::Theta(1, 0));
}

TEST(TimeIntegration, RejectsOtherText) {
  for (const char* text :
       {"", "rk4", "theta:", "theta:0.5", "theta:a,b", "theta:0.5,0.5x", "Midpoint"}) {
    EXPECT_FALSE(ParseTimeIntegration(text)) << text;
  }
}

TEST(TimeIntegration, ValidationNamesTheSetting) {
  ContactSettings s;
  s.integrator = TimeIntegration::Theta(1.5, 0.5);
  try {
    ValidateContactSettings(s, "", ContactSettingNames::kOptions);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--integrator θ must be in [0, 1], got 1.5");
  }
  s.integrator = TimeIntegration::ErrorControlled(0);
  try {
    ValidateContactSettings(s, "scene.yaml: ", ContactSettingNames::kSceneKeys);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "scene.yaml: accuracy must be in [1e-8, 1], got 0");
  }
}

}  // namespace
}  // namespace contactlab
