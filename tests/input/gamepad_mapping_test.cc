// Gamepad mapping: stick deflections through dead zone and expo → twists with known values,
// shoulder buttons are not an axis (GamepadDevice times them), fine mode, disconnected → zero.
#include "input/gamepad_mapping.h"

#include <gtest/gtest.h>

#include <cmath>

namespace contactlab {
namespace {

using S = GamepadState;

GamepadState Connected() {
  GamepadState s;
  s.connected = true;
  s.name = "Test Pad";
  s.axes[S::kLeftTrigger] = s.axes[S::kRightTrigger] = -1.0f;  // released
  return s;
}

TEST(GamepadMappingTest, ShapeIsZeroInsideTheDeadZoneAndContinuousAtItsEdge) {
  const GamepadConfig config;  // dead zone 0.1, expo 0.5
  EXPECT_EQ(ShapeGamepadAxis(0.0, config), 0.0);
  EXPECT_EQ(ShapeGamepadAxis(0.1, config), 0.0);
  EXPECT_EQ(ShapeGamepadAxis(-0.09, config), 0.0);
  EXPECT_LT(ShapeGamepadAxis(0.1001, config), 1e-3);  // no jump at the edge
  EXPECT_GT(ShapeGamepadAxis(0.1001, config), 0.0);
  EXPECT_EQ(ShapeGamepadAxis(std::nan(""), config), 0.0);
}

TEST(GamepadMappingTest, ShapeFollowsTheExpoCurveToFullScale) {
  const GamepadConfig config;
  // 0.55 is half-way from the dead zone's edge (0.1) to 1: u = 0.5,
  // out = 0.5 * 0.5 + 0.5 * 0.125 = 0.3125.
  EXPECT_DOUBLE_EQ(ShapeGamepadAxis(0.55, config), 0.3125);
  EXPECT_DOUBLE_EQ(ShapeGamepadAxis(-0.55, config), -0.3125);
  EXPECT_DOUBLE_EQ(ShapeGamepadAxis(1.0, config), 1.0);
  EXPECT_DOUBLE_EQ(ShapeGamepadAxis(-1.0, config), -1.0);
  EXPECT_DOUBLE_EQ(ShapeGamepadAxis(1.2, config), 1.0);  // overshoot saturates
  GamepadConfig linear;
  linear.expo = 0.0;
  EXPECT_DOUBLE_EQ(ShapeGamepadAxis(0.55, linear), 0.5);
  GamepadConfig cubic;
  cubic.expo = 1.0;
  cubic.dead_zone = 0.0;
  EXPECT_DOUBLE_EQ(ShapeGamepadAxis(0.5, cubic), 0.125);
}

TEST(GamepadMappingTest, LeftStickTranslatesInTheRobotsAxes) {
  const GamepadConfig config;  // 0.10 m/s at full deflection
  GamepadState s = Connected();
  TeleopCommand c;
  s.axes[S::kLeftY] = -1.0f;  // stick pushed up (GLFW's y points down) → forward
  GamepadToTwist(s, config, &c);
  EXPECT_EQ(c.linear_m_per_s, Eigen::Vector3d(0.10, 0, 0));
  EXPECT_TRUE(c.angular_rad_per_s.isZero(0.0));
  s.axes[S::kLeftY] = 0.0f;
  s.axes[S::kLeftX] = 0.55f;  // half-way right → -y at 0.3125 × 0.10 m/s
  GamepadToTwist(s, config, &c);
  EXPECT_NEAR(c.linear_m_per_s.y(), -0.03125, 1e-8);  // 0.55f is not exactly 0.55
  EXPECT_EQ(c.linear_m_per_s.x(), 0.0);
  EXPECT_EQ(c.linear_m_per_s.z(), 0.0);
}

TEST(GamepadMappingTest, InsideTheDeadZoneEverythingIsZero) {
  GamepadState s = Connected();
  for (float& a : s.axes) a = 0.08f;
  s.axes[S::kLeftTrigger] = s.axes[S::kRightTrigger] = -0.85f;  // 0.075 pressed
  TeleopCommand c;
  c.linear_m_per_s.setOnes();  // overwritten, not accumulated
  GamepadToTwist(s, GamepadConfig{}, &c);
  EXPECT_TRUE(c.IsZeroTwist());
}

// The shoulder buttons are buttons in time (GamepadDevice: a tap a jog step, a hold the speed),
// not an axis of the state's mapping.
TEST(GamepadMappingTest, ShoulderButtonsAreNoAxis) {
  GamepadState s = Connected();
  TeleopCommand c;
  s.buttons[S::kRightBumper] = true;
  s.axes[S::kLeftY] = -1.0f;
  GamepadToTwist(s, GamepadConfig{}, &c);
  EXPECT_EQ(c.linear_m_per_s, Eigen::Vector3d(0.10, 0, 0));
}

TEST(GamepadMappingTest, RightStickAndTriggersRotate) {
  GamepadState s = Connected();
  TeleopCommand c;
  s.axes[S::kRightX] = -1.0f;  // left → +yaw at 0.5 rad/s
  GamepadToTwist(s, GamepadConfig{}, &c);
  EXPECT_EQ(c.angular_rad_per_s, Eigen::Vector3d(0, 0, 0.5));
  EXPECT_TRUE(c.linear_m_per_s.isZero(0.0));
  s.axes[S::kRightX] = 0.0f;
  s.axes[S::kRightY] = -1.0f;  // up → +pitch
  GamepadToTwist(s, GamepadConfig{}, &c);
  EXPECT_EQ(c.angular_rad_per_s, Eigen::Vector3d(0, 0.5, 0));
  s.axes[S::kRightY] = 0.0f;
  s.axes[S::kRightTrigger] = 1.0f;  // fully pressed → +roll
  GamepadToTwist(s, GamepadConfig{}, &c);
  EXPECT_EQ(c.angular_rad_per_s, Eigen::Vector3d(0.5, 0, 0));
  s.axes[S::kRightTrigger] = 0.1f;  // 0.55 pressed: u = 0.5 → 0.3125 × 0.5 rad/s
  GamepadToTwist(s, GamepadConfig{}, &c);
  EXPECT_NEAR(c.angular_rad_per_s.x(), 0.15625, 1e-7);  // float input
  s.axes[S::kRightTrigger] = -1.0f;
  s.axes[S::kLeftTrigger] = 1.0f;
  GamepadToTwist(s, GamepadConfig{}, &c);
  EXPECT_EQ(c.angular_rad_per_s, Eigen::Vector3d(-0.5, 0, 0));
}

TEST(GamepadMappingTest, FineModeScalesByFineFactor) {
  GamepadState s = Connected();
  s.axes[S::kLeftY] = -1.0f;
  s.axes[S::kRightX] = 1.0f;
  s.buttons[S::kB] = true;
  TeleopCommand c;
  GamepadToTwist(s, GamepadConfig{}, &c);
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.x(), 0.10 * 0.2);
  EXPECT_DOUBLE_EQ(c.angular_rad_per_s.z(), -0.5 * 0.2);
}

TEST(GamepadMappingTest, DisconnectedGivesZeroTwist) {
  GamepadState s = Connected();
  s.axes[S::kLeftX] = 1.0f;
  s.buttons[S::kRightBumper] = true;
  s.connected = false;
  TeleopCommand c;
  c.linear_m_per_s.setOnes();
  GamepadToTwist(s, GamepadConfig{}, &c);
  EXPECT_TRUE(c.IsZeroTwist());
}

}  // namespace
}  // namespace contactlab
