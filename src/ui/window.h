// The GUI's window: GLFW, an OpenGL 3.3 core context and Dear ImGui with its GLFW and OpenGL 3
// backends, set up together and torn down together (RAII: also when opening fails halfway).
// Input reaches the owner through WindowEvents, called from inside PollEvents by GLFW's
// callbacks, ours in front of Dear ImGui's, so that the owner sees every event (the keyboard
// device's keys, the panels' refresh) and Dear ImGui still gets them all.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

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

struct WindowEvents {
  // Any event: key, character, mouse button, scroll, cursor motion or crossing, resize, focus,
  // drop.
  std::function<void()> on_input;
  std::function<void(int glfw_key, int action)> on_key;         // GLFW_KEY_*, GLFW_PRESS / RELEASE
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

 private:
  void Open(const WindowOptions& options);
  void InitImGui(const WindowOptions& options);
  // Ours in front of every Dear ImGui callback (installed before them).
  void WatchInput();
  void Close();
  static Window& Of(GLFWwindow* window);

  struct ImGuiCallbacks;  // Dear ImGui's, which ours call after their own work

  WindowEvents events_;
  std::unique_ptr<ImGuiCallbacks> imgui_callbacks_;
  GLFWwindow* window_ = nullptr;
  bool glfw_ready_ = false, imgui_context_ = false, imgui_glfw_ = false, imgui_gl_ = false;
};

}  // namespace contactlab
