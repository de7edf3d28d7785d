// The X server's times of input events (issue 35): a server time in milliseconds of the
// monotonic clock becomes the event clock's seconds, across the 32-bit wrap, and a time of
// another clock is refused; a key pressed and released 150 ms apart by the server's clock, both
// delivered by one poll (as at a few frames a second), is stamped 150 ms apart, not at the poll.
#include "ui/x11_event_times.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "input/event_clock.h"
#include "test_support/display.h"
#include "ui/hidden_window.h"
#include "ui/window.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <X11/Xlib.h>
#include <X11/keysym.h>

namespace contactlab {
namespace {

TEST(X11EventTimes, AServerTimeIsTheEventClocksAcrossTheWrapAndOtherClocksAreRefused) {
  EXPECT_NEAR(*ServerTimeToEventClock(1000350, 1000.5004), 1000.350, 1e-9);
  // Past the 32-bit wrap (49.7 days): the server's 150 ms before it, now 100 ms after.
  const double now_s = 4294967.296 + 0.1004;
  EXPECT_NEAR(*ServerTimeToEventClock(UINT32_MAX - 49, now_s), 4294967.296 - 0.050, 1e-6);
  EXPECT_FALSE(ServerTimeToEventClock(1000500 - 20000, 1000.5).has_value()) << "20 s old";
  EXPECT_EQ(*ServerTimeToEventClock(1000502, 1000.5), 1000.5) << "a coarse clock's rounding";
  EXPECT_FALSE(ServerTimeToEventClock(1001500, 1000.5).has_value()) << "1 s ahead";
}

XKeyEvent KeyEvent(Display* display, ::Window window, bool press, uint32_t time_ms) {
  XKeyEvent e{};
  e.type = press ? KeyPress : KeyRelease;
  e.display = display;
  e.window = window;
  e.root = DefaultRootWindow(display);
  e.time = time_ms;
  e.keycode = XKeysymToKeycode(display, XK_w);
  e.same_screen = True;
  return e;
}

TEST(X11EventTimes, AKeysPressAndReleaseInOnePollAreStampedByTheServersTimes) {
  CONTACTLAB_REQUIRE_DISPLAY();
  std::vector<std::pair<int, InputStamp>> keys;
  WindowEvents events;
  events.on_key = [&](int key, int action, InputStamp stamp) {
    if (key == GLFW_KEY_W) keys.emplace_back(action, stamp);
  };
  Window window(testing::HiddenWindow(), std::move(events));
  window.PollEvents();
  // GLFW's X11 accessors (glfw3native.h needs headers this build does not).
  const auto get_display =
      reinterpret_cast<Display* (*)()>(dlsym(RTLD_DEFAULT, "glfwGetX11Display"));
  const auto get_window =
      reinterpret_cast<::Window (*)(GLFWwindow*)>(dlsym(RTLD_DEFAULT, "glfwGetX11Window"));
  ASSERT_TRUE(get_display && get_window) << "GLFW without X11";
  Display* display = get_display();
  ::Window x_window = get_window(glfwGetCurrentContext());
  ASSERT_NE(display, nullptr);
  ASSERT_NE(x_window, 0u);
  const auto now_ms = static_cast<uint32_t>(
      static_cast<uint64_t>(std::floor(SteadyClockSeconds() * 1e3)) & 0xffffffffULL);
  for (const auto& [press, time_ms] : {std::pair{true, now_ms - 300}, {false, now_ms - 150}}) {
    XKeyEvent e = KeyEvent(display, x_window, press, time_ms);
    XSendEvent(display, x_window, False, press ? KeyPressMask : KeyReleaseMask,
               reinterpret_cast<XEvent*>(&e));
  }
  XSync(display, False);
  window.PollEvents();
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].first, GLFW_PRESS);
  EXPECT_EQ(keys[1].first, GLFW_RELEASE);
  EXPECT_NEAR(keys[1].second.t_s - keys[0].second.t_s, 0.150, 1e-9);
  EXPECT_LT(keys[1].second.t_s, window.poll_start_s()) << "before the poll that delivered it";
  EXPECT_EQ(keys[0].second.poll, window.polls());
  EXPECT_TRUE(keys[0].second.exact && keys[1].second.exact);
}

}  // namespace
}  // namespace contactlab
