#include "ui/window.h"

// glad first: it must precede any other GL header (GLFW includes none).
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <optional>

#include "input/event_clock.h"
#include "render/gl_loader.h"
#include "ui/application.h"

namespace contactlab {

namespace {

// GLFW reports errors through a callback without a user pointer.
std::string& LastGlfwError() {
  static std::string error;
  return error;
}
void GlfwErrorCallback(int code, const char* description) {
  LastGlfwError() = description ? description : "unknown GLFW error";
  spdlog::debug("GLFW error {}: {}", code, LastGlfwError());
}

// No multisampled window: the scene is multisampled offscreen (render/scene_target.h), at a
// sample count the render quality can change.
void SetWindowHints(bool visible) {
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 0);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
}

}  // namespace

struct Window::ImGuiCallbacks {
  GLFWkeyfun key = nullptr;
  GLFWmousebuttonfun mouse_button = nullptr;
  GLFWscrollfun scroll = nullptr;
  GLFWcharfun character = nullptr;
  GLFWwindowfocusfun focus = nullptr;
  GLFWcursorenterfun cursor_enter = nullptr;
};

Window::Window(const WindowOptions& options, WindowEvents events)
    : events_(std::move(events)), imgui_callbacks_(std::make_unique<ImGuiCallbacks>()) {
  try {
    Open(options);
    InitImGui(options);
  } catch (...) {
    Close();  // the destructor does not run for a constructor that throws
    throw;
  }
}

Window::~Window() { Close(); }

Window& Window::Of(GLFWwindow* window) {
  return *static_cast<Window*>(glfwGetWindowUserPointer(window));
}

void Window::Open(const WindowOptions& options) {
  LastGlfwError().clear();
  glfwSetErrorCallback(GlfwErrorCallback);
  if (!glfwInit()) {
    const char* display = std::getenv("DISPLAY");
    std::string message = "cannot open a window: " +
                          (LastGlfwError().empty() ? std::string("no display") : LastGlfwError());
    if (display == nullptr || display[0] == '\0') {
      message += " (no display: run under xvfb-run -a, or use --headless)";
    }
    throw GuiError(GuiError::Kind::kNoDisplay, message);
  }
  glfwSetErrorCallback(GlfwErrorCallback);
  glfw_ready_ = true;
  SetWindowHints(options.visible);
  window_ =
      glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (!window_) {
    throw GuiError(GuiError::Kind::kNoOpenGl,
                   "cannot create an OpenGL 3.3 core window: " + LastGlfwError());
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(options.vsync ? 1 : 0);
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, [](GLFWwindow* w, int count, const char** paths) {
    Window& self = Of(w);
    if (self.events_.on_input) self.events_.on_input();
    if (self.events_.on_drop) self.events_.on_drop(std::vector<std::string>(paths, paths + count));
  });
  if (!LoadGl(reinterpret_cast<GlProcLoader>(glfwGetProcAddress))) {
    throw GuiError(GuiError::Kind::kNoOpenGl, "OpenGL 3.3 core is not available");
  }
  spdlog::debug("OpenGL {} ({})", reinterpret_cast<const char*>(glGetString(GL_VERSION)),
                reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
}

void Window::InitImGui(const WindowOptions& options) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imgui_context_ = true;
  ImGuiIO& io = ImGui::GetIO();
  // The sidebar and plots are laid out every frame; other windows' positions (Inspect) persist
  // with the GUI's settings, in their directory, loaded here and saved with them.
  io.IniFilename = nullptr;
  if (!options.imgui_ini_path.empty()) {
    ImGui::LoadIniSettingsFromDisk(options.imgui_ini_path.c_str());
  }
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 3.0f;
  style.FrameRounding = 2.0f;
  style.GrabRounding = 2.0f;
  imgui_glfw_ = ImGui_ImplGlfw_InitForOpenGL(window_, true);
  WatchInput();
  imgui_gl_ = ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!imgui_glfw_ || !imgui_gl_) {
    throw GuiError(GuiError::Kind::kNoOpenGl,
                   "cannot initialise Dear ImGui's GLFW/OpenGL backends");
  }
}

void Window::WatchInput() {
  double x = 0, y = 0;
  glfwGetCursorPos(window_, &x, &y);  // until the first cursor event
  cursor_x_ = static_cast<float>(x);
  cursor_y_ = static_cast<float>(y);
  ImGuiCallbacks& chained = *imgui_callbacks_;
  chained.key =
      glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
        Window& self = Of(w);
        if (self.events_.on_key) {
          InputStamp stamp = self.Stamp();
          if (const std::optional<double> t =
                  self.x11_times_.TakeKey(action != GLFW_RELEASE, scancode, stamp.t_s)) {
            stamp = {*t, stamp.poll, true};
          }
          self.events_.on_key(key, action, stamp);
        }
        if (self.events_.on_input) self.events_.on_input();
        if (self.imgui_callbacks_->key) self.imgui_callbacks_->key(w, key, scancode, action, mods);
      });
  chained.mouse_button =
      glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int mods) {
        Window& self = Of(w);
        if (self.events_.on_mouse_button) {
          InputStamp stamp = self.Stamp();
          if (const std::optional<double> t =
                  self.x11_times_.TakeButton(action == GLFW_PRESS, button, stamp.t_s)) {
            stamp = {*t, stamp.poll, true};
          }
          self.events_.on_mouse_button({button, action == GLFW_PRESS, self.cursor_x_,
                                        self.cursor_y_, (mods & GLFW_MOD_CONTROL) != 0, stamp.t_s,
                                        stamp.poll, stamp.exact});
        }
        if (self.events_.on_input) self.events_.on_input();
        if (self.imgui_callbacks_->mouse_button) {
          self.imgui_callbacks_->mouse_button(w, button, action, mods);
        }
      });
  chained.scroll = glfwSetScrollCallback(window_, [](GLFWwindow* w, double dx, double dy) {
    Window& self = Of(w);
    if (self.events_.on_input) self.events_.on_input();
    if (self.imgui_callbacks_->scroll) self.imgui_callbacks_->scroll(w, dx, dy);
  });
  chained.character = glfwSetCharCallback(window_, [](GLFWwindow* w, unsigned int c) {
    Window& self = Of(w);
    if (self.events_.on_input) self.events_.on_input();
    if (self.imgui_callbacks_->character) self.imgui_callbacks_->character(w, c);
  });
  chained.focus = glfwSetWindowFocusCallback(window_, [](GLFWwindow* w, int focused) {
    Window& self = Of(w);
    if (self.events_.on_input) self.events_.on_input();
    if (self.imgui_callbacks_->focus) self.imgui_callbacks_->focus(w, focused);
  });
  chained.cursor_enter = glfwSetCursorEnterCallback(window_, [](GLFWwindow* w, int entered) {
    Window& self = Of(w);
    if (self.events_.on_input) self.events_.on_input();
    if (self.imgui_callbacks_->cursor_enter) self.imgui_callbacks_->cursor_enter(w, entered);
  });
  // Dear ImGui 1.86 reads the cursor and the window's size itself each frame: no callbacks of
  // its own to call.
  glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double x, double y) {
    Window& self = Of(w);
    self.cursor_x_ = static_cast<float>(x);
    self.cursor_y_ = static_cast<float>(y);
    if (self.events_.on_input) self.events_.on_input();
  });
  glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int, int) {
    if (Of(w).events_.on_input) Of(w).events_.on_input();
  });
}

void Window::Close() {
  if (imgui_gl_) ImGui_ImplOpenGL3_Shutdown();
  if (imgui_glfw_) ImGui_ImplGlfw_Shutdown();
  if (imgui_context_) ImGui::DestroyContext();
  if (window_) glfwDestroyWindow(window_);
  if (glfw_ready_) glfwTerminate();
  imgui_gl_ = imgui_glfw_ = imgui_context_ = glfw_ready_ = false;
  window_ = nullptr;
}

void Window::PollEvents() {
  poll_start_s_ = SteadyClockSeconds();
  ++polls_;
  x11_times_.Scan(window_);
  polling_ = true;
  glfwPollEvents();
  polling_ = false;
}

InputStamp Window::Stamp() const { return {SteadyClockSeconds(), polling_ ? polls_ : polls_ + 1}; }

void Window::BeginImGuiFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

bool Window::SwapBuffers() {
  glfwSwapBuffers(window_);
  return glfwWindowShouldClose(window_);
}

void Window::FramebufferSize(int* width, int* height) const {
  glfwGetFramebufferSize(window_, width, height);
}

void Window::Size(int* width, int* height) const { glfwGetWindowSize(window_, width, height); }

void Window::SetTitle(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

void Window::MakeContextCurrent() { glfwMakeContextCurrent(window_); }

void Window::SaveImGuiSettings(const std::string& path) const {
  ImGui::SaveIniSettingsToDisk(path.c_str());
}

void Window::SendKey(int glfw_key, int action) {
  x11_times_ = {};  // not a queued event: the callback's time
  // GLFW has no getter for the installed callback (ours, which chains Dear ImGui's): take it out
  // and put it back.
  const GLFWkeyfun callback = glfwSetKeyCallback(window_, nullptr);
  glfwSetKeyCallback(window_, callback);
  if (callback) callback(window_, glfw_key, glfwGetKeyScancode(glfw_key), action, 0);
}

void Window::SendMouseButton(int button, int action, int mods) {
  x11_times_ = {};
  const GLFWmousebuttonfun callback = glfwSetMouseButtonCallback(window_, nullptr);
  glfwSetMouseButtonCallback(window_, callback);
  if (callback) callback(window_, button, action, mods);
}

}  // namespace contactlab
