// The GUI's window: GLFW, an OpenGL 3.3 core context and Dear ImGui with its GLFW and OpenGL 3
// backends, set up together and torn down together (RAII: also when opening fails halfway).
// Input reaches the owner through WindowEvents, called from inside PollEvents by GLFW's
// callbacks, ours in front of Dear ImGui's, so that the owner sees every event (the keyboard
// device's keys, the panels' refresh) and Dear ImGui still gets them all. Keys and mouse
// buttons come stamped: input that must not depend on the frame rate (a key's hold, a
// double-click) is timed by the stamps (issue 35).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ui/view/click_timing.h"
#include "ui/x11_event_times.h"

struct GLFWwindow;

namespace contactlab {

struct WindowOptions {
  int width = 1280, height = 720;
  std::string title;
  bool visible = true;  // false: a hidden window (tests, screenshots)
  bool vsync = true;    // swap interval 1
  // Dear ImGui's window positions, loaded at the start ("": none; SaveImGuiSettings writes).
  std::string imgui_ini_path;
};

// When an input event happened, on the event clock (input/event_clock.h): the X server's time
// of it (ui/x11_event_times.h), or else when GLFW's callback ran; and the index of the
// PollEvents that delivered it (an event sent outside a poll, SendKey, counts to the next).
// GLFW runs the callbacks inside the poll, once a frame: a callback's time has the frame's
// resolution, the server's a millisecond's.
struct InputStamp {
  double t_s = 0;
  int64_t poll = 0;
  bool exact = false;  // t_s is the server's time of the event, not the callback's
};

struct WindowEvents {
  // Any event: key, character, mouse button, scroll, cursor motion or crossing, resize, focus,
  // drop.
  std::function<void()> on_input;
  // GLFW_KEY_*, GLFW_PRESS / REPEAT / RELEASE.
  std::function<void(int glfw_key, int action, InputStamp stamp)> on_key;
  // A mouse button's press or release, where the pointer was then (the last cursor position
  // GLFW reported before it) and with its stamp.
  std::function<void(const MouseButtonEvent& event)> on_mouse_button;
  std::function<void(std::vector<std::string> paths)> on_drop;  // files dropped on the window
};

class Window {
 public:
  // Opens the window and makes its context current. Throws GuiError: kNoDisplay without a
  // window system, kNoOpenGl without an OpenGL 3.3 core context or Dear ImGui's backends.
  Window(const WindowOptions& options, WindowEvents events);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Handles the pending events (the WindowEvents are called from here).
  void PollEvents();
  // The last PollEvents: its index (1 the first) and when it began on the event clock. Every
  // event before that time has been delivered.
  int64_t polls() const { return polls_; }
  double poll_start_s() const { return poll_start_s_; }
  // Starts Dear ImGui's frame: its backends read the mouse, the keys and the window's size.
  void BeginImGuiFrame();
  // Presents the frame drawn. Returns true when the window is to close (its close button).
  bool SwapBuffers();
  void FramebufferSize(int* width, int* height) const;
  void Size(int* width, int* height) const;
  void SetTitle(const std::string& title);
  void MakeContextCurrent();
  // Dear ImGui's window positions into `path`.
  void SaveImGuiSettings(const std::string& path) const;
  // A key event as GLFW delivers it, through the same callbacks (tests press keys as a person
  // does).
  void SendKey(int glfw_key, int action);
  // A mouse button event the same way (at the cursor position GLFW last reported).
  void SendMouseButton(int button, int action, int mods = 0);

 private:
  void Open(const WindowOptions& options);
  void InitImGui(const WindowOptions& options);
  // Ours in front of every Dear ImGui callback (installed before them).
  void WatchInput();
  void Close();
  static Window& Of(GLFWwindow* window);
  InputStamp Stamp() const;  // the callback's time; the server's is taken where it is known

  struct ImGuiCallbacks;  // Dear ImGui's, which ours call after their own work

  WindowEvents events_;
  std::unique_ptr<ImGuiCallbacks> imgui_callbacks_;
  GLFWwindow* window_ = nullptr;
  bool glfw_ready_ = false, imgui_context_ = false, imgui_glfw_ = false, imgui_gl_ = false;
  int64_t polls_ = 0;
  double poll_start_s_ = 0;
  bool polling_ = false;
  float cursor_x_ = 0, cursor_y_ = 0;  // from the cursor callback, in event order
  X11EventTimes x11_times_;            // the events of the poll under way
};

}  // namespace contactlab
