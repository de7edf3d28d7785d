// GamepadDevice: the A button's press edge toggles the grip once, hot-plug status, the merged
// `--input gamepad` device keeps the keyboard working; the shoulder buttons move a jog step a
// tap and at the speed while held, by the times the GUI read the pad (issue 35).
#include "input/gamepad_device.h"

#include <gtest/gtest.h>

#include "input/input_spec.h"
#include "test_support/timed_input_run.h"

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

// A pad on a clock the test controls, read once a frame as the GUI reads it (gamepad_feed.h):
// the state at the frame's start, stamped with that time and the frame's poll number.
struct TimedPad {
  testing::FakeClock clock;
  GamepadDevice pad{WithClock()};
  GamepadState state = Pad();
  GamepadConfig WithClock() {
    GamepadConfig config;
    config.clock = clock.clock();
    return config;
  }
  testing::RunResult Run(const testing::RunOptions& options,
                         std::vector<testing::ScriptedEvent> script) {
    return testing::RunTimed(
        options, std::move(script), &clock, &pad,
        [this](std::span<const testing::ScriptedEvent> due, double frame_s, int64_t poll) {
          for (const testing::ScriptedEvent& e : due) state.buttons[e.id] = e.down;
          pad.SetState(state, frame_s, poll);
        });
  }
};

testing::ScriptedEvent Button(double t_s, S::Button b, bool down) { return {t_s, b, down}; }

testing::RunOptions Frames(double period_s) {
  testing::RunOptions o;
  o.frame_period_s = period_s;
  return o;
}

// A bumper tap that a frame's read sees (at 3 fps the press is read at 1/3 s, the release at
// 2/3 s: a press a frame long by the reads) moves one jog step, at 3 and at 60 fps.
TEST(GamepadDeviceTest, ABumperTapMovesOneJogStepAtThreeAndSixtyFps) {
  for (const double period : {1.0 / 3.0, 1.0 / 60.0}) {
    TimedPad t;
    const testing::RunResult up = t.Run(Frames(period), {Button(0.30, S::kRightBumper, true),
                                                         Button(0.45, S::kRightBumper, false)});
    EXPECT_NEAR(up.displacement_m.z(), 1e-3, 1e-12) << "frame period " << period;
    EXPECT_TRUE(up.displacement_m.head<2>().isZero(0.0));
    EXPECT_TRUE(up.rotation_rad.isZero(0.0));
    TimedPad down;
    const testing::RunResult r = down.Run(
        Frames(period), {Button(0.30, S::kLeftBumper, true), Button(0.45, S::kLeftBumper, false)});
    EXPECT_NEAR(r.displacement_m.z(), -1e-3, 1e-12) << "frame period " << period;
  }
}

// A 1 s hold moves 0.1 m (the pad's speed): its reads are a frame's resolution, and these fall
// 1 s apart at 3 fps (1/3 s and 4/3 s) and 60 fps; to within a step of the simulation.
TEST(GamepadDeviceTest, ABumperHeldOneSecondMovesTheSpeedTimesOneSecond) {
  for (const double period : {1.0 / 3.0, 1.0 / 60.0}) {
    TimedPad t;
    const testing::RunResult r = t.Run(Frames(period), {Button(0.10, S::kRightBumper, true),
                                                        Button(1.10, S::kRightBumper, false)});
    EXPECT_NEAR(r.displacement_m.z(), 0.10 * 1.0, 0.10 * 1e-3 + 1e-12) << "frame period " << period;
    EXPECT_LE(r.max_speed_m_per_s, 2 * 0.10 + 1e-12);
  }
  // Fine mode (B held) scales the hold's speed and the step.
  TimedPad fine;
  const testing::RunResult f = fine.Run(
      Frames(1.0 / 60.0), {Button(0.0, S::kB, true), Button(0.1, S::kLeftBumper, true),
                           Button(0.15, S::kLeftBumper, false), Button(0.5, S::kLeftBumper, true),
                           Button(1.5, S::kLeftBumper, false)});
  EXPECT_NEAR(f.displacement_m.z(), -(0.2 * 1e-3 + 0.2 * 0.10 * 1.0), 0.2 * 0.10 * 2e-3);
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
  devices.active->Poll(0);                               // anchors the devices' simulated time
  devices.keyboard->SetKey(KeyAction::kMoveXPos, true);  // the keyboard still drives: a step
  devices.keyboard->SetKey(KeyAction::kMoveXPos, false);
  EXPECT_GT(devices.active->Poll(1e-3).linear_m_per_s.x(), 0.0);

  GamepadState s = Pad();
  s.axes[S::kLeftX] = 1.0f;  // right: −y at the pad's speed
  s.buttons[S::kA] = true;
  devices.gamepad->SetState(s);
  const TeleopCommand c = devices.active->Poll(2e-3);
  EXPECT_TRUE(devices.active->Connected());
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.y(), -0.10);
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
  s.axes[S::kLeftY] = -1.0f;  // up: +x
  devices.gamepad->SetState(s);
  EXPECT_EQ(pad->Poll(0).linear_m_per_s, Eigen::Vector3d(0.10, 0, 0));
  EXPECT_EQ(MakeLiveInputDevice(InputSpec::Kind::kKeyboard, devices), devices.keyboard);
  EXPECT_EQ(MakeLiveInputDevice(InputSpec::Kind::kSpaceMouse, devices)->Name(),
            "spacemouse+keyboard");
}

}  // namespace
}  // namespace contactlab
