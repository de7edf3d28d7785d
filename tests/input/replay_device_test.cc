// Replay from CSV, recording to CSV, and the one-line errors for malformed files.
#include "input/replay_device.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "input/input_spec.h"
#include "input/recorder.h"
#include "input/teleop_csv.h"

namespace contactlab {
namespace {

class ReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/contactlab_replay_XXXXXX";
    ASSERT_NE(mkdtemp(dir_template), nullptr);
    dir_ = dir_template;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  // Loads a file expected to be malformed and returns the error.
  std::string ErrorFor(const std::string& text) {
    const std::string path = Write("bad.csv", text);
    std::string error;
    EXPECT_EQ(ReplayDevice::Load(path, &error), nullptr);
    EXPECT_EQ(error.find('\n'), std::string::npos) << "one line: " << error;
    return error;
  }

  std::string dir_;
};

const char* kCsv =
    "t,vx,vy,vz,wx,wy,wz,grip\n"
    "1.0,0.1,0,0,0,0,0,0\n"
    "2.0,0.3,-0.2,0,0,0,1,0.5\n"
    "4.0,0,0,0.4,0.2,0,0,1\n";

TEST_F(ReplayTest, ReplaysRowsExactlyAndInterpolatesLinearly) {
  std::string error;
  auto replay = ReplayDevice::Load(Write("session.csv", kCsv), &error);
  ASSERT_NE(replay, nullptr) << error;

  // At the rows: the rows.
  TeleopCommand c = replay->Poll(2.0);
  EXPECT_EQ(c.linear_m_per_s, Eigen::Vector3d(0.3, -0.2, 0));
  EXPECT_EQ(c.angular_rad_per_s, Eigen::Vector3d(0, 0, 1));
  EXPECT_EQ(c.grip, 0.5);
  EXPECT_EQ(c.t, 2.0);
  EXPECT_EQ(replay->Poll(1.0).linear_m_per_s, Eigen::Vector3d(0.1, 0, 0));
  c = replay->Poll(4.0);
  EXPECT_EQ(c.linear_m_per_s, Eigen::Vector3d(0, 0, 0.4));
  EXPECT_EQ(c.grip, 1.0);

  // Between rows: linear interpolation of every channel.
  c = replay->Poll(1.5);
  EXPECT_NEAR(c.linear_m_per_s.x(), 0.2, 1e-15);
  EXPECT_NEAR(c.linear_m_per_s.y(), -0.1, 1e-15);
  EXPECT_NEAR(c.angular_rad_per_s.z(), 0.5, 1e-15);
  EXPECT_NEAR(c.grip, 0.25, 1e-15);
  c = replay->Poll(3.5);  // 3/4 of the way from t=2 to t=4
  EXPECT_NEAR(c.linear_m_per_s.x(), 0.075, 1e-15);
  EXPECT_NEAR(c.linear_m_per_s.z(), 0.3, 1e-15);
  EXPECT_NEAR(c.angular_rad_per_s.x(), 0.15, 1e-15);
  EXPECT_NEAR(c.angular_rad_per_s.z(), 0.25, 1e-15);
  EXPECT_NEAR(c.grip, 0.875, 1e-15);
  EXPECT_NE(replay->Status().find("t = 3.500 / 4.000"), std::string::npos);

  // Before the start: zero twist, first grip. After the end: zero twist, last grip held.
  c = replay->Poll(0.5);
  EXPECT_TRUE(c.IsZeroTwist());
  EXPECT_EQ(c.grip, 0.0);
  c = replay->Poll(4.0001);
  EXPECT_TRUE(c.IsZeroTwist());
  EXPECT_EQ(c.grip, 1.0);
  EXPECT_TRUE(replay->Finished(4.0001));
  EXPECT_NE(replay->Status().find("finished"), std::string::npos);
}

TEST_F(ReplayTest, RecorderToReplayRoundTripIsBitExact) {
  const std::string path = dir_ + "/recorded.csv";
  std::vector<TeleopCommand> live;
  for (int i = 0; i < 200; ++i) {
    TeleopCommand c;
    c.t = i * (1.0 / 60.0);  // not representable exactly in decimal
    c.linear_m_per_s = Eigen::Vector3d(0.1 + 0.2 * std::sin(i), -1e-300 * i, M_PI / (i + 1));
    c.angular_rad_per_s = Eigen::Vector3d(std::exp(-i), 0.0, -std::sqrt(2.0) * i);
    c.grip = (i / 50) % 2 ? 1.0 : 1.0 / 3.0;
    live.push_back(c);
  }
  {
    Recorder recorder;
    std::string error;
    ASSERT_TRUE(recorder.Open(path, &error)) << error;
    for (const TeleopCommand& c : live) ASSERT_TRUE(recorder.Record(c));
    EXPECT_FALSE(recorder.Record(live.back())) << "repeated t is dropped";
    EXPECT_EQ(recorder.rows_written(), live.size());
  }  // the destructor closes the file
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "t,vx,vy,vz,wx,wy,wz,grip");

  std::string error;
  auto replay = ReplayDevice::Load(path, &error);
  ASSERT_NE(replay, nullptr) << error;
  for (const TeleopCommand& c : live) {
    const TeleopCommand r = replay->Poll(c.t);
    EXPECT_EQ(r.t, c.t);
    EXPECT_EQ(r.linear_m_per_s, c.linear_m_per_s);
    EXPECT_EQ(r.angular_rad_per_s, c.angular_rad_per_s);
    EXPECT_EQ(r.grip, c.grip);
  }
}

TEST_F(ReplayTest, RecorderReportsAnUnwritablePath) {
  Recorder recorder;
  std::string error;
  EXPECT_FALSE(recorder.Open(dir_ + "/no/such/dir/x.csv", &error));
  EXPECT_NE(error.find(dir_ + "/no/such/dir/x.csv"), std::string::npos);
  EXPECT_FALSE(recorder.Record(TeleopCommand{}));
}

TEST_F(ReplayTest, MalformedFilesNameFileAndLine) {
  struct Malformed {
    const char* text;
    const char* error;  // how the one line starts after "FILE:"
  };
  const Malformed cases[] = {
      {"t,vx,vy,vz,wx,wy,wz\n1,0,0,0,0,0,0\n", "1: expected header"},
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,0,0,0,0\n0.1,0,abc,0,0,0,0,0\n",
       "3: column 'vy' is not a number: \"abc\""},
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,0,0,0,0\n0.1,0.5x,0,0,0,0,0,0\n",
       "3: column 'vx' is not a number"},
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,0,0,0,0\n1,0,0,0,0,0,0,0\n1,0,0,0,0,0,0,0\n",
       "4: t must increase strictly"},
      // The blank line is counted.
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,0,0,0,0\n\n-1,0,0,0,0,0,0,0\n",
       "4: t must increase strictly"},
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,nan,0,0,0\n", "2: column 'wx' is not finite"},
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,0,0,inf,0\n", "2: column 'wz' is not finite"},
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,0,0,0\n", "2: expected 8 fields"},
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,0,0,0,0,0\n", "2: expected 8 fields"},
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,,0,0,0,0,0\n", "2: column 'vy' is not a number"},
      {"t,vx,vy,vz,wx,wy,wz,grip\n0,0,0,0,0,0,0,1.5\n", "2: grip must be in [0, 1]"},
      {"t,vx,vy,vz,wx,wy,wz,grip\n", "1: no data rows"},
      {"", "1: empty file"},
  };
  const std::string bad = dir_ + "/bad.csv";
  for (const Malformed& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string e = ErrorFor(c.text);
    EXPECT_EQ(e.rfind(bad + ":" + c.error, 0), 0u) << e;
  }

  std::string error;
  EXPECT_EQ(ReplayDevice::Load(dir_ + "/missing.csv", &error), nullptr);
  EXPECT_EQ(error, dir_ + "/missing.csv: cannot open replay file");
}

TEST_F(ReplayTest, AcceptsWindowsLineEndingsSpacesAndNoFinalNewline) {
  const std::string path =
      Write("crlf.csv", "t,vx,vy,vz,wx,wy,wz,grip\r\n0, 1e-3 ,0,0,0,0,0,0\r\n0.5,-2,0,0,0,0,0,1");
  std::string error;
  auto replay = ReplayDevice::Load(path, &error);
  ASSERT_NE(replay, nullptr) << error;
  EXPECT_EQ(replay->Poll(0.0).linear_m_per_s.x(), 1e-3);
  EXPECT_EQ(replay->Poll(0.5).linear_m_per_s.x(), -2.0);
}

TEST_F(ReplayTest, InputSpecParsingAndFactory) {
  InputSpec spec;
  std::string error;
  ASSERT_TRUE(ParseInputSpec("keyboard", &spec, &error));
  EXPECT_EQ(spec.kind, InputSpec::Kind::kKeyboard);
  ASSERT_TRUE(ParseInputSpec("", &spec, &error));
  EXPECT_EQ(spec.kind, InputSpec::Kind::kKeyboard);
  ASSERT_TRUE(ParseInputSpec("replay:/a/b.csv", &spec, &error));
  EXPECT_EQ(spec.kind, InputSpec::Kind::kReplay);
  EXPECT_EQ(spec.replay_path, "/a/b.csv");
  EXPECT_FALSE(ParseInputSpec("replay:", &spec, &error));
  EXPECT_FALSE(ParseInputSpec("joystick", &spec, &error));
  EXPECT_EQ(error,
            "--input: expected keyboard, spacemouse, gamepad or replay:FILE, got \"joystick\"");

  InputDevices devices;
  ASSERT_TRUE(ParseInputSpec("keyboard", &spec, &error));
  ASSERT_TRUE(CreateInputDevices(spec, &devices, &error));
  EXPECT_EQ(devices.active, devices.keyboard);

  ASSERT_TRUE(ParseInputSpec("replay:" + Write("ok.csv", kCsv), &spec, &error));
  ASSERT_TRUE(CreateInputDevices(spec, &devices, &error)) << error;
  EXPECT_EQ(devices.active->Name(), "replay");
  EXPECT_NE(devices.keyboard, nullptr);
  EXPECT_EQ(devices.active->Poll(2.0).grip, 0.5);

  ASSERT_TRUE(ParseInputSpec("replay:" + Write("bad.csv", "t,x\n"), &spec, &error));
  EXPECT_FALSE(CreateInputDevices(spec, &devices, &error));
  EXPECT_EQ(error.rfind(dir_ + "/bad.csv:1:", 0), 0u) << error;
}

}  // namespace
}  // namespace contactlab
