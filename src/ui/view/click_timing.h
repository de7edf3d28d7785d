// Clicks and double-clicks of the left mouse button decided by the events' own times, not by
// the frames' (issue 35): Dear ImGui decides a double-click from the frame times, so below
// about 8 fps it never sees one. The window stamps each button event in GLFW's callback
// (the event clock, input/event_clock.h) with the index of the event poll that delivered it.
//
// The stamps are the X server's times of the events where the window has them (exact;
// ui/x11_event_times.h). Otherwise they are the callbacks' times, and GLFW delivers all of a
// frame's events in one poll: at 2 fps two presses 0.2 s apart arrive in the same poll (stamps
// a few µs apart) or in two consecutive ones (stamps 0.5 s apart). The second press of a
// double-click is therefore one within kDoubleClick_s of the first by the stamps, or, not
// exact, in the poll right after the first's (within kNextPollDoubleClick_s); and within
// kDoubleClickSlop_px of it.
//
// A click (a press and its release within kClickSlop_px, without Ctrl) may be the first of a
// double-click, so its single-click action waits: the click is reported at once (to prepare the
// action), then confirmed once no second press can come (a poll later and kDoubleClick_s after
// it) or cancelled by the double-click.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <span>

namespace contactlab {

// A mouse button's press or release as the window's callback saw it.
struct MouseButtonEvent {
  int button = 0;  // 0 left, 1 right, 2 middle (GLFW_MOUSE_BUTTON_*)
  bool down = false;
  float x = 0, y = 0;  // the pointer, window pixels (y down)
  bool ctrl = false;   // Ctrl held
  double t_s = 0;      // event clock
  int64_t poll = 0;    // the event poll that delivered it
  bool exact = false;  // t_s is the event's own time (the X server's), not the poll's
};

// What the left button did, decided this frame.
struct Clicks {
  std::optional<Eigen::Vector2f> double_click;  // the second press's position
  // A click completed this frame (its press's position): it may still turn out to be the first
  // of a double-click. Prepare its action; do it on `confirmed`, drop it on `cancelled`.
  std::optional<Eigen::Vector2f> click;
  bool confirmed = false;  // the click reported last is a single click
  bool cancelled = false;  // the click reported last was a double-click's first
};

class ClickTiming {
 public:
  static constexpr double kDoubleClick_s = 0.3;
  static constexpr double kNextPollDoubleClick_s = 1.0;
  static constexpr float kDoubleClickSlop_px = 6.0f;
  static constexpr float kClickSlop_px = 3.0f;  // a release farther from its press is a drag

  // A frame: its left-button events in order (others are ignored), and the event poll the
  // frame made (its index and its start on the event clock; all events before it are in).
  Clicks Update(std::span<const MouseButtonEvent> events, int64_t poll, double poll_s);

 private:
  struct Press {
    Eigen::Vector2f p = Eigen::Vector2f::Zero();
    double t_s = 0;
    int64_t poll = 0;
    bool exact = false;
  };
  struct Pending {
    Press press;
    bool reported = false;  // in Clicks::click of an Update
  };
  static bool SecondPress(const Press& first, const Press& second);
  void OnPress(const MouseButtonEvent& e, Clicks* clicks);
  void OnRelease(const MouseButtonEvent& e);
  void Settle(Clicks* clicks);

  std::optional<Press> first_;   // a press a second one would make a double-click with
  std::optional<Press> held_;    // the press the button is held since (a click's start)
  bool held_is_second_ = false;  // ... and it was a double-click's second press
  bool held_with_ctrl_ = false;
  std::optional<Pending> pending_;  // a click, neither confirmed nor cancelled yet
};

}  // namespace contactlab
