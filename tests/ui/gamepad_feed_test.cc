// `--input gamepad` in the window: the GUI feeds the pad's state every frame, and with no pad
// (Xvfb has no joysticks) the teleop view reports it as a warning while the run goes on.
#include "ui/gamepad_feed.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>

#include "io/scene_loader.h"
#include "ui/application.h"

namespace contactlab {
namespace {

bool HaveDisplay() {
  const char* d = std::getenv("DISPLAY");
  return d != nullptr && d[0] != '\0';
}

TEST(GamepadFeed, WithoutAPadTheTeleopViewWarnsAndNamesTheMergedDevice) {
  if (!HaveDisplay()) GTEST_SKIP() << "no DISPLAY (run under xvfb-run -a)";
  ApplicationOptions o;
  o.scene = o.scene_defaults = LoadSceneFile(ResolveScenePath("peg_in_hole"));
  o.scene_name = "peg_in_hole";
  o.width = 640;
  o.height = 480;
  o.visible = false;
  o.vsync = false;
  o.input = "gamepad";
  Application app(o);
  if (ReadGlfwGamepad().connected) GTEST_SKIP() << "a gamepad is plugged into this machine";
  // The sim thread refreshes the device status every few dozen steps.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::shared_ptr<const Snapshot> s;
  do {
    app.RunFrames(2);
    s = app.LatestSnapshot();
  } while ((!s || s->teleop.device_name.empty()) && std::chrono::steady_clock::now() < deadline);
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->teleop.active);
  EXPECT_EQ(s->teleop.device_name, "gamepad+keyboard");
  EXPECT_FALSE(s->teleop.device_connected);
  EXPECT_EQ(s->teleop.device_status.rfind(GamepadDevice::kNoGamepadStatus, 0), 0u)
      << s->teleop.device_status;
}

}  // namespace
}  // namespace contactlab
