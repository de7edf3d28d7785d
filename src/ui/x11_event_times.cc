#include "ui/x11_event_times.h"

#include <dlfcn.h>

#include <cmath>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <X11/Xlib.h>

namespace contactlab {
namespace {

// X's button numbers: 1 left, 2 middle, 3 right, 4–7 the wheel, 8… the rest; GLFW's: 0 left,
// 1 right, 2 middle, 3… the rest. −1: not a button GLFW reports.
int GlfwButton(unsigned x_button) {
  if (x_button == Button1) return GLFW_MOUSE_BUTTON_LEFT;
  if (x_button == Button2) return GLFW_MOUSE_BUTTON_MIDDLE;
  if (x_button == Button3) return GLFW_MOUSE_BUTTON_RIGHT;
  if (x_button >= 8) return static_cast<int>(x_button) - 8 + GLFW_MOUSE_BUTTON_4;
  return -1;
}

// GLFW's X11 accessors (glfw3native.h), looked up at run time: a GLFW built for Wayland alone
// has none, and then there is nothing to scan.
struct GlfwX11 {
  using GetDisplay = ::Display* (*)();
  using GetWindow = ::Window (*)(GLFWwindow*);
  GetDisplay display = reinterpret_cast<GetDisplay>(dlsym(RTLD_DEFAULT, "glfwGetX11Display"));
  GetWindow window = reinterpret_cast<GetWindow>(dlsym(RTLD_DEFAULT, "glfwGetX11Window"));
};

}  // namespace

std::optional<double> ServerTimeToEventClock(uint32_t server_ms, double now_s, double max_age_s) {
  constexpr uint32_t kAheadSlack_ms = 5;  // the server's coarse clock, rounding
  const double now_ms = std::floor(now_s * 1e3);
  const auto now_ms_low = static_cast<uint32_t>(static_cast<uint64_t>(now_ms) & 0xffffffffULL);
  const uint32_t age_ms = now_ms_low - server_ms;  // wraps as the server's clock does
  if (age_ms > UINT32_MAX - kAheadSlack_ms) return now_s;
  if (static_cast<double>(age_ms) > max_age_s * 1e3) return std::nullopt;
  return 1e-3 * (now_ms - static_cast<double>(age_ms));  // the server's millisecond, exactly
}

void X11EventTimes::Scan(GLFWwindow* window) {
  noted_.clear();
  static const GlfwX11 x11;
  ::Display* display = x11.display ? x11.display() : nullptr;
  const ::Window x_window = display && x11.window ? x11.window(window) : 0;
  if (x_window == 0) return;
  XPending(display);  // reads what the server has sent into the queue
  struct Scanning {
    ::Window window;
    std::vector<Noted>* noted;
  } scanning{x_window, &noted_};
  // XCheckIfEvent's predicate: notes the event and never matches, so nothing leaves the queue.
  auto note = [](::Display*, XEvent* event, XPointer arg) -> Bool {
    const auto& [own_window, noted] = *reinterpret_cast<Scanning*>(arg);
    const int type = event->type;
    if ((type == KeyPress || type == KeyRelease) && event->xkey.window == own_window) {
      noted->push_back({type, event->xkey.keycode, static_cast<uint32_t>(event->xkey.time)});
    } else if ((type == ButtonPress || type == ButtonRelease) &&
               event->xbutton.window == own_window) {
      if (const int b = GlfwButton(event->xbutton.button); b >= 0) {
        noted->push_back(
            {type, static_cast<unsigned>(b), static_cast<uint32_t>(event->xbutton.time)});
      }
    }
    return False;
  };
  XEvent unused;
  XCheckIfEvent(display, &unused, note, reinterpret_cast<XPointer>(&scanning));
}

std::optional<double> X11EventTimes::Take(int type, unsigned code, double now_s) {
  for (Noted& n : noted_) {
    if (n.taken || n.type != type || n.code != code) continue;
    n.taken = true;
    return ServerTimeToEventClock(n.time_ms, now_s);
  }
  return std::nullopt;
}

std::optional<double> X11EventTimes::TakeKey(bool press, int keycode, double now_s) {
  return Take(press ? KeyPress : KeyRelease, static_cast<unsigned>(keycode), now_s);
}

std::optional<double> X11EventTimes::TakeButton(bool press, int glfw_button, double now_s) {
  return Take(press ? ButtonPress : ButtonRelease, static_cast<unsigned>(glfw_button), now_s);
}

}  // namespace contactlab
