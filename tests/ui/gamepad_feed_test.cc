// `--input gamepad` in the window: the GUI feeds the pad's state every frame, and with no pad
// (Xvfb has no joysticks) the teleop view reports it as a warning while the run goes on.
#include "ui/gamepad_feed.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "io/scene_loader.h"
#include "test_support/display.h"
#include "ui/application.h"

namespace contactlab {
namespace {

TEST(GamepadFeed, WithoutAPadTheTeleopViewWarnsAndNamesTheMergedDevice) {
  CONTACTLAB_REQUIRE_DISPLAY();
  ApplicationOptions o;
  o.scene = o.scene_defaults = LoadSceneFile(ResolveScenePath("peg_in_hole"));
  o.scene_name = "peg_in_hole";
  o.width = 640;
  o.height = 480;
  o.visible = false;
  o.vsync = false;
  o.input = "gamepad";
  // The lowered render priority is a deployment choice; it would stay with this test process
  // (and every later test of the executable when run as one) on a loaded machine.
  o.render_thread_nice = 0;
  Application app(o);
  if (ReadGlfwGamepad().connected) GTEST_SKIP() << "a gamepad is plugged into this machine";
  // The sim thread refreshes the device status every few dozen steps: within 100 stepped
  // frames (1.7 simulated seconds).
  std::shared_ptr<const Snapshot> s;
  for (int frame = 0; frame < 100 && (!s || s->teleop.device_name.empty()); ++frame) {
    app.RunSteppedFrames(1);
    s = app.LatestSnapshot();
  }
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->teleop.active);
  EXPECT_EQ(s->teleop.device_name, "gamepad+keyboard");
  EXPECT_FALSE(s->teleop.device_connected);
  EXPECT_EQ(s->teleop.device_status.rfind(GamepadDevice::kNoGamepadStatus, 0), 0u)
      << s->teleop.device_status;
}

}  // namespace
}  // namespace contactlab
