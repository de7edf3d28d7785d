// The teleoperation keys reach the keyboard device: every key of the device's map has a GLFW
// key in the GUI, and none collides with a GUI shortcut that would fire with it in a robot scene.
#include "ui/panels/teleop_panel.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "input/keyboard_device.h"
#include "ui/panels/shortcuts.h"

namespace contactlab {
namespace {

// The grip line names the next action: a closed grip (the scene's too) opens on Space.
TEST(TeleopPanel, TheGripLineNamesWhatSpaceDoesNext) {
  EXPECT_EQ(GripStateLabel(1.0, true), "grip closed (scene's)   Space: open");
  EXPECT_EQ(GripStateLabel(1.0, false), "grip closed   Space: open");
  EXPECT_EQ(GripStateLabel(0.0, false), "grip open   Space: close");
}

// Issue 36: the program's line says when the slider has overridden it.
TEST(TeleopPanel, TheProgramLineSaysWhenTheSliderOverridesIt) {
  EXPECT_EQ(GripProgramLine("square wave 1-16 N, 6 s, 75 %", true),
            "program: square wave 1-16 N, 6 s, 75 %");
  EXPECT_EQ(GripProgramLine("square wave 1-16 N, 6 s, 75 %", false),
            "program: square wave 1-16 N, 6 s, 75 % - overridden");
}

TEST(TeleopKeys, EveryKeyOfTheKeyboardMapHasAGlfwKey) {
  std::set<int> seen;
  for (const KeyBinding& b : DefaultKeyMap()) {
    int keys[2] = {-1, -1};
    const int n = GlfwKeysForName(b.key, keys);
    EXPECT_GE(n, 1) << b.key;
    for (int k = 0; k < n; ++k) {
      EXPECT_GE(keys[k], GLFW_KEY_SPACE) << b.key;
      EXPECT_LE(keys[k], GLFW_KEY_LAST) << b.key;
      EXPECT_TRUE(seen.insert(keys[k]).second) << b.key << " shares a GLFW key";
    }
  }
  int keys[2];
  EXPECT_EQ(GlfwKeysForName("W", keys), 1);
  EXPECT_EQ(keys[0], GLFW_KEY_W);
  EXPECT_EQ(GlfwKeysForName("+", keys), 2);
  EXPECT_EQ(keys[0], GLFW_KEY_EQUAL);
  EXPECT_EQ(keys[1], GLFW_KEY_KP_ADD);
  EXPECT_EQ(GlfwKeysForName("F13", keys), 0);
}

TEST(TeleopKeys, NoneIsAGuiShortcutLetter) {
  // The GUI shortcut letters that stay active in robot scenes (the help table; the rows that
  // hand their key to the robot there say "robot scenes"): a teleop key among them would move
  // the robot and, say, reset the scene at once.
  std::set<std::string> gui;
  for (const Shortcut& s : Shortcuts()) {
    if (std::string(s.action).find("robot scenes") != std::string::npos) continue;
    std::string token;
    for (const char* c = s.keys;; ++c) {
      if (*c == ' ' || *c == '/' || *c == '\0') {
        if (token.size() == 1 && token[0] >= 'A' && token[0] <= 'Z') gui.insert(token);
        token.clear();
        if (*c == '\0') break;
      } else {
        token += *c;
      }
    }
  }
  ASSERT_TRUE(gui.count("R") && gui.count("H"));  // the table is what we think it is
  for (const KeyBinding& b : DefaultKeyMap()) EXPECT_EQ(gui.count(b.key), 0u) << b.key;
}

}  // namespace
}  // namespace contactlab
