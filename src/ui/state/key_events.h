// GLFW's key events of a frame, in order (issue 14), each with its stamp (issue 35): a tap
// shorter than a frame — press and release between two frames, common when software rendering
// runs at a few frames per second — reaches the keyboard device, where polling the key state
// once per frame would miss it, and the device times holds by the stamps, not by the frames.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace contactlab {

struct KeyEvent {
  int glfw_key = 0;
  bool down = false;  // GLFW_PRESS or GLFW_REPEAT
  double t_s = 0;     // on the event clock (input/event_clock.h): the event's, or the callback's
  // The window's event poll that delivered it, for a callback's time (its resolution is the
  // poll's); −1 when t_s is the event's own time (the X server's).
  int64_t poll = 0;
};

// Filled by the window's key callback and drained once per frame, both on the main thread
// (GLFW calls callbacks from glfwPollEvents).
class KeyEventQueue {
 public:
  KeyEventQueue() { events_.reserve(kTypicalFrame); }
  void Push(int glfw_key, int glfw_action, double t_s, int64_t poll);
  std::span<const KeyEvent> events() const { return events_; }
  void Clear() { events_.clear(); }

 private:
  static constexpr size_t kTypicalFrame = 64;  // a frame's events without a reallocation
  std::vector<KeyEvent> events_;
};

}  // namespace contactlab
