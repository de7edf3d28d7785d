// Keyboard teleoperation: key combinations → twist and grip; the help-panel key map.
#include "input/keyboard_device.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace contactlab {
namespace {

TEST(KeyboardDeviceTest, NoKeysMeansZeroTwistAndOpenGrip) {
  KeyboardDevice kb;
  const TeleopCommand c = kb.Poll(2.5);
  EXPECT_TRUE(c.IsZeroTwist());
  EXPECT_EQ(c.grip, 0.0);
  EXPECT_EQ(c.t, 2.5);
  EXPECT_EQ(c.frame, CommandFrame::kWorld);
}

TEST(KeyboardDeviceTest, SingleKeysTranslateAndRotate) {
  KeyboardDevice kb;
  kb.SetKeyByName("W", true);
  EXPECT_EQ(kb.Poll(0).linear_m_per_s, Eigen::Vector3d(0.1, 0, 0));
  kb.SetKeyByName("W", false);
  kb.SetKeyByName("d", true);  // names are case-insensitive
  EXPECT_EQ(kb.Poll(0).linear_m_per_s, Eigen::Vector3d(0, -0.1, 0));
  kb.SetKeyByName("d", false);
  kb.SetKeyByName("E", true);
  EXPECT_EQ(kb.Poll(0).linear_m_per_s, Eigen::Vector3d(0, 0, 0.1));
  kb.SetKeyByName("E", false);
  kb.SetKeyByName("J", true);
  const TeleopCommand c = kb.Poll(0);
  EXPECT_TRUE(c.linear_m_per_s.isZero(0.0));
  EXPECT_EQ(c.angular_rad_per_s, Eigen::Vector3d(0, 0, 0.5));
  kb.SetKeyByName("J", false);
  kb.SetKeyByName("K", true);
  EXPECT_EQ(kb.Poll(0).angular_rad_per_s, Eigen::Vector3d(0, -0.5, 0));
  kb.SetKeyByName("K", false);
  kb.SetKeyByName("U", true);
  EXPECT_EQ(kb.Poll(0).angular_rad_per_s, Eigen::Vector3d(0.5, 0, 0));
}

TEST(KeyboardDeviceTest, CombinationsKeepSpeedAndOppositesCancel) {
  KeyboardDevice kb;
  kb.SetKey(KeyAction::kMoveXPos, true);
  kb.SetKey(KeyAction::kMoveYPos, true);  // W + A: diagonal at the same speed
  TeleopCommand c = kb.Poll(0);
  EXPECT_NEAR(c.linear_m_per_s.x(), 0.1 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(c.linear_m_per_s.y(), 0.1 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(c.linear_m_per_s.norm(), 0.1, 1e-15);
  kb.SetKey(KeyAction::kMoveXNeg, true);  // + S cancels W
  c = kb.Poll(0);
  EXPECT_EQ(c.linear_m_per_s, Eigen::Vector3d(0, 0.1, 0));
  kb.SetKey(KeyAction::kRotZNeg, true);  // translate and rotate together
  c = kb.Poll(0);
  EXPECT_EQ(c.linear_m_per_s, Eigen::Vector3d(0, 0.1, 0));
  EXPECT_EQ(c.angular_rad_per_s, Eigen::Vector3d(0, 0, -0.5));
  kb.ReleaseAll();  // focus lost: nothing sticks
  EXPECT_TRUE(kb.Poll(0).IsZeroTwist());
}

TEST(KeyboardDeviceTest, SpeedScaleAndFineMode) {
  KeyboardDevice kb;
  kb.SetKeyByName("+", true);
  kb.SetKeyByName("+", true);  // auto-repeat: no second step
  kb.SetKeyByName("+", false);
  kb.SetKeyByName("+", true);
  kb.SetKeyByName("+", false);
  EXPECT_NEAR(kb.speed_scale(), 2.0, 1e-12);
  kb.SetKey(KeyAction::kMoveZNeg, true);
  EXPECT_NEAR(kb.Poll(0).linear_m_per_s.z(), -0.2, 1e-12);
  kb.SetKeyByName("Shift", true);
  EXPECT_NEAR(kb.Poll(0).linear_m_per_s.z(), -0.2 * 0.2, 1e-12);
  EXPECT_NE(kb.Status().find("fine"), std::string::npos);
  kb.SetKeyByName("Shift", false);
  for (int i = 0; i < 20; ++i) {
    kb.SetKey(KeyAction::kSpeedDown, true);
    kb.SetKey(KeyAction::kSpeedDown, false);
  }
  EXPECT_DOUBLE_EQ(kb.speed_scale(), 0.125);  // clamped
  for (int i = 0; i < 20; ++i) {
    kb.SetKey(KeyAction::kSpeedUp, true);
    kb.SetKey(KeyAction::kSpeedUp, false);
  }
  EXPECT_DOUBLE_EQ(kb.speed_scale(), 4.0);
}

TEST(KeyboardDeviceTest, SpaceTogglesGripOncePerPress) {
  KeyboardDevice kb;
  kb.SetKeyByName("Space", true);
  kb.SetKeyByName("Space", true);  // held / auto-repeat
  EXPECT_EQ(kb.Poll(0).grip, 1.0);
  kb.SetKeyByName("Space", false);
  EXPECT_EQ(kb.Poll(0).grip, 1.0);
  kb.SetKeyByName("Space", true);
  kb.SetKeyByName("Space", false);
  EXPECT_EQ(kb.Poll(0).grip, 0.0);
}

TEST(KeyboardDeviceTest, DefaultKeyMapCoversEveryActionOnce) {
  std::set<KeyAction> actions;
  std::set<std::string> keys;
  for (const KeyBinding& b : DefaultKeyMap()) {
    EXPECT_TRUE(actions.insert(b.action).second);
    EXPECT_TRUE(keys.insert(b.key).second);
    EXPECT_STRNE(b.description, "");
    EXPECT_EQ(ActionForKey(b.key), b.action);
  }
  EXPECT_EQ(actions.size(), static_cast<size_t>(KeyAction::kCount));
  EXPECT_FALSE(ActionForKey("F13").has_value());
  KeyboardDevice kb;
  EXPECT_FALSE(kb.SetKeyByName("F13", true));
}

}  // namespace
}  // namespace contactlab
