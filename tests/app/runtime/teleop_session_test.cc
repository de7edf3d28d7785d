// The teleoperation session without the sim thread (the test steps peg_in_hole itself, the
// event clock in step with it): a held key moves the arm's target at the keyboard's speed for
// as long as it was held and each command is recorded; a reset drops what the keys still owed; the
// recording, played back from a reset, reproduces the run bit for bit and then hands over to
// the live device chosen meanwhile; bad settings and files are reported and change nothing.
#include "app/runtime/teleop_session.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "input/input_spec.h"
#include "input/keyboard_device.h"
#include "io/scene_loader.h"
#include "test_support/build_paths.h"
#include "test_support/timed_input_run.h"

namespace contactlab {
namespace {

SceneSpec PegInHole() {
  return LoadSceneFile(testing::SourceDirectory() + "/assets/scenes/peg_in_hole.yaml");
}

struct TeleopSessionTest : ::testing::Test {
  World world{PegInHole()};
  std::vector<std::string> errors;
  TeleopSession session{[this](std::string e) { errors.push_back(std::move(e)); }};
  InputDevices devices;
  testing::FakeClock clock;
  int steps = 0;

  void SetUp() override {
    std::string error;
    KeyboardConfig keyboard;
    keyboard.clock = clock.clock();
    ASSERT_TRUE(CreateInputDevices(InputSpec{}, &devices, &error, keyboard)) << error;
    session.SetDevices(devices, world);
  }
  // A key event now, as the GUI hands it over.
  void Key(KeyAction action, bool down) {
    const TimedKeyEvent e{action, down, clock.now_s, -1};
    devices.keyboard->HandOver({&e, 1}, clock.now_s);
  }
  // What the sim thread does around a step with live input; the event clock keeps pace with the
  // simulation (a real-time factor of 1) and the GUI hands the keys over every 20 ms.
  void Step(int n) {
    for (int i = 0; i < n; ++i) {
      clock.now_s = clock.now_s + world.dt();
      if (++steps % 20 == 0) devices.keyboard->HandOver({}, clock.now_s);
      session.Update(&world);
      ASSERT_TRUE(world.Step());
      session.MeasureGrip(world);
      session.EndReplayIfDone(world.time());
    }
  }
  TeleopView Teleop() {
    session.RefreshDeviceStatus();
    TeleopView view;
    session.Fill(&view);
    return view;
  }
  RecordingView Recording() const {
    RecordingView view;
    session.Fill(&view);
    return view;
  }
};

TEST_F(TeleopSessionTest, AHeldKeyMovesTheTargetAtTheKeyboardSpeedAndIsRecorded) {
  ASSERT_TRUE(session.active());
  EXPECT_EQ(Teleop().device_name, "keyboard");
  const std::string path = ::testing::TempDir() + "/teleop_session_test.csv";
  std::unique_ptr<Recorder> recorder = session.OpenRecording(path);
  ASSERT_NE(recorder, nullptr);
  session.StartRecording(std::move(recorder), path);
  const Eigen::Vector3d p0 = Teleop().target_tcp_W.translation();
  Key(KeyAction::kMoveZPos, true);
  Step(400);
  Key(KeyAction::kMoveZPos, false);
  Step(200);  // the last frame's hold and the catch-up
  // KeyboardConfig: 0.10 m/s at speed scale 1 for the 0.4 s held, integrated exactly into the
  // target; to within two steps (each end of the hold is timed by a poll beside it).
  const double expected = KeyboardConfig{}.linear_speed_m_per_s * 400 * world.dt();
  EXPECT_NEAR((Teleop().target_tcp_W.translation() - p0).z(), expected,
              2 * KeyboardConfig{}.linear_speed_m_per_s * world.dt() + 1e-12);
  EXPECT_EQ(Recording().rows, 600u);
  EXPECT_TRUE(Recording().recording);
  session.StopRecording();
  EXPECT_FALSE(Recording().recording);
  EXPECT_EQ(Recording().path, path);
  EXPECT_TRUE(errors.empty());
}

// A reset sets the targets anew: what a hold owed and was not executed yet is dropped, not
// carried into the reset run (and a tap during a replay does not move the live device after it).
TEST_F(TeleopSessionTest, AResetDropsWhatTheKeysStillOwed) {
  const Eigen::Vector3d p0 = Teleop().target_tcp_W.translation();
  Key(KeyAction::kMoveXPos, true);
  Step(300);
  Key(KeyAction::kMoveXPos, false);  // 30 mm owed, 10 mm of it not yet executed
  ASSERT_GT(devices.keyboard->owed_m().x(), 5e-3);
  world.Reset();
  session.Reset(world);
  Step(200);
  EXPECT_LT((Teleop().target_tcp_W.translation() - p0).norm(), 1e-12);
  EXPECT_TRUE(errors.empty());
}

TEST_F(TeleopSessionTest, ARecordingPlayedFromAResetReproducesTheRunThenTheLiveDeviceTakesOver) {
  const std::string path = ::testing::TempDir() + "/teleop_session_replay.csv";
  session.StartRecording(session.OpenRecording(path), path);
  Key(KeyAction::kMoveXPos, true);
  Key(KeyAction::kRotZPos, true);
  Step(299);
  const double last_command_s = world.time();
  Step(1);
  Key(KeyAction::kMoveXPos, false);
  const Eigen::VectorXd q_live = world.q();
  const Eigen::Isometry3d target_live = Teleop().target_tcp_W;

  Key(KeyAction::kRotZPos, false);
  session.StopRecording();  // the file is complete once closed
  const std::string other = ::testing::TempDir() + "/teleop_session_other.csv";
  session.StartRecording(session.OpenRecording(other), other);
  ASSERT_TRUE(session.PlayReplay(path, world.scene().name));  // ends that recording
  EXPECT_FALSE(Recording().recording);
  EXPECT_TRUE(Recording().replaying);
  EXPECT_EQ(Recording().replay_end_s, last_command_s);
  session.SelectInput(InputSpec::Kind::kGamepad);  // takes over at the replay's end
  world.Reset();
  session.Reset(world);
  Step(299);
  EXPECT_TRUE(Recording().replaying);
  Step(1);
  EXPECT_EQ(world.q(), q_live);
  EXPECT_EQ(Teleop().target_tcp_W.matrix(), target_live.matrix());
  EXPECT_FALSE(Recording().replaying);
  EXPECT_EQ(Teleop().device_name, "gamepad+keyboard");
  EXPECT_TRUE(errors.empty());
}

TEST_F(TeleopSessionTest, BadSettingsAndFilesAreReportedAndChangeNothing) {
  command::SetTeleopOptions options;
  options.grip_force_N = -1.0;
  options.sensitivity = 20.0;
  options.frame = static_cast<TeleopFrame>(7);
  session.SetOptions(options);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_NE(errors[0].find("grip force -1 N rejected"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("sensitivity 20 rejected"), std::string::npos) << errors[1];
  EXPECT_NE(errors[2].find("frame 7 rejected"), std::string::npos) << errors[2];
  EXPECT_EQ(Teleop().sensitivity, 1.0);
  EXPECT_EQ(Teleop().frame, TeleopFrame::kDeviceOwn);
  options = {};
  options.sensitivity = 2.5;
  options.frame = TeleopFrame::kTool;
  options.grip_force_N = 20.0;
  session.SetOptions(options);
  EXPECT_EQ(Teleop().sensitivity, 2.5);
  EXPECT_EQ(Teleop().frame, TeleopFrame::kTool);
  EXPECT_EQ(Teleop().grip_force_limit_N, 20.0);
  EXPECT_EQ(errors.size(), 3u);

  EXPECT_EQ(session.OpenRecording("/nonexistent/dir/x.csv"), nullptr);
  EXPECT_FALSE(session.PlayReplay("/nonexistent.csv", "peg_in_hole"));
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_EQ(errors[3].rfind("recording not started: ", 0), 0u) << errors[3];
  EXPECT_EQ(errors[4].rfind("replay not started: ", 0), 0u) << errors[4];
  EXPECT_FALSE(Recording().recording);
  EXPECT_FALSE(Recording().replaying);
}

// `--input replay:FILE` in the window (issue 35, item 5) plays as Play does: for the recording's
// length, shown as a replay with its end, and then the keyboard takes over.
TEST(TeleopSession, AReplayFromTheCommandLinePlaysForItsLengthThenTheKeyboardTakesOver) {
  World world(PegInHole());
  std::vector<std::string> errors;
  TeleopSession session([&](std::string e) { errors.push_back(std::move(e)); });
  const std::string path = ::testing::TempDir() + "/teleop_session_command_line.csv";
  const int kRows = 20;  // one a step, from t = 0: the last at 19 δt
  double last_t = 0;
  {
    Recorder recorder;
    std::string error;
    ASSERT_TRUE(recorder.Open(path, &error)) << error;
    double t = 0;  // the world's clock: summed steps
    for (int i = 0; i < kRows; ++i, t += world.dt()) {
      TeleopCommand c;
      c.t = t;
      c.linear_m_per_s = Eigen::Vector3d(0.05, 0, 0);
      recorder.Record(c);
      last_t = t;
    }
  }
  InputDevices devices;
  std::string error;
  ASSERT_TRUE(CreateInputDevices("replay:" + path, &devices, &error)) << error;
  session.SetDevices(devices, world);
  RecordingView r;
  session.Fill(&r);
  EXPECT_TRUE(r.replaying);
  EXPECT_EQ(r.replay_end_s, last_t);
  for (int i = 0; i < kRows; ++i) {
    session.Fill(&r);
    EXPECT_TRUE(r.replaying) << "step " << i;
    session.Update(&world);
    ASSERT_TRUE(world.Step());
    session.EndReplayIfDone(world.time());
  }
  session.Fill(&r);
  EXPECT_FALSE(r.replaying);  // every row applied, one step each
  session.RefreshDeviceStatus();
  TeleopView view;
  session.Fill(&view);
  EXPECT_EQ(view.device_name, "keyboard");
  EXPECT_TRUE(errors.empty());
}

// peg_in_hole starts with the peg held (the scene's grip latch closes the keyboard's toggle); a
// replay that opened the gripper hands over with the keyboard's toggle open too, so the gripper
// stays open and the first Space closes it.
TEST_F(TeleopSessionTest, TheKeyboardTakesOverAtTheGripTheReplayLeft) {
  ASSERT_EQ(devices.keyboard->grip(), 1.0);  // the scene's latch
  const std::string path = ::testing::TempDir() + "/teleop_session_opened.csv";
  {
    Recorder recorder;
    std::string error;
    ASSERT_TRUE(recorder.Open(path, &error)) << error;
    TeleopCommand c;  // the latch's closed grip, then open: a change, which ends the latch
    for (int i = 0; i < 10; ++i, c.t += world.dt()) {
      c.grip = i < 5 ? 1.0 : 0.0;
      recorder.Record(c);
    }
  }
  ASSERT_TRUE(session.PlayReplay(path, world.scene().name));
  world.Reset();
  session.Reset(world);
  Step(10);
  ASSERT_FALSE(Recording().replaying);
  ASSERT_EQ(Teleop().grip, 0.0);
  Step(1);  // the keyboard's first command
  EXPECT_EQ(Teleop().grip, 0.0);
  EXPECT_EQ(devices.keyboard->grip(), 0.0);
  EXPECT_TRUE(errors.empty());
}

// Issue 36: spatula_slip's gripper fixed to the world gets a controller (grip only); the panel's
// view shows the scene's program and follows it (16 N at t = 0) until the slider sets a force
// (overridden: 5 N stays), `follow program` resumes it and a reset restarts it. The Panda's
// view has no program and an arm.
TEST(TeleopSession, TheSliderOverridesTheGripProgramAndFollowResumesIt) {
  World world(LoadSceneFile(testing::SourceDirectory() + "/assets/scenes/spatula_slip.yaml"));
  std::vector<std::string> errors;
  TeleopSession session([&](std::string e) { errors.push_back(std::move(e)); });
  InputDevices devices;
  std::string error;
  ASSERT_TRUE(CreateInputDevices(InputSpec{}, &devices, &error)) << error;
  session.SetDevices(devices, world);
  ASSERT_TRUE(session.active());
  const auto view = [&] {
    TeleopView v;
    session.Fill(&v);
    return v;
  };
  const auto slider = [](double newtons) {
    command::SetTeleopOptions o;
    o.grip_force_N = newtons;
    return o;
  };
  command::SetTeleopOptions follow;
  follow.follow_grip_program = true;
  EXPECT_TRUE(view().fixed_hand);
  EXPECT_EQ(view().grip_program, "square wave 1-16 N, 6 s, 75 %");
  EXPECT_TRUE(view().grip_program_followed);
  EXPECT_EQ(view().grip_force_limit_N, 16.0);
  session.SetOptions(slider(5.0));
  session.Update(&world);
  EXPECT_FALSE(view().grip_program_followed);
  EXPECT_EQ(view().grip_force_limit_N, 5.0);
  session.SetOptions(follow);
  session.Update(&world);
  EXPECT_TRUE(view().grip_program_followed);
  EXPECT_EQ(view().grip_force_limit_N, 16.0);
  session.SetOptions(slider(7.0));
  world.Reset();
  session.Reset(world);
  EXPECT_TRUE(view().grip_program_followed);
  EXPECT_EQ(view().grip_force_limit_N, 16.0);
  EXPECT_TRUE(errors.empty());

  World peg(PegInHole());
  session.Rebuild(peg);
  EXPECT_FALSE(view().fixed_hand);
  EXPECT_EQ(view().grip_program, "");
  EXPECT_FALSE(view().grip_program_followed);
}

TEST(TeleopSession, WithoutDevicesThereIsNoControllerAndNoReplay) {
  World world(PegInHole());
  std::vector<std::string> errors;
  TeleopSession session([&](std::string e) { errors.push_back(std::move(e)); });
  session.Rebuild(world);
  EXPECT_FALSE(session.active());
  session.Update(&world);  // nothing to poll
  session.MeasureGrip(world);
  EXPECT_EQ(session.measured_grip_force_N(), 0.0);
  TeleopView view;
  session.Fill(&view);
  EXPECT_FALSE(view.active);
  EXPECT_EQ(session.keyboard(), nullptr);
  const std::string path = ::testing::TempDir() + "/teleop_session_none.csv";
  {
    Recorder recorder;
    std::string error;
    ASSERT_TRUE(recorder.Open(path, &error)) << error;
    recorder.Record(TeleopCommand{});
  }
  EXPECT_FALSE(session.PlayReplay(path, "peg_in_hole"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "replay not started: 'peg_in_hole' has no teleoperated arm");
}

// Issue 36: in a scene whose teleop program is a circle (grasp_stress) the circle drives the
// arm, its frequency a live setting; choosing a live input takes over at once.
TEST(TeleopSessionCircle, TheScenesCircleDrivesUntilALiveInputIsChosen) {
  World world(LoadSceneFile(testing::SourceDirectory() + "/assets/scenes/grasp_stress.yaml"));
  std::vector<std::string> errors;
  TeleopSession session([&](std::string e) { errors.push_back(std::move(e)); });
  InputDevices devices;
  std::string error;
  ASSERT_TRUE(CreateInputDevices(InputSpec{}, &devices, &error)) << error;
  session.SetDevices(devices, world);
  auto view = [&] {
    session.RefreshDeviceStatus();
    TeleopView v;
    session.Fill(&v);
    return v;
  };
  EXPECT_EQ(view().device_name, "circle");
  EXPECT_TRUE(view().circle_driving);
  EXPECT_EQ(view().circle_frequency_Hz, 1.0);
  command::SetTeleopOptions faster;
  faster.circle_frequency_Hz = 1.5;
  session.SetOptions(faster);
  EXPECT_EQ(view().circle_frequency_Hz, 1.5);
  faster.circle_frequency_Hz = 3.5;
  session.SetOptions(faster);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(view().circle_frequency_Hz, 1.5) << "a rejected value changes nothing";
  const Eigen::Vector3d p0 = view().target_tcp_W.translation();
  for (int i = 0; i < 300; ++i) {
    session.Update(&world);
    ASSERT_TRUE(world.Step());
  }
  const Eigen::Vector3d moved = view().target_tcp_W.translation() - p0;
  EXPECT_GT(moved.head<2>().norm(), 1e-3) << "the circle moved the target";
  EXPECT_EQ(moved.z(), 0.0) << "horizontally";
  session.SelectInput(InputSpec::Kind::kKeyboard);
  EXPECT_EQ(view().device_name, "keyboard");
  EXPECT_FALSE(view().circle_driving);
  const Eigen::Vector3d held = view().target_tcp_W.translation();
  for (int i = 0; i < 10; ++i) {
    session.Update(&world);
    ASSERT_TRUE(world.Step());
  }
  EXPECT_EQ(view().target_tcp_W.translation(), held) << "the keyboard at rest holds the target";
}

// Issue 38: in grasp_ball the scene's joint program drives the arm in the GUI's session as it
// does headless (the TeleopController runs it; a twist changes nothing there, its test): the
// shoulders' targets are their sines at each step's end under the live device, the panel names
// the program, and the grip stays the scene's (closed on the ball).
TEST(TeleopSessionJointProgram, TheScenesJointSinesDriveTheArmUnderTheLiveDevice) {
  const SceneSpec scene =
      LoadSceneFile(testing::SourceDirectory() + "/assets/scenes/grasp_ball.yaml");
  World world(scene);
  std::vector<std::string> errors;
  TeleopSession session([&](std::string e) { errors.push_back(std::move(e)); });
  InputDevices devices;
  std::string error;
  ASSERT_TRUE(CreateInputDevices(InputSpec{}, &devices, &error)) << error;
  session.SetDevices(devices, world);
  ASSERT_TRUE(session.active());
  TeleopView view;
  session.Fill(&view);
  EXPECT_EQ(view.joint_program, "panda_joint1 0.25 sin(1 t), panda_joint2 0.25 sin(2 t)");
  EXPECT_FALSE(view.circle_driving);
  const int link1 = scene.FindBody("panda_link1"), link2 = scene.FindBody("panda_link2");
  for (int i = 0; i < 50; ++i) {
    session.Update(&world);
    const double t = world.time() + world.dt();
    EXPECT_DOUBLE_EQ(world.inputs().pd[link1]->q_desired, 0.25 * std::sin(t));
    EXPECT_DOUBLE_EQ(world.inputs().pd[link2]->v_desired, 0.5 * std::cos(2 * t));
    ASSERT_TRUE(world.Step());
  }
  session.Fill(&view);
  EXPECT_EQ(view.grip, 1.0) << "the scene's grip, closed on the ball";
  EXPECT_TRUE(errors.empty());
}

}  // namespace
}  // namespace contactlab
