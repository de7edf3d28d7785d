// Teleoperation through the real-time loop (issue 4): the keyboard device's held keys move the
// commanded TCP pose at the keyboard's speed for as long as they were held (the event clock the
// test's, in step with the simulation), scaled by the sensitivity and in the chosen frame;
// the grip force setting reaches the fingers; reset returns the target to the start; bad
// settings are rejected with a message.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <thread>

#include "app/headless/headless_runner.h"
#include "app/runtime/sim_runtime.h"
#include "app/teleop/teleop_controller.h"
#include "input/gamepad_device.h"
#include "input/input_spec.h"
#include "input/keyboard_device.h"
#include "input/recorder.h"
#include "input/replay_device.h"
#include "io/scene_loader.h"
#include "test_support/build_paths.h"
#include "test_support/runtime_waits.h"
#include "test_support/timed_input_run.h"

namespace contactlab {
namespace {

using Clock = std::chrono::steady_clock;

bool WaitFor(const std::function<bool()>& done, double timeout_s = 60.0) {  // bounds failures only
  return testing::WaitFor(done, timeout_s);
}

SceneSpec PegInHole() {
  return LoadSceneFile(contactlab::testing::SourceDirectory() + "/assets/scenes/peg_in_hole.yaml");
}

// The keyboard's events, as the GUI hands them over, on a clock the test moves in step with the
// simulation (1 ms a step; a frame's hand-over every 20 steps).
struct LiveKeys {
  testing::FakeClock clock;
  std::shared_ptr<KeyboardDevice> keyboard;
  int steps = 0;
  KeyboardConfig Config() {
    KeyboardConfig config;
    config.clock = clock.clock();
    return config;
  }
  void Key(KeyAction action, bool down) {
    const TimedKeyEvent e{action, down, clock.now_s, -1};
    keyboard->HandOver({&e, 1}, clock.now_s);
  }
  // Before each step: the clock a step on, and every 20 steps the frame's hand-over.
  void BeforeStep(double dt) {
    clock.now_s = clock.now_s + dt;
    if (++steps % 20 == 0) keyboard->HandOver({}, clock.now_s);
  }
};

// A paused runtime on peg_in_hole driven by the keyboard device.
struct TeleopRuntime {
  SimRuntime rt{PegInHole()};
  LiveKeys keys;
  std::shared_ptr<KeyboardDevice> keyboard;
  uint64_t posted = 0;

  TeleopRuntime() {
    InputDevices devices;
    std::string error;
    InputSpec spec;  // keyboard
    EXPECT_TRUE(CreateInputDevices(spec, &devices, &error, keys.Config())) << error;
    keys.keyboard = devices.keyboard;
    rt.SetInputDevices(devices);
    keyboard = rt.keyboard();
    Post(command::Pause{});
    rt.Start();
  }
  void Post(Command c) {
    rt.Post(std::move(c));
    ++posted;
  }
  void Settle() {
    ASSERT_TRUE(WaitFor([&] { return rt.commands_processed() == posted; }));
  }
  void Step(int n) {
    const uint64_t target = rt.Latest()->step_index + n;
    for (int i = 0; i < n; ++i) Post(command::StepOnce{});
    ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index == target; }));
  }
  // Steps one at a time, the keys' clock in step (LiveKeys::BeforeStep).
  void StepLive(int n) {
    const double dt = rt.Latest()->contact_settings.dt_s;
    for (int i = 0; i < n; ++i) {
      keys.BeforeStep(dt);
      Step(1);
    }
  }
  // `action` held for `steps` steps, then released and the steps it still owes taken.
  void Hold(KeyAction action, int steps) {
    keys.Key(action, true);
    StepLive(steps);
    keys.Key(action, false);
    StepLive(steps / 2 + 50);
  }
  Eigen::Vector3d Target() const { return rt.Latest()->teleop.target_tcp_W.translation(); }
};

TEST(SimRuntimeTeleop, ThePlotBodyOfARobotSceneIsTheHeldObject) {
  const SceneSpec scene = PegInHole();
  const int b = DefaultPlotBody(scene);
  ASSERT_GE(b, 0);
  EXPECT_EQ(scene.bodies[b].body.name, "peg");
}

TEST(SimRuntimeTeleop, AMissingSpaceMouseIsShownAsNotConnected) {
  if (std::filesystem::exists("/var/run/spnav.sock")) GTEST_SKIP() << "spacenavd is running";
  SimRuntime rt(PegInHole());
  InputDevices devices;
  std::string error;
  ASSERT_TRUE(CreateInputDevices("spacemouse", &devices, &error)) << error;
  rt.SetInputDevices(devices);
  const TeleopView& v = rt.Latest()->teleop;
  EXPECT_TRUE(v.active);
  EXPECT_FALSE(v.device_connected);
  EXPECT_NE(v.device_status.find("spacenavd"), std::string::npos) << v.device_status;
}

TEST(SimRuntimeTeleop, HeldKeyMovesTheTargetAtTheKeyboardSpeed) {
  TeleopRuntime t;
  ASSERT_TRUE(t.rt.Latest()->teleop.active);
  EXPECT_TRUE(t.rt.Latest()->teleop.device_connected);
  EXPECT_EQ(t.rt.Latest()->teleop.device_name, "keyboard");
  const double dt = t.rt.Latest()->contact_settings.dt_s;
  const Eigen::Vector3d p0 = t.Target();
  const Eigen::Vector3d tcp0 = t.rt.Latest()->teleop.tcp_W.translation();
  constexpr int kSteps = 300;
  t.Hold(KeyAction::kMoveZPos, kSteps);
  // KeyboardConfig: 0.10 m/s at speed scale 1 for the 0.3 s held, integrated exactly into the
  // target; to within two steps' motion (each end of the hold is timed by a poll beside it).
  const double speed = KeyboardConfig{}.linear_speed_m_per_s;
  const double expected = speed * kSteps * dt;
  const Eigen::Vector3d moved = t.Target() - p0;
  EXPECT_NEAR(moved.z(), expected, 2 * speed * dt + 1e-12);
  EXPECT_NEAR(moved.head<2>().norm(), 0.0, 1e-9);
  // The arm follows (PD on the IK targets; it lags a few mm behind a moving target).
  const double tcp_moved = t.rt.Latest()->teleop.tcp_W.translation().z() - tcp0.z();
  EXPECT_GT(tcp_moved, 0.8 * expected);
  EXPECT_LT(tcp_moved, 1.05 * expected);
}

// The teleop panel's input switch (command::SelectInput): between two steps the gamepad takes
// over from the keyboard (RB: +z at the pad's speed), and back.
TEST(SimRuntimeTeleop, SelectInputSwitchesToTheGamepadWhileRunning) {
  TeleopRuntime t;
  GamepadState pad;
  pad.connected = true;
  pad.name = "Test Pad";
  pad.axes[GamepadState::kLeftTrigger] = pad.axes[GamepadState::kRightTrigger] = -1.0f;
  pad.axes[GamepadState::kLeftY] = -1.0f;  // the stick up: +x at the pad's speed
  t.rt.gamepad()->SetState(pad);
  const double dt = t.rt.Latest()->contact_settings.dt_s;
  constexpr int kSteps = 100;
  Eigen::Vector3d p0 = t.Target();
  t.Step(kSteps);
  EXPECT_EQ(t.Target(), p0);  // the pad is fed but the keyboard drives

  t.Post(command::SelectInput{InputSpec::Kind::kGamepad});
  t.Settle();
  EXPECT_EQ(t.rt.Latest()->teleop.device_name, "gamepad+keyboard");
  p0 = t.Target();
  t.Step(kSteps);
  const double expected = GamepadConfig{}.linear_speed_m_per_s * kSteps * dt;
  EXPECT_NEAR((t.Target() - p0).x(), expected, 1e-3 * expected);

  t.Post(command::SelectInput{InputSpec::Kind::kKeyboard});
  t.Settle();
  EXPECT_EQ(t.rt.Latest()->teleop.device_name, "keyboard");
  p0 = t.Target();
  t.Step(kSteps);
  EXPECT_EQ(t.Target(), p0);
}

TEST(SimRuntimeTeleop, SensitivityScalesAndToolFrameTurnsTheCommand) {
  TeleopRuntime t;
  const double dt = t.rt.Latest()->contact_settings.dt_s;
  const double speed = KeyboardConfig{}.linear_speed_m_per_s;
  command::SetTeleopOptions twice;
  twice.sensitivity = 2.0;
  t.Post(twice);
  t.Settle();
  EXPECT_EQ(t.rt.Latest()->teleop.sensitivity, 2.0);
  Eigen::Vector3d p0 = t.Target();
  t.Hold(KeyAction::kMoveZPos, 300);
  EXPECT_NEAR((t.Target() - p0).z(), 2.0 * speed * 300 * dt, 2 * 2.0 * speed * dt + 1e-12);

  // Tool frame: at the ready pose the hand's z axis points down, so "+z" descends.
  command::SetTeleopOptions tool;
  tool.frame = TeleopFrame::kTool;
  tool.sensitivity = 1.0;
  t.Post(tool);
  t.Settle();
  const Eigen::Vector3d tool_z = t.rt.Latest()->teleop.target_tcp_W.linear().col(2);
  ASSERT_LT(tool_z.z(), -0.99);
  p0 = t.Target();
  t.Hold(KeyAction::kMoveZPos, 300);
  const Eigen::Vector3d moved = t.Target() - p0;
  EXPECT_NEAR(moved.dot(tool_z), speed * 300 * dt, 2 * speed * dt + 2e-3 * speed * 300 * dt);
  EXPECT_LT(moved.z(), -0.99 * speed * 298 * dt);
}

TEST(SimRuntimeTeleop, GripForceSettingSqueezesThePegWithThatForce) {
  TeleopRuntime t;
  for (const double grip_N : {30.0, 50.0}) {
    command::SetTeleopOptions c;
    c.grip_force_N = grip_N;
    t.Post(c);
    t.Step(300);
    const TeleopView& v = t.rt.Latest()->teleop;
    EXPECT_EQ(v.grip_force_limit_N, grip_N);
    // The leader finger's PD saturates at its effort limit: the pads press the peg with the
    // grip force (docs/contact-model.md §3, PD with effort limit).
    EXPECT_NEAR(v.grip_force_N, grip_N, 0.05 * grip_N);
  }
  std::vector<PlotSample> samples;
  t.rt.DrainPlotSamples(&samples);
  ASSERT_FALSE(samples.empty());
  EXPECT_NEAR(samples.back().grip_force_N, 50.0, 2.5);
}

// peg_in_hole starts with the gripper closed on the peg (the scene's latch). The first Space
// press opens it, as the panel's "grip closed" says it will; so does the first one after a reset.
TEST(SimRuntimeTeleop, TheFirstSpacePressOpensTheScenesClosedGrip) {
  TeleopRuntime t;
  auto press_space = [&] {
    t.keyboard->SetKey(KeyAction::kToggleGrip, true);
    t.keyboard->SetKey(KeyAction::kToggleGrip, false);
  };
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE(run == 0 ? "from the start" : "after a reset");
    t.Step(1);
    ASSERT_TRUE(t.rt.Latest()->teleop.grip_latched);
    ASSERT_EQ(t.rt.Latest()->teleop.grip, 1.0);  // closed
    press_space();
    t.Step(1);
    EXPECT_FALSE(t.rt.Latest()->teleop.grip_latched);
    EXPECT_EQ(t.rt.Latest()->teleop.grip, 0.0);  // open
    press_space();
    t.Step(1);
    EXPECT_EQ(t.rt.Latest()->teleop.grip, 1.0);  // closed again
    press_space();  // leave the keyboard open, then reset: the latch closes the grip again
    t.Step(1);
    t.Post(command::Reset{});
    t.Settle();
  }
}

TEST(SimRuntimeTeleop, ResetReturnsTheTargetAndBadSettingsAreRejected) {
  TeleopRuntime t;
  const Eigen::Vector3d p0 = t.Target();
  t.Hold(KeyAction::kMoveXPos, 300);
  ASSERT_GT((t.Target() - p0).norm(), 0.02);
  t.Post(command::Reset{});
  t.Settle();
  EXPECT_LT((t.Target() - p0).norm(), 1e-12);

  command::SetTeleopOptions bad;
  bad.grip_force_N = -1.0;
  bad.sensitivity = 50.0;
  bad.frame = static_cast<TeleopFrame>(7);
  t.Post(bad);
  t.Settle();
  const std::vector<std::string> errors = t.rt.TakeErrors();
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_NE(errors[0].find("grip force"), std::string::npos);
  EXPECT_NE(errors[1].find("sensitivity"), std::string::npos);
  EXPECT_NE(errors[2].find("frame"), std::string::npos);
  const TeleopView& v = t.rt.Latest()->teleop;
  EXPECT_EQ(v.sensitivity, 1.0);
  EXPECT_EQ(v.frame, TeleopFrame::kDeviceOwn);
  EXPECT_GT(v.grip_force_limit_N, 0.0);
}

TEST(SimRuntimeTeleop, ARecordedLiveSessionReplaysBitForBit) {
  const std::string path = ::testing::TempDir() + "/teleop_session.csv";
  Eigen::Isometry3d live_target;
  {
    auto recorder = std::make_unique<Recorder>();
    std::string error;
    SimRuntime rt(PegInHole());
    InputDevices devices;
    LiveKeys keys;
    ASSERT_TRUE(CreateInputDevices(InputSpec{}, &devices, &error, keys.Config())) << error;
    keys.keyboard = devices.keyboard;
    rt.SetInputDevices(devices);
    ASSERT_TRUE(recorder->Open(path, &error)) << error;
    rt.SetRecorder(std::move(recorder));
    rt.Post(command::Pause{});
    command::SetTeleopOptions options;  // a live device, scaled and in the tool frame
    options.sensitivity = 1.7;
    options.frame = TeleopFrame::kTool;
    rt.Post(options);
    rt.Start();
    uint64_t posted = 2;
    auto step = [&](int n) {
      for (int i = 0; i < n; ++i) {
        keys.BeforeStep(rt.Latest()->contact_settings.dt_s);
        const uint64_t target = rt.Latest()->step_index + 1;
        rt.Post(command::StepOnce{});
        ++posted;
        ASSERT_TRUE(WaitFor([&] { return rt.Latest()->step_index == target; }));
      }
    };
    keys.Key(KeyAction::kMoveXPos, true);
    keys.Key(KeyAction::kRotZPos, true);
    step(400);  // held past the tap window: moves
    keys.Key(KeyAction::kRotZPos, false);
    keys.Key(KeyAction::kMoveZNeg, true);
    step(300);
    live_target = rt.Latest()->teleop.target_tcp_W;
    rt.Stop();
  }
  SimRuntime replay(PegInHole());
  InputDevices devices;
  std::string error;
  InputSpec spec;
  ASSERT_TRUE(ParseInputSpec("replay:" + path, &spec, &error)) << error;
  ASSERT_TRUE(CreateInputDevices(spec, &devices, &error)) << error;
  replay.SetInputDevices(devices);
  replay.Post(command::Pause{});
  // The sensitivity and frame settings apply to live devices only: a replay reproduces its
  // recording whatever they are.
  command::SetTeleopOptions same_settings;
  same_settings.sensitivity = 1.7;
  same_settings.frame = TeleopFrame::kTool;
  replay.Post(same_settings);
  replay.Start();
  const Eigen::Vector3d start = replay.Latest()->teleop.target_tcp_W.translation();
  for (int i = 0; i < 700; ++i) replay.Post(command::StepOnce{});
  ASSERT_TRUE(WaitFor([&] { return replay.Latest()->step_index == 700; }));
  EXPECT_FALSE(devices.active->IsLive());
  const Eigen::Isometry3d replayed = replay.Latest()->teleop.target_tcp_W;
  EXPECT_EQ(replayed.matrix(), live_target.matrix());
  EXPECT_GT((replayed.translation() - start).norm(), 0.01);  // the session did move
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// Recording in the window, replayed by the headless runner (what `--headless --input
// replay:FILE` does): the same final state, bit for bit.
TEST(SimRuntimeTeleop, AWindowRecordingReplaysHeadlessBitForBit) {
  const std::string path = ::testing::TempDir() + "/window_session.csv";
  TeleopRuntime t;
  t.Step(30);  // some steps before: the recording starts from a reset anyway
  t.Post(command::StartRecording{path});
  t.Settle();
  EXPECT_TRUE(t.rt.Latest()->recording.recording);
  EXPECT_EQ(t.rt.Latest()->step_index, 0u);
  t.keys.Key(KeyAction::kMoveYPos, true);
  t.keys.Key(KeyAction::kRotXPos, true);
  t.StepLive(90);
  t.keys.Key(KeyAction::kMoveYPos, false);
  t.keys.Key(KeyAction::kMoveZNeg, true);
  t.StepLive(60);
  t.keys.Key(KeyAction::kMoveZNeg, false);
  t.keys.Key(KeyAction::kRotXPos, false);
  t.Post(command::StopRecording{});
  t.Settle();
  const std::shared_ptr<const Snapshot> held = t.rt.Latest();  // kept: not refilled
  const Snapshot& live = *held;
  EXPECT_FALSE(live.recording.recording);
  ASSERT_EQ(live.step_index, 150u);

  World world(PegInHole());
  TeleopController teleop(world, *FindTeleopConfig(world.scene()));
  std::string error;
  std::unique_ptr<ReplayDevice> replay = ReplayDevice::Load(path, &error);
  ASSERT_NE(replay, nullptr) << error;
  HeadlessOptions options;
  options.duration_s = 150 * world.dt();
  options.teleop = &teleop;
  options.input = replay.get();
  const HeadlessResult result = RunHeadless(&world, options);
  ASSERT_EQ(result.steps, 150);
  for (size_t b = 0; b < live.body_poses.size(); ++b) {
    EXPECT_EQ(world.BodyPose(static_cast<int>(b)).matrix(), live.body_poses[b].matrix()) << b;
  }

  // Played back in the window from a reset, then the live keyboard again.
  t.Post(command::PlayReplay{path});
  t.Settle();
  EXPECT_TRUE(t.rt.Latest()->recording.replaying);
  EXPECT_EQ(t.rt.Latest()->step_index, 0u);
  t.Step(150);
  for (size_t b = 0; b < live.body_poses.size(); ++b) {
    EXPECT_EQ(t.rt.Latest()->body_poses[b].matrix(), live.body_poses[b].matrix()) << b;
  }
  t.Step(5);
  EXPECT_FALSE(t.rt.Latest()->recording.replaying);
  t.Post(command::PlayReplay{"/nonexistent.csv"});
  t.Settle();
  EXPECT_EQ(t.rt.TakeErrors().size(), 1u);
}

// The same under error control (docs/contact-model.md §1.2): the steps vary in size, and the
// recording's rows are at their start times. A headless replay that drives the world as the
// sim thread does (the device polled at the world's time for the step's planned size, the
// controller, one World::Step) takes the same steps and ends in the same state, bit for bit.
TEST(SimRuntimeTeleop, AnErrorControlledWindowRecordingReplaysHeadlessBitForBit) {
  const std::string path = ::testing::TempDir() + "/window_session_error_controlled.csv";
  TeleopRuntime t;
  ContactOverrides error_control;
  error_control.integrator = TimeIntegration::ErrorControlled(1e-6);
  t.Post(command::SetOverrides{error_control});
  t.Post(command::StartRecording{path});
  t.Settle();
  t.keys.Key(KeyAction::kMoveYPos, true);
  t.keys.Key(KeyAction::kRotXPos, true);
  t.StepLive(60);
  t.keys.Key(KeyAction::kMoveYPos, false);
  t.keys.Key(KeyAction::kMoveZNeg, true);
  t.StepLive(40);
  t.keys.Key(KeyAction::kMoveZNeg, false);
  t.keys.Key(KeyAction::kRotXPos, false);
  t.Post(command::StopRecording{});
  t.Settle();
  const std::shared_ptr<const Snapshot> held = t.rt.Latest();
  const Snapshot& live = *held;
  ASSERT_EQ(live.step_index, 100u);
  ASSERT_EQ(live.contact_settings.integrator, error_control.integrator);

  World world(PegInHole());
  world.SetOverrides(error_control);
  TeleopController teleop(world, *FindTeleopConfig(world.scene()));
  std::string error;
  std::unique_ptr<ReplayDevice> replay = ReplayDevice::Load(path, &error);
  ASSERT_NE(replay, nullptr) << error;
  const Eigen::Vector3d start = teleop.state().target_tcp_W.translation();
  std::set<double> sizes;
  for (int i = 0; i < 100; ++i) {
    teleop.Update(replay->PollStep(world.time(), world.next_dt()), &world);
    ASSERT_TRUE(world.Step());
    sizes.insert(world.last_stats().dt_s);
  }
  EXPECT_GT(sizes.size(), 3u) << "variable steps";
  EXPECT_EQ(world.time(), live.time_s);
  for (size_t b = 0; b < live.body_poses.size(); ++b) {
    EXPECT_EQ(world.BodyPose(static_cast<int>(b)).matrix(), live.body_poses[b].matrix()) << b;
  }
  EXPECT_GT((teleop.state().target_tcp_W.translation() - start).norm(), 1e-4)
      << "the session did move";
}

}  // namespace
}  // namespace contactlab
