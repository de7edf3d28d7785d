// The space mouse end to end: libspnav talking to a fake spacenavd on a unix socket in a temp
// dir (SPNAV_SOCKET points libspnav at it).
#include "input/space_mouse_device.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>

#include "fake_spacenavd.h"
#include "input/input_spec.h"
#include "input/keyboard_device.h"

namespace contactlab {
namespace {

using test_support::FakeSpacenavd;

// A daemon on this machine would make "missing daemon" tests meaningless.
bool SystemDaemonPresent() {
  struct stat st;
  return stat("/var/run/spnav.sock", &st) == 0 || stat("/etc/spnavrc", &st) == 0;
}

class SpaceMouseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/contactlab_spnav_XXXXXX";
    ASSERT_NE(mkdtemp(dir_template), nullptr);
    dir_ = dir_template;
    socket_path_ = dir_ + "/spnav.sock";
    setenv("SPNAV_SOCKET", socket_path_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("SPNAV_SOCKET");
    std::filesystem::remove_all(dir_);
  }

  // Polls until pred holds on the command (the event crosses a socket) or a timeout.
  static TeleopCommand PollUntil(SpaceMouseDevice& device,
                                 const std::function<bool(const TeleopCommand&)>& pred) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    TeleopCommand c = device.Poll(0.0);
    while (!pred(c) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      c = device.Poll(0.0);
    }
    return c;
  }

  // Sends one motion event and returns the first command that reflects a change.
  static TeleopCommand SendAndPoll(FakeSpacenavd& daemon, SpaceMouseDevice& device,
                                   std::array<int, 6> raw) {
    // A distinct sentinel first, so we know the real event that follows has been consumed.
    EXPECT_TRUE(daemon.SendMotion(0, 0, 0, 0, 0, 0));
    PollUntil(device, [](const TeleopCommand& c) { return c.IsZeroTwist(); });
    EXPECT_TRUE(daemon.SendMotion(raw[0], raw[1], raw[2], raw[3], raw[4], raw[5]));
    return PollUntil(device, [](const TeleopCommand& c) { return !c.IsZeroTwist(); });
  }

  std::string dir_, socket_path_;
};

SpaceMouseConfig TestConfig() {
  SpaceMouseConfig config;
  config.deadband_counts.fill(10);
  config.full_scale_counts = 110.0;  // range after the deadband: 100 counts
  config.max_linear_m_per_s = 0.2;
  config.max_angular_rad_per_s = 1.0;
  config.reconnect_interval_s = 0.0;
  return config;
}

TEST_F(SpaceMouseTest, MissingDaemonIsReportedAndNotFatal) {
  if (SystemDaemonPresent()) GTEST_SKIP() << "a spacenavd socket exists on this machine";
  const auto start = std::chrono::steady_clock::now();
  SpaceMouseDevice device(TestConfig());
  const TeleopCommand c = device.Poll(1.0);
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(device.Status(), SpaceMouseDevice::kNoDaemonStatus);
  EXPECT_FALSE(device.Connected());
  EXPECT_TRUE(c.IsZeroTwist());
  EXPECT_EQ(c.t, 1.0);
  EXPECT_LT(elapsed, 0.1) << "a missing daemon must not block";
}

TEST_F(SpaceMouseTest, MissingDaemonKeepsKeyboardWorking) {
  if (SystemDaemonPresent()) GTEST_SKIP() << "a spacenavd socket exists on this machine";
  InputSpec spec;
  ASSERT_TRUE(ParseInputSpec("spacemouse", &spec, nullptr));
  InputDevices devices;
  std::string error;
  ASSERT_TRUE(CreateInputDevices(spec, &devices, &error));
  EXPECT_NE(devices.active->Status().find(SpaceMouseDevice::kNoDaemonStatus), std::string::npos);
  EXPECT_FALSE(devices.active->Connected());  // the UI warns
  EXPECT_TRUE(devices.keyboard->Connected());
  devices.active->Poll(0.5);  // the first poll anchors the keyboard's simulated time
  devices.keyboard->SetKey(KeyAction::kMoveXPos, true);
  devices.keyboard->SetKey(KeyAction::kToggleGrip, true);
  const TeleopCommand c = devices.active->Poll(0.501);
  EXPECT_GT(c.linear_m_per_s.x(), 0.0);  // the key's jog step under way
  EXPECT_EQ(c.grip, 1.0);
}

TEST_F(SpaceMouseTest, MotionGoesThroughDeadbandSensitivityAndMapping) {
  FakeSpacenavd daemon(socket_path_);
  ASSERT_TRUE(daemon.Start());
  SpaceMouseConfig config = TestConfig();
  config.sensitivity[0] = 2.0;  // vx twice as sensitive
  SpaceMouseDevice device(config);
  ASSERT_TRUE(device.Connected()) << device.Status();
  ASSERT_TRUE(daemon.WaitForClient());
  EXPECT_EQ(daemon.protocol_requests(), 1);

  // Raw (spacenavd frame): x in the deadband, y beyond full scale, z pushed away by 60 counts,
  // rz 35 counts. Default mapping: vx = -z, vy = -x, vz = +y, wx = -rz, wy = -rx, wz = +ry.
  const TeleopCommand c = SendAndPoll(daemon, device, {5, 500, -60, 0, 0, 35});
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.x(), 0.5 * 2.0 * 0.2);  // (60-10)/100, sensitivity 2
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.y(), 0.0);              // inside the deadband
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.z(), 1.0 * 0.2);        // clamped at full scale
  EXPECT_DOUBLE_EQ(c.angular_rad_per_s.x(), -0.25 * 1.0);   // (35-10)/100, sign flipped
  EXPECT_DOUBLE_EQ(c.angular_rad_per_s.y(), 0.0);
  EXPECT_DOUBLE_EQ(c.angular_rad_per_s.z(), 0.0);

  // The cap released: spacenavd sends zeros, the twist stops.
  ASSERT_TRUE(daemon.SendMotion(0, 0, 0, 0, 0, 0));
  EXPECT_TRUE(
      PollUntil(device, [](const TeleopCommand& c) { return c.IsZeroTwist(); }).IsZeroTwist());
  EXPECT_NE(device.Status().find("connected"), std::string::npos);
}

TEST_F(SpaceMouseTest, CustomAxisMappingAndSign) {
  FakeSpacenavd daemon(socket_path_);
  ASSERT_TRUE(daemon.Start());
  SpaceMouseConfig config = TestConfig();
  config.mapping[0] = {0, +1.0};  // vx from raw x, same sign
  config.mapping[1] = {-1, 1.0};  // vy unmapped
  SpaceMouseDevice device(config);
  ASSERT_TRUE(device.Connected());
  const TeleopCommand c = SendAndPoll(daemon, device, {60, 0, 0, 0, 0, 0});
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.x(), 0.5 * 0.2);
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.y(), 0.0);
}

TEST_F(SpaceMouseTest, DominantAxisAndLocks) {
  FakeSpacenavd daemon(socket_path_);
  ASSERT_TRUE(daemon.Start());
  SpaceMouseDevice device(TestConfig());
  ASSERT_TRUE(device.Connected());
  // Deflections: vx 0.5 (z=-60), vz 0.3 (y=40), wy -0.7 (rx=80).
  const std::array<int, 6> raw = {0, 40, -60, 80, 0, 0};

  TeleopCommand c = SendAndPoll(daemon, device, raw);
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.x(), 0.1);
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.z(), 0.3 * 0.2);
  EXPECT_DOUBLE_EQ(c.angular_rad_per_s.y(), -0.7);

  device.config().dominant_axis = true;  // the rotation is the largest push
  c = SendAndPoll(daemon, device, raw);
  EXPECT_TRUE(c.linear_m_per_s.isZero(0.0));
  EXPECT_DOUBLE_EQ(c.angular_rad_per_s.y(), -0.7);
  EXPECT_DOUBLE_EQ(c.angular_rad_per_s.norm(), 0.7);

  device.config().lock_rotation = true;  // with rotation locked, vx wins
  c = SendAndPoll(daemon, device, raw);
  EXPECT_TRUE(c.angular_rad_per_s.isZero(0.0));
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.x(), 0.1);
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.norm(), 0.1);

  device.config().dominant_axis = false;
  device.config().lock_rotation = false;
  device.config().lock_translation = true;
  c = SendAndPoll(daemon, device, raw);
  EXPECT_TRUE(c.linear_m_per_s.isZero(0.0));
  EXPECT_DOUBLE_EQ(c.angular_rad_per_s.y(), -0.7);
}

TEST_F(SpaceMouseTest, ButtonsSetGripAndToggleModes) {
  FakeSpacenavd daemon(socket_path_);
  ASSERT_TRUE(daemon.Start());
  SpaceMouseConfig config = TestConfig();
  config.buttons[2] = SpaceMouseButtonAction::kToggleGrip;
  config.buttons[3] = SpaceMouseButtonAction::kToggleDominantAxis;
  SpaceMouseDevice device(config);
  ASSERT_TRUE(device.Connected());
  auto grip_is = [](double g) { return [g](const TeleopCommand& c) { return c.grip == g; }; };

  EXPECT_EQ(device.Poll(0.0).grip, 0.0);
  ASSERT_TRUE(daemon.SendButton(1, true));  // button 1 closes
  EXPECT_EQ(PollUntil(device, grip_is(1.0)).grip, 1.0);
  ASSERT_TRUE(daemon.SendButton(1, false));  // release changes nothing
  ASSERT_TRUE(daemon.SendButton(0, true));   // button 0 opens
  EXPECT_EQ(PollUntil(device, grip_is(0.0)).grip, 0.0);
  ASSERT_TRUE(daemon.SendButton(0, false));
  ASSERT_TRUE(daemon.SendButton(2, true));  // toggle
  EXPECT_EQ(PollUntil(device, grip_is(1.0)).grip, 1.0);
  ASSERT_TRUE(daemon.SendButton(2, false));
  ASSERT_TRUE(daemon.SendButton(7, true));  // unmapped: ignored
  ASSERT_TRUE(daemon.SendButton(3, true));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!device.config().dominant_axis && std::chrono::steady_clock::now() < deadline) {
    device.Poll(0.0);
  }
  EXPECT_TRUE(device.config().dominant_axis);
  EXPECT_EQ(device.Poll(0.0).grip, 1.0);
}

TEST_F(SpaceMouseTest, DaemonDisappearingMidSessionStopsMotionAndReconnects) {
  auto daemon = std::make_unique<FakeSpacenavd>(socket_path_);
  ASSERT_TRUE(daemon->Start());
  SpaceMouseDevice device(TestConfig());
  ASSERT_TRUE(device.Connected());
  ASSERT_TRUE(daemon->SendButton(1, true));
  TeleopCommand c = SendAndPoll(*daemon, device, {0, 0, -60, 0, 0, 0});
  ASSERT_FALSE(c.IsZeroTwist());
  ASSERT_EQ(c.grip, 1.0);

  daemon->Stop();  // the daemon dies while the cap is pushed
  daemon.reset();
  c = PollUntil(device, [](const TeleopCommand& c) { return c.IsZeroTwist(); });
  EXPECT_TRUE(c.IsZeroTwist());
  EXPECT_EQ(c.grip, 1.0) << "the grip is held, the object is not dropped";
  EXPECT_FALSE(device.Connected());
  EXPECT_EQ(device.Status(), SpaceMouseDevice::kDisconnectedStatus);
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(device.Poll(0.0).IsZeroTwist());

  // The daemon comes back (reconnect_interval_s = 0 in the test config).
  FakeSpacenavd restarted(socket_path_);
  ASSERT_TRUE(restarted.Start());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!device.Connected() && std::chrono::steady_clock::now() < deadline) device.Poll(0.0);
  ASSERT_TRUE(device.Connected());
  ASSERT_TRUE(restarted.WaitForClient());
  c = SendAndPoll(restarted, device, {0, 0, -60, 0, 0, 0});
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.x(), 0.1);
}

TEST_F(SpaceMouseTest, EventSplitAcrossWritesIsAssembled) {
  FakeSpacenavd daemon(socket_path_);
  ASSERT_TRUE(daemon.Start());
  SpaceMouseDevice device(TestConfig());
  ASSERT_TRUE(device.Connected());
  const int32_t event[8] = {0, 0, 0, -60, 0, 0, 0, 16};
  ASSERT_TRUE(daemon.SendRaw(event, 12));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(device.Poll(0.0).IsZeroTwist());  // a fragment is not decoded
  EXPECT_TRUE(device.Connected());
  ASSERT_TRUE(daemon.SendRaw(reinterpret_cast<const char*>(event) + 12, sizeof event - 12));
  const TeleopCommand c =
      PollUntil(device, [](const TeleopCommand& c) { return !c.IsZeroTwist(); });
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.x(), 0.1);

  // A fragment followed by the daemon exiting is a disconnect, not a hang.
  ASSERT_TRUE(daemon.SendRaw(event, 12));
  daemon.Stop();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (device.Connected() && std::chrono::steady_clock::now() < deadline) device.Poll(0.0);
  EXPECT_FALSE(device.Connected());
  EXPECT_TRUE(device.Poll(0.0).IsZeroTwist());
}

TEST_F(SpaceMouseTest, OldDaemonThatIgnoresTheProtocolRequest) {
  FakeSpacenavd daemon(socket_path_, /*answer_protocol_request=*/false);
  ASSERT_TRUE(daemon.Start());
  SpaceMouseDevice device(TestConfig());  // libspnav waits 300 ms, then falls back to v0
  ASSERT_TRUE(device.Connected());
  const TeleopCommand c = SendAndPoll(daemon, device, {0, 0, -60, 0, 0, 0});
  EXPECT_DOUBLE_EQ(c.linear_m_per_s.x(), 0.1);
}

TEST_F(SpaceMouseTest, SecondDeviceReportsSharedConnectionInUse) {
  FakeSpacenavd daemon(socket_path_);
  ASSERT_TRUE(daemon.Start());
  SpaceMouseDevice first(TestConfig());
  ASSERT_TRUE(first.Connected());
  SpaceMouseDevice second(TestConfig());  // libspnav has one global connection
  EXPECT_FALSE(second.Connected());
  EXPECT_NE(second.Status().find("busy"), std::string::npos) << second.Status();
  EXPECT_TRUE(second.Poll(0.0).IsZeroTwist());
}

TEST(SpaceMouseMappingTest, DeadbandRescalesFromZero) {
  SpaceMouseConfig config = TestConfig();
  config.mapping = {AxisSource{0, 1}, AxisSource{1, 1}, AxisSource{2, 1},
                    AxisSource{3, 1}, AxisSource{4, 1}, AxisSource{5, 1}};
  const auto d = MapSpaceMouseAxes({10, 11, -11, 110, -1000, 0}, config);
  EXPECT_EQ(d[0], 0.0);
  EXPECT_DOUBLE_EQ(d[1], 0.01);
  EXPECT_DOUBLE_EQ(d[2], -0.01);
  EXPECT_DOUBLE_EQ(d[3], 1.0);
  EXPECT_DOUBLE_EQ(d[4], -1.0);
}

}  // namespace
}  // namespace contactlab
