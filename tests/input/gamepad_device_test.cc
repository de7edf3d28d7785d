// GamepadDevice: the A button's press edge toggles the grip once, hot-plug status, the merged
// `--input gamepad` device keeps the keyboard working.
#include "input/gamepad_device.h"

#include <gtest/gtest.h>

#include "input/input_spec.h"

namespace contactlab {
namespace {

using S = GamepadState;

GamepadState Pad() {
  GamepadState s;
  s.connected = true;
  s.name = "Test Pad";
  s.axes[S::kLeftTrigger] = s.axes[S::kRightTrigger] = -1.0f;
  return s;
}

TEST(GamepadDeviceTest, StartsDisconnectedWithZeroTwistAndOpenGrip) {
  GamepadDevice pad;
  const TeleopCommand c = pad.Poll(1.5);
  EXPECT_TRUE(c.IsZeroTwist());
  EXPECT_EQ(c.grip, 0.0);
  EXPECT_EQ(c.t, 1.5);
  EXPECT_FALSE(pad.Connected());
  EXPECT_EQ(pad.Status(), GamepadDevice::kNoGamepadStatus);
  EXPECT_EQ(pad.Name(), "gamepad");
  EXPECT_TRUE(pad.IsLive());
}

TEST(GamepadDeviceTest, PressEdgeTogglesGripOnceWhileHolding) {
  GamepadDevice pad;
  GamepadState s = Pad();
  pad.SetState(s);
  EXPECT_EQ(pad.Poll(0).grip, 0.0);
  s.buttons[S::kA] = true;
  pad.SetState(s);
  EXPECT_EQ(pad.Poll(0).grip, 1.0);
  pad.SetState(s);  // still held: no new toggle
  pad.SetState(s);
  EXPECT_EQ(pad.Poll(0).grip, 1.0);
  s.buttons[S::kA] = false;
  pad.SetState(s);
  EXPECT_EQ(pad.Poll(0).grip, 1.0);  // release does nothing
  s.buttons[S::kA] = true;
  pad.SetState(s);
  EXPECT_EQ(pad.Poll(0).grip, 0.0);  // second press opens
}

TEST(GamepadDeviceTest, PollMapsTheLatestState) {
  GamepadDevice pad;
  GamepadState s = Pad();
  s.axes[S::kLeftY] = -0.55f;  // half-way up beyond the dead zone → 0.3125 × 0.10 m/s
  pad.SetState(s);
  const TeleopCommand c = pad.Poll(0);
  EXPECT_NEAR(c.linear_m_per_s.x(), 0.03125, 1e-8);  // float input
  EXPECT_EQ(c.frame, CommandFrame::kWorld);
  EXPECT_EQ(pad.Status(), "gamepad: Test Pad");
  s.buttons[S::kB] = true;
  pad.SetState(s);
  EXPECT_NEAR(pad.Poll(0).linear_m_per_s.x(), 0.03125 * 0.2, 1e-8);
  EXPECT_EQ(pad.Status(), "gamepad: Test Pad (fine)");
}

TEST(GamepadDeviceTest, UnplugZeroesTwistHoldsGripAndReplugDoesNotToggle) {
  GamepadDevice pad;
  GamepadState s = Pad();
  s.buttons[S::kA] = true;
  s.axes[S::kLeftX] = 1.0f;
  pad.SetState(s);
  ASSERT_EQ(pad.Poll(0).grip, 1.0);
  pad.SetState(GamepadState{});  // unplugged with A held and the stick deflected
  const TeleopCommand c = pad.Poll(0);
  EXPECT_TRUE(c.IsZeroTwist());
  EXPECT_EQ(c.grip, 1.0);
  EXPECT_FALSE(pad.Connected());
  EXPECT_EQ(pad.Status(), GamepadDevice::kNoGamepadStatus);
  s.buttons[S::kA] = false;
  pad.SetState(s);  // plugged back in, A released
  EXPECT_TRUE(pad.Connected());
  EXPECT_EQ(pad.Poll(0).grip, 1.0);
  EXPECT_DOUBLE_EQ(pad.Poll(0).linear_m_per_s.y(), -0.10);
}

TEST(GamepadDeviceTest, InputGamepadIsMergedWithTheKeyboard) {
  InputSpec spec;
  std::string error;
  ASSERT_TRUE(ParseInputSpec("gamepad", &spec, &error)) << error;
  EXPECT_EQ(spec.kind, InputSpec::Kind::kGamepad);
  InputDevices devices;
  ASSERT_TRUE(CreateInputDevices(spec, &devices, &error)) << error;
  ASSERT_NE(devices.gamepad, nullptr);
  EXPECT_EQ(devices.active->Name(), "gamepad+keyboard");
  EXPECT_FALSE(devices.active->Connected());  // no pad yet: the UI warns
  EXPECT_NE(devices.active->Status().find(GamepadDevice::kNoGamepadStatus), std::string::npos);
  devices.keyboard->SetKey(KeyAction::kMoveXPos, true);  // the keyboard still drives
  EXPECT_DOUBLE_EQ(devices.active->Poll(0).linear_m_per_s.x(), 0.10);
  devices.keyboard->SetKey(KeyAction::kMoveXPos, false);

  GamepadState s = Pad();
  s.buttons[S::kRightBumper] = true;
  s.buttons[S::kA] = true;
  devices.gamepad->SetState(s);
  const TeleopCommand c = devices.active->Poll(0);
  EXPECT_TRUE(devices.active->Connected());
  EXPECT_EQ(c.linear_m_per_s, Eigen::Vector3d(0, 0, 0.10));
  EXPECT_EQ(c.grip, 1.0);

  InputDevices keyboard_only;
  ASSERT_TRUE(CreateInputDevices("keyboard", &keyboard_only, &error));
  EXPECT_EQ(keyboard_only.active, keyboard_only.keyboard);
  keyboard_only.gamepad->SetState(s);  // fed by the GUI but not driving
  EXPECT_EQ(keyboard_only.active->Poll(0).linear_m_per_s, Eigen::Vector3d::Zero());
}

// The teleop panel's switch: the live device built around the same keyboard and pad.
TEST(GamepadDeviceTest, LiveDeviceOfEachKindSharesTheKeyboardAndPad) {
  std::string error;
  InputDevices devices;
  ASSERT_TRUE(CreateInputDevices("keyboard", &devices, &error)) << error;
  const std::shared_ptr<InputDevice> pad = MakeLiveInputDevice(InputSpec::Kind::kGamepad, devices);
  EXPECT_EQ(pad->Name(), "gamepad+keyboard");
  GamepadState s = Pad();
  s.buttons[S::kRightBumper] = true;
  devices.gamepad->SetState(s);
  EXPECT_EQ(pad->Poll(0).linear_m_per_s, Eigen::Vector3d(0, 0, 0.10));
  EXPECT_EQ(MakeLiveInputDevice(InputSpec::Kind::kKeyboard, devices), devices.keyboard);
  EXPECT_EQ(MakeLiveInputDevice(InputSpec::Kind::kSpaceMouse, devices)->Name(),
            "spacemouse+keyboard");
}

}  // namespace
}  // namespace contactlab
