// The contact colour modes with known values: the mode names, the 1-2-5 top of the automatic
// scale, the default scales, and which colour of the map a contact gets.
#include "render/contact_colors.h"

#include <gtest/gtest.h>

#include <limits>

#include "render/color_map.h"
#include "render/palette.h"
#include "render/rgb8.h"

namespace contactlab {
namespace {

void ExpectEq(Rgb8 actual, Rgb8 expected) {
  EXPECT_EQ(actual.r, expected.r);
  EXPECT_EQ(actual.g, expected.g);
  EXPECT_EQ(actual.b, expected.b);
}

ContactResult Sliding(double gliding_offset_m, double slip_speed_m_per_s) {
  ContactResult c;
  c.position_W.setZero();
  c.normal_W = Eigen::Vector3d::UnitZ();
  c.state = ContactResult::State::kSlip;
  c.gliding_offset_m = gliding_offset_m;
  c.slip_velocity_W = Eigen::Vector3d(0, slip_speed_m_per_s, 0);
  return c;
}

TEST(ContactColors, ModeNamesRoundTripAndRejectOthers) {
  for (ContactColorMode m :
       {ContactColorMode::kState, ContactColorMode::kGliding, ContactColorMode::kSlip}) {
    EXPECT_EQ(ParseContactColorMode(ContactColorModeName(m)), m);
  }
  EXPECT_STREQ(ContactColorModeName(ContactColorMode::kGliding), "gliding");
  EXPECT_FALSE(ParseContactColorMode("Gliding"));
  EXPECT_FALSE(ParseContactColorMode(""));
  EXPECT_FALSE(ParseContactColorMode("pressure"));
}

TEST(ContactColors, NiceUpperBoundRoundsUpToOneTwoFive) {
  EXPECT_DOUBLE_EQ(NiceUpperBound(3.1e-4), 5e-4);
  EXPECT_DOUBLE_EQ(NiceUpperBound(2e-4), 2e-4);
  EXPECT_DOUBLE_EQ(NiceUpperBound(2.0001e-4), 5e-4);
  EXPECT_DOUBLE_EQ(NiceUpperBound(1.2), 2.0);
  EXPECT_DOUBLE_EQ(NiceUpperBound(6.0), 10.0);
  EXPECT_DOUBLE_EQ(NiceUpperBound(1e-3), 1e-3);
  EXPECT_EQ(NiceUpperBound(0.0), 0.0);
  EXPECT_EQ(NiceUpperBound(-1.0), 0.0);
  EXPECT_EQ(NiceUpperBound(std::numeric_limits<double>::quiet_NaN()), 0.0);
}

TEST(ContactColors, AutoTopIsTheLargestValueRoundedUpOrTheDefaultScale) {
  const std::vector<ContactResult> contacts = {Sliding(1e-4, 0.02), Sliding(3.1e-4, 0.3)};
  EXPECT_DOUBLE_EQ(AutoContactColorTop(contacts, ContactColorMode::kGliding), 5e-4);
  EXPECT_DOUBLE_EQ(AutoContactColorTop(contacts, ContactColorMode::kSlip), 0.5);
  // Lagged: no gliding anywhere; the bar keeps a readable 1 mm scale.
  const std::vector<ContactResult> lagged = {Sliding(0, 0.3)};
  EXPECT_DOUBLE_EQ(AutoContactColorTop(lagged, ContactColorMode::kGliding), 1e-3);
  EXPECT_DOUBLE_EQ(AutoContactColorTop({}, ContactColorMode::kSlip), 1e-2);
  // A sticking contact's numerical noise gets the default scale, not a 5e-20 m/s one.
  const std::vector<ContactResult> stick = {Sliding(3e-15, 3e-20)};
  EXPECT_DOUBLE_EQ(AutoContactColorTop(stick, ContactColorMode::kGliding), 1e-3);
  EXPECT_DOUBLE_EQ(AutoContactColorTop(stick, ContactColorMode::kSlip), 1e-2);
  const std::vector<ContactResult> small = {Sliding(1.5e-6, 1.5e-5)};
  EXPECT_DOUBLE_EQ(AutoContactColorTop(small, ContactColorMode::kGliding), 2e-6);
  EXPECT_DOUBLE_EQ(AutoContactColorTop(small, ContactColorMode::kSlip), 2e-5);
  EXPECT_DOUBLE_EQ(ContactColorTop(ContactColorMode::kGliding, 2e-4), 2e-4);
}

TEST(ContactColors, ValuesLandOnTheColourMapLinearly) {
  const ContactResult top = Sliding(5e-4, 0.5), half = Sliding(2.5e-4, 0.25), zero = Sliding(0, 0);
  ExpectEq(ContactColor(top, ContactColorMode::kGliding, 5e-4), PressureColorMap8(1.0f));
  ExpectEq(ContactColor(half, ContactColorMode::kGliding, 5e-4), PressureColorMap8(0.5f));
  ExpectEq(ContactColor(zero, ContactColorMode::kGliding, 5e-4), PressureColorMap8(0.0f));
  ExpectEq(ContactColor(half, ContactColorMode::kSlip, 0.5), PressureColorMap8(0.5f));
  // Above the top saturates; viridis' ends are dark purple and yellow.
  ExpectEq(ContactColor(top, ContactColorMode::kGliding, 1e-4), Rgb8{253, 231, 37});
  ExpectEq(ContactColor(zero, ContactColorMode::kSlip, 0.5), Rgb8{68, 1, 84});
  // By state: the state colours, whatever the values.
  ExpectEq(ContactColor(top, ContactColorMode::kState, 5e-4), kSlipColor);
  ContactResult stick = top;
  stick.state = ContactResult::State::kStick;
  ExpectEq(ContactColor(stick, ContactColorMode::kState, 0), kStickColor);
  stick.state = ContactResult::State::kSeparating;
  ExpectEq(ContactColor(stick, ContactColorMode::kState, 0), kMarginColor);
}

}  // namespace
}  // namespace contactlab
