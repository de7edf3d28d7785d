// The stiffness read-out's reason (achieved against requested, docs/contact-model.md §2.1,
// §2.5 Table I) and the --contact-view list.
#include "ui/panels/stiffness_readout.h"

#include <gtest/gtest.h>

#include <string>

#include "ui/panels/contact_view_panel.h"

namespace contactlab {
namespace {

ContactResult Contact(double achieved, double requested, bool near_rigid) {
  ContactResult c;
  c.effective_stiffness_N_per_m = achieved;
  c.requested_stiffness_N_per_m = requested;
  c.near_rigid = near_rigid;
  return c;
}

TEST(StiffnessReadout, SaysWhyTheAchievedStiffnessDiffersFromTheRequestedOne) {
  constexpr ContactApproximation kSap = ContactApproximation::kSap;
  EXPECT_STREQ(StiffnessNote(Contact(1e6, 1e6, false), kSap), "as requested");
  EXPECT_STREQ(StiffnessNote(Contact(1.3e5, 1e9, true), kSap),
               "capped by the near-rigid rule (dt)");
  EXPECT_STREQ(StiffnessNote(Contact(9e5, 1e6, false), kSap), "softened while sliding (SAP)");
  EXPECT_STREQ(StiffnessNote(Contact(4e5, 1e5, false), ContactApproximation::kSimilar),
               "stiffened while slipping (Similar)");
  EXPECT_EQ(StiffnessRatioText(Contact(1.2345e5, 1e9, true)), "1.23e+05 / 1e+09 N/m");
}

// A rigid contact (docs/contact-model.md §8) reports an effective stiffness of 0 against the
// pair's k: read as a compliant one, it was "softened while sliding (SAP)".
TEST(StiffnessReadout, ARigidContactHasNoStiffnessToSetAgainstTheRequestedOne) {
  EXPECT_STREQ(StiffnessNote(Contact(0, 1e6, false), ContactApproximation::kSap),
               "softened while sliding (SAP)");
  EXPECT_STREQ(StiffnessNote(Contact(0, 1e6, false), ContactApproximation::kDrumwrightShell),
               "none: rigid contact");
}

TEST(ContactViewList, NamesTheViewsOnAndTurnsTheOthersOff) {
  RenderLayers layers;
  ASSERT_TRUE(layers.normal_forces && layers.friction_forces);
  ApplyContactViewList("", &layers);  // nothing given: as they were
  EXPECT_TRUE(layers.normal_forces && !layers.slip_arrows);
  ApplyContactViewList("slip,wireframe", &layers);
  EXPECT_TRUE(layers.slip_arrows && layers.patch_wireframe);
  EXPECT_FALSE(layers.normal_forces || layers.friction_forces || layers.traction_arrows);
  ApplyContactViewList("forces,traction", &layers);
  EXPECT_TRUE(layers.normal_forces && layers.friction_forces && layers.traction_arrows);
  EXPECT_FALSE(layers.slip_arrows || layers.patch_wireframe);
  ApplyContactViewList("none", &layers);
  EXPECT_FALSE(layers.normal_forces || layers.traction_arrows || layers.patch_wireframe);
}

}  // namespace
}  // namespace contactlab
