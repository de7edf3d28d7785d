// Where the gliding overlay goes, with known values: a box (B) on the ground (A) with normal +z
// and the contact point midway between the witness points.
#include "ui/view/gliding_line.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

constexpr int kGround = 0, kBox = 1;

// The box 0.1 mm into the ground (φ = −1e-4 m): witness points at z = 0 (ground) and
// z = −1e-4 (box), the contact point at their midpoint, sliding along +x.
ContactResult BoxOnGround(double gliding_offset_m) {
  ContactResult c;
  c.body_a = kGround;
  c.body_b = kBox;
  c.normal_W = Eigen::Vector3d::UnitZ();
  c.signed_distance_m = -1e-4;
  c.position_W = Eigen::Vector3d(0.3, 0.2, -0.5e-4);
  c.slip_velocity_W = Eigen::Vector3d(0.5, 0, 0);
  c.gliding_offset_m = gliding_offset_m;
  c.state = ContactResult::State::kSlip;
  return c;
}

TEST(GlidingLine, StandsTheOffsetAboveTheOtherBodysSurface) {
  const auto line = ComputeGlidingLine(BoxOnGround(3e-4), kBox);
  ASSERT_TRUE(line);
  EXPECT_NEAR(line->surface_W.z(), 0.0, 1e-15);  // the ground's surface
  EXPECT_NEAR(line->predicted_W.z(), 3e-4, 1e-15);
  EXPECT_DOUBLE_EQ(line->surface_W.x(), 0.3);
  EXPECT_DOUBLE_EQ(line->offset_m, 3e-4);
  EXPECT_NEAR((line->tangent_W - Eigen::Vector3d::UnitX()).norm(), 0, 1e-12);
  // Lagged: no offset, the line lies on the surface.
  const auto lagged = ComputeGlidingLine(BoxOnGround(0), kBox);
  ASSERT_TRUE(lagged);
  EXPECT_NEAR((lagged->predicted_W - lagged->surface_W).norm(), 0, 1e-15);
}

TEST(GlidingLine, FromTheOtherSideWhenTheBodyIsA) {
  // The same contact with the bodies' roles swapped: n̂ from the box (A) into the ground (B)
  // points down; the ground's surface is still z = 0 and the box floats above it.
  ContactResult c = BoxOnGround(3e-4);
  c.body_a = kBox;
  c.body_b = kGround;
  c.normal_W = -Eigen::Vector3d::UnitZ();
  const auto line = ComputeGlidingLine(c, kBox);
  ASSERT_TRUE(line);
  EXPECT_NEAR(line->surface_W.z(), 0.0, 1e-15);
  EXPECT_NEAR(line->predicted_W.z(), 3e-4, 1e-15);
}

TEST(GlidingLine, OnlyForPressedPointContactsOfTheBody) {
  EXPECT_FALSE(ComputeGlidingLine(BoxOnGround(3e-4), 7));  // not this contact's body
  ContactResult c = BoxOnGround(3e-4);
  c.state = ContactResult::State::kSeparating;
  EXPECT_FALSE(ComputeGlidingLine(c, kBox));
  c.state = ContactResult::State::kMargin;
  EXPECT_FALSE(ComputeGlidingLine(c, kBox));
  c = BoxOnGround(3e-4);
  c.hydroelastic_patch = 0;
  EXPECT_FALSE(ComputeGlidingLine(c, kBox));
  // Sticking: pressed, no slip direction; the line still lies in the contact plane.
  c = BoxOnGround(1e-7);
  c.state = ContactResult::State::kStick;
  c.slip_velocity_W.setZero();
  const auto stick = ComputeGlidingLine(c, kBox);
  ASSERT_TRUE(stick);
  EXPECT_NEAR(stick->tangent_W.dot(Eigen::Vector3d::UnitZ()), 0, 1e-12);
  EXPECT_NEAR(stick->tangent_W.norm(), 1, 1e-12);
}

}  // namespace
}  // namespace contactlab
