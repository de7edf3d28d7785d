// The GUI's window (hidden, under Xvfb; skipped without a display): it opens with a GL context
// and Dear ImGui, hands every event to its owner ahead of Dear ImGui, and closes so completely
// that the next one opens as the first did.
#include "ui/window.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <utility>
#include <vector>

#include "test_support/display.h"
#include "ui/hidden_window.h"

namespace contactlab {
namespace {

TEST(Window, KeysReachTheOwnerAndDearImGui) {
  CONTACTLAB_REQUIRE_DISPLAY();
  std::vector<std::pair<int, int>> keys;
  std::vector<InputStamp> stamps;
  std::vector<MouseButtonEvent> buttons;
  int inputs = 0;
  WindowEvents events;
  events.on_key = [&](int key, int action, InputStamp stamp) {
    keys.emplace_back(key, action);
    stamps.push_back(stamp);
  };
  events.on_mouse_button = [&](const MouseButtonEvent& e) { buttons.push_back(e); };
  events.on_input = [&] { ++inputs; };
  Window window(testing::HiddenWindow(), std::move(events));
  int w = 0, h = 0;
  window.FramebufferSize(&w, &h);
  EXPECT_GT(w, 0);
  EXPECT_GT(h, 0);

  window.SendKey(GLFW_KEY_A, GLFW_PRESS);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0], std::make_pair(GLFW_KEY_A, GLFW_PRESS));
  EXPECT_EQ(inputs, 1);
  EXPECT_TRUE(ImGui::GetIO().KeysDown[GLFW_KEY_A]) << "Dear ImGui's callback ran after ours";
  window.SendKey(GLFW_KEY_A, GLFW_RELEASE);
  EXPECT_EQ(keys.size(), 2u);
  EXPECT_EQ(inputs, 2);
  EXPECT_FALSE(ImGui::GetIO().KeysDown[GLFW_KEY_A]);
  // Stamped in order, for the poll that will deliver them (none yet: the first).
  ASSERT_EQ(stamps.size(), 2u);
  EXPECT_LE(stamps[0].t_s, stamps[1].t_s);
  EXPECT_EQ(stamps[0].poll, 1);
  EXPECT_FALSE(stamps[0].exact) << "sent, not queued: the callback's time";
  window.PollEvents();
  EXPECT_EQ(window.polls(), 1);
  EXPECT_GE(window.poll_start_s(), stamps[1].t_s);
  window.SendMouseButton(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, GLFW_MOD_CONTROL);
  ASSERT_EQ(buttons.size(), 1u);
  EXPECT_EQ(buttons[0].button, 0);
  EXPECT_TRUE(buttons[0].down);
  EXPECT_TRUE(buttons[0].ctrl);
  EXPECT_EQ(buttons[0].poll, 2);
  EXPECT_GE(buttons[0].t_s, window.poll_start_s());
}

TEST(Window, ClosesSoThatTheNextOpensAsTheFirstDid) {
  CONTACTLAB_REQUIRE_DISPLAY();
  for (int i = 0; i < 3; ++i) {
    Window window(testing::HiddenWindow(), WindowEvents{});  // no handlers: events are still safe
    window.SendKey(GLFW_KEY_B, GLFW_PRESS);
    window.PollEvents();
    window.SetTitle("window test " + std::to_string(i));
    EXPECT_NE(ImGui::GetCurrentContext(), nullptr);
    EXPECT_FALSE(window.SwapBuffers());
  }
  EXPECT_EQ(ImGui::GetCurrentContext(), nullptr) << "Dear ImGui's context went with the window";
}

}  // namespace
}  // namespace contactlab
