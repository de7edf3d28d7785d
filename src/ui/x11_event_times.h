// The X server's own times of the key and mouse-button events GLFW is about to deliver
// (issue 35). GLFW runs its callbacks inside glfwPollEvents, once a frame: an event stamped in
// its callback gets the frame's time, so at 3 fps a key's hold would still be measured in whole
// frames. Every X event carries the time the server saw it (milliseconds of CLOCK_MONOTONIC on
// Linux's X servers: the clock std::chrono::steady_clock reads). Before each poll the window
// reads the events the server has sent, without taking any (GLFW takes them), and notes those
// times; each callback then takes its event's. Where the server's clock is not ours (a remote
// display) or an event was not noted, the callback's time stands.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

struct GLFWwindow;

namespace contactlab {

// A server time [ms, 32 bits: it wraps every 49.7 days] on the event clock, given the event
// clock's now [s]: std::nullopt when it would be more than max_age_s old (or ahead by more
// than a few ms): then it is some other clock.
std::optional<double> ServerTimeToEventClock(uint32_t server_ms, double now_s,
                                             double max_age_s = 10.0);

class X11EventTimes {
 public:
  // Before glfwPollEvents: notes the times of the key and button presses and releases for
  // `window` queued so far, in order. No-op when GLFW does not run on X11.
  void Scan(GLFWwindow* window);
  // The time of the first noted, not yet taken event of this kind, on the event clock (now_s:
  // its now): a key by its X keycode (GLFW's scancode), a button by GLFW's index.
  std::optional<double> TakeKey(bool press, int keycode, double now_s);
  std::optional<double> TakeButton(bool press, int glfw_button, double now_s);

 private:
  struct Noted {
    int type = 0;       // KeyPress, KeyRelease, ButtonPress, ButtonRelease
    unsigned code = 0;  // keycode, or GLFW's button index
    uint32_t time_ms = 0;
    bool taken = false;
  };
  std::optional<double> Take(int type, unsigned code, double now_s);
  std::vector<Noted> noted_;
};

}  // namespace contactlab
