#include "ui/application.h"

// glad first: it must precede any other GL header (GLFW includes none).
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <spdlog/spdlog.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <filesystem>
#include <thread>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "app/runtime/thread_priority.h"
#include "io/asset_directory.h"
#include "io/dropped_file.h"
#include "io/scene_loader.h"
#include "render/camera.h"
#include "render/gl_loader.h"
#include "render/layer_texture.h"
#include "render/png_writer.h"
#include "render/render_error.h"
#include "render/renderer.h"
#include "render/shader_directory.h"
#include "render/view_projection.h"
#include "ui/gamepad_feed.h"
#include "ui/panel_refresh.h"
#include "ui/panels/contact_panel.h"
#include "ui/panels/exports.h"
#include "ui/panels/inspect_panels.h"
#include "ui/panels/panels.h"
#include "ui/panels/shortcuts.h"
#include "ui/panels/teleop_panel.h"
#include "ui/state/actions.h"
#include "ui/state/frame_timer.h"
#include "ui/state/gui_settings.h"
#include "ui/state/key_events.h"
#include "ui/state/ui_state.h"
#include "ui/view/alignment_hud.h"
#include "ui/view/body_picker.h"
#include "ui/view/camera_controller.h"
#include "ui/view/camera_views.h"
#include "ui/view/contact_picking.h"
#include "ui/widgets/plot_data.h"

namespace contactlab {

namespace {

using Clock = std::chrono::steady_clock;

// GLFW reports errors through a callback without a user pointer.
std::string& LastGlfwError() {
  static std::string error;
  return error;
}
void GlfwErrorCallback(int code, const char* description) {
  LastGlfwError() = description ? description : "unknown GLFW error";
  spdlog::debug("GLFW error {}: {}", code, LastGlfwError());
}

// Rows the plots keep (PlotData's ring; the plot window scrolls back through them while
// paused): roughly 30 s of samples at δt = 1 ms. Not SimRuntime::kPlotCapacity, the smaller
// ring that only carries samples from the sim thread to this one between two frames.
constexpr size_t kPlotHistorySamples = 30000;
// Screenshot mode: the simulated time each frame shows, at real-time factor 1.
constexpr double kScreenshotFramePeriod_s = 1.0 / 60.0;
// Stepped frames and screenshots: a sim thread that takes no step for this long has stalled.
constexpr double kStallLimit_s = 120.0;

// The sim step frame k (1-based) of a stepped run shows: whole steps, rounded down.
uint64_t StepsAfterFrames(int k, double steps_per_frame) {
  return static_cast<uint64_t>(std::floor(k * steps_per_frame + 1e-9));
}

// Raises the calling thread's nice value by `increment` (Linux: nice is per thread, and threads
// created afterwards inherit it). Lowering one's own priority needs no privilege; raising it
// back would, so this happens once per process (a second Application in the same process, as in
// the tests, finds its main thread already lowered; its sim thread then shares that priority).
void LowerCallingThreadPriority(int increment) {
  static bool lowered = false;
  if (increment <= 0 || lowered) return;
  lowered = true;
  if (!LowerThisThreadsPriority(increment)) {
    spdlog::debug("could not lower the render thread's priority");
  }
}

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Polls until done() holds; false once position() (a step index) has not advanced for
// kStallLimit_s. A stall, not slowness, is the failure: on a loaded machine a thread at a lower
// priority takes a while, but each step it takes restarts the clock.
template <typename Done, typename Position>
bool WaitWithoutStall(Done done, Position position) {
  auto reached = position();
  Clock::time_point progress = Clock::now();
  while (!done()) {
    if (const auto now = position(); now != reached) {
      reached = now;
      progress = Clock::now();
    } else if (Seconds(Clock::now() - progress) > kStallLimit_s) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// CPU time of the calling thread [ms].
double ThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

}  // namespace

std::vector<std::string> BuiltinSceneNames() {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  std::error_code ec;
  const fs::path dir = fs::path(AssetDirectory()) / "scenes";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".yaml") names.push_back(it->path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

struct Application::Impl {
  ApplicationOptions options;
  GLFWwindow* window = nullptr;
  bool glfw_ready = false, imgui_context = false, imgui_glfw = false, imgui_gl = false;
  std::unique_ptr<SimRuntime> runtime;
  std::unique_ptr<Renderer> renderer;
  std::unique_ptr<LayerTexture> panel_layer;  // the panels between their refreshes
  std::string render_error;

  UiState ui;
  PlotData plots{PlotSeriesNames(), kPlotHistorySamples};
  std::vector<PlotSample> samples;
  FrameTimer timer;
  uint64_t scene_generation = UINT64_MAX;
  std::optional<SceneDefaults> pending_defaults;  // of a scene posted with LoadScene
  std::string pending_scene_name;
  bool quit = false;
  bool started = false;        // a run (Run, RunFrames, RunFor, Screenshot) has begun
  bool frame_next = false;     // aim the camera at the scene at the next frame
  bool pace = true;            // cap the frame rate (options.max_fps); off for screenshots
  double swap_ms_average = 0;  // does the swap wait for the display (vsync)?
  double last_work_cpu_ms = 0;
  uint64_t plot_run = 0;  // samples of earlier runs (scenes) are not plotted
  double last_work_ms = 0;
  bool pending_plot_png = false;    // read the chosen plot back after this frame is drawn
  bool pending_screenshot = false;  // F12: save this frame once it is drawn
  KeyEventQueue key_events;         // this frame's, for the keyboard device
  GLFWkeyfun imgui_key_callback = nullptr;
  // Dear ImGui's other callbacks, called from ours (which tell panel_refresh of the input).
  GLFWmousebuttonfun imgui_mouse_button_callback = nullptr;
  GLFWscrollfun imgui_scroll_callback = nullptr;
  GLFWcharfun imgui_char_callback = nullptr;
  GLFWwindowfocusfun imgui_focus_callback = nullptr;
  GLFWcursorenterfun imgui_cursor_enter_callback = nullptr;
  PanelRefresh panel_refresh;
  bool panels_layered = false;  // the last frame's panels were blended from panel_layer
  int last_fb_w = 0, last_fb_h = 0;
  float frame_period_s = 0;  // start to start (the camera's easing)

  // Visual debugging: picking, the mouse spring, the ghost's difference plots.
  InspectState inspect;
  BodyPicker picker;
  Eigen::Matrix4f last_view_projection = Eigen::Matrix4f::Identity();  // of the last frame drawn
  std::optional<PointerInput> synthetic_pointer;
  bool left_was_down = false;
  struct Drag {
    int body = -1;  // −1: not dragging
    Eigen::Vector3d p_BoQ_B, plane_p_W, plane_n_W;
  } drag;
  std::deque<PlotSample> main_samples;  // awaiting the ghost's samples of the same steps
  std::vector<GhostSample> ghost_samples;
  std::shared_ptr<const Snapshot> ghost;  // the ghost's newest snapshot this frame

  // The Impl a GLFW callback is for (the window's user pointer).
  static Impl& Of(GLFWwindow* w) { return *static_cast<Impl*>(glfwGetWindowUserPointer(w)); }

  // Set while RunSteppedFrames drives the sim (paused, stepped by the application): the frames'
  // clock, read instead of the wall clock.
  std::optional<Clock::time_point> frame_clock;

  // The sim thread exists (paused) from construction on; the first run lets it go, and so does
  // a free-running run after stepped ones.
  void EnsureStarted() {
    if (!started || frame_clock) runtime->Post(command::Resume{});
    started = true;
    if (frame_clock) last_frame_start.reset();  // a period across clocks means nothing
    frame_clock.reset();
  }
  // From free running to stepping: pauses the sim thread and waits until the pause shows.
  void EnterStepping();
  // Posts single steps until the sim thread has published step `step` (it is paused). Returns
  // early when the sim reports an error (then shown in the banner); throws when no step came
  // for kStallLimit_s.
  void StepSimTo(uint64_t step);

  explicit Impl(const ApplicationOptions& o);
  ~Impl();
  std::string imgui_ini_path;             // Dear ImGui's window positions ("" without settings)
  std::optional<Camera> restored_camera;  // from the settings, for the first scene shown
  void RestoreSettings();
  void SaveSettings() const;
  void OpenWindow();
  // Tells panel_refresh of every input event, in front of Dear ImGui's callbacks.
  void WatchInput();
  void BuildRenderer();
  void AddError(const std::string& message);
  // One frame of the main loop; with `capture`, the framebuffer of the frame (before the swap)
  // is read into *pixels.
  // One frame of the render loop: the stages below, in order.
  void Frame(std::vector<uint8_t>* capture, int* capture_w, int* capture_h);
  // The sim thread's errors, plot samples and newest snapshot.
  std::shared_ptr<const Snapshot> TakeSimOutput();
  // Whether the render quality slows the panels and the layer to hold them is there.
  bool PanelsLayered() const {
    return panel_layer && renderer && ui.render_quality.quality().panel_refresh_hz > 0;
  }
  // Whether this frame builds the panels (ui/panel_refresh.h).
  bool BuildPanelsThisFrame(Clock::time_point frame_start, bool capture);
  // Keys and mouse (camera), the panels, and the actions they ask for.
  void HandleInputAndPanels(const Snapshot& snapshot);
  // The camera for this frame: framing, following, shifted into the area the panels leave.
  Camera ViewCamera(const Snapshot& snapshot);
  // The scene and the panels into the framebuffer (and into *capture when asked); the panels as
  // built this frame, or as drawn into panel_layer at their last build.
  void Draw(const Snapshot& snapshot, const Camera& view, bool panels_built,
            std::vector<uint8_t>* capture, int* capture_w, int* capture_h);
  void DrawPanels(bool built, int fb_w, int fb_h);
  // Swaps, then sleeps out the rest of the frame when no display paces the loop.
  void SwapAndPace(Clock::time_point work_start, double cpu_start_ms);
  void AdaptRenderQuality(Clock::time_point frame_start);
  std::optional<Clock::time_point> last_frame_start;
  void OnNewScene(const Snapshot& snapshot);
  // The plot the PNG button chose, from the framebuffer just drawn (exports.h).
  void ExportShownPlot(int fb_w, int fb_h);
  void SaveScreenshot(int fb_w, int fb_h);
  // The part of the view's height the panels leave for the scene (for framing).
  float FreeViewFraction() const;
  void Execute(UiActions& actions, const Snapshot& snapshot);
  void LoadScene(const std::string& name_or_path);
  void LoadScene(SceneSpec scene, const std::string& name);  // shown as `name` in the picker
  void DropFiles(const std::vector<std::string>& paths);
  PointerInput ReadPointer();
  // Double-click selects, Ctrl+drag pulls; true while a drag holds the mouse.
  bool HandlePicking(const PointerInput& pointer, const Snapshot& snapshot);
  void AppendGhostDifferences();
  // Screenshots: until the ghost has caught up with main step `step` (or took no step for
  // kStallLimit_s).
  void WaitForGhost(uint64_t step);
  FrameStats Stats(int frames, Clock::time_point start, uint64_t start_step, double work_ms_sum,
                   double max_frame_ms) const;
};

Application::Impl::Impl(const ApplicationOptions& o) : options(o) {
  if (options.shader_dir.empty()) options.shader_dir = ShaderDirectory();
  // The sim first: an invalid scene fails before a window appears.
  runtime = std::make_unique<SimRuntime>(options.scene, options.realtime_factor);
  ui.builtin_scenes = BuiltinSceneNames();
  ui.current_scene = options.scene_name.empty() ? options.scene.name : options.scene_name;
  ui.target_realtime_factor =
      options.realtime_factor > 0 ? static_cast<float>(options.realtime_factor) : 1.0f;
  ui.as_fast_as_possible = options.realtime_factor <= 0;
  ui.render_quality = AutoQuality(options.msaa_samples, options.auto_quality);
  if (options.quality_level >= 0) ui.render_quality.SetLevel(options.quality_level);
  pending_defaults = ComputeSceneDefaults(
      options.scene_defaults.bodies.empty() ? options.scene : options.scene_defaults);
  pending_scene_name = ui.current_scene;
  ApplyCameraPreset(CameraPreset::kIso, &ui.camera);
  ui.layers.contact_colors = options.contact_colors;

  // The sim thread is created before the window and the GL context, at normal priority; the
  // main thread then lowers its own, so that the threads the GL driver creates with the context
  // (llvmpipe's rasterizer threads when rendering in software) inherit the lower priority. On a
  // machine with few cores the sim thread then keeps its real-time pace and the frame rate
  // gives way instead (issue 3: the sim must not slow down because a window is open).
  {
    // Teleoperation input (used by scenes with a robot arm): the GUI default is the space mouse
    // merged with the keyboard, so that the keyboard works with or without a space mouse.
    std::string error;
    auto recorder = std::make_unique<Recorder>();
    if (!options.record_path.empty() && !recorder->Open(options.record_path, &error)) {
      throw GuiError(GuiError::Kind::kBadInput, error);
    }
    InputDevices devices;
    if (!CreateInputDevices(options.input, &devices, &error)) {
      throw GuiError(GuiError::Kind::kBadInput, error);
    }
    runtime->SetInputDevices(std::move(devices));
    if (recorder->is_open()) runtime->SetRecorder(std::move(recorder));
  }
  runtime->Post(command::Pause{});
  if (options.ghost) {
    command::StartGhost ghost;
    ghost.overrides.approximation = *options.ghost;
    ghost.label = ContactApproximationName(*options.ghost);
    runtime->Post(std::move(ghost));
  }
  runtime->Start();
  LowerCallingThreadPriority(options.render_thread_nice);

  RestoreSettings();
  OpenWindow();
  BuildRenderer();
}

void Application::Impl::RestoreSettings() {
  if (options.settings_dir.empty()) return;
  GuiSettings defaults;
  defaults.layers = ui.layers;
  defaults.show_panels = ui.show_panels;
  const GuiSettings saved = LoadGuiSettings(options.settings_dir, defaults);
  ui.layers = saved.layers;
  ui.show_panels = saved.show_panels;
  if (saved.camera && saved.scene == ui.current_scene) restored_camera = saved.camera;
  if (options.window_size_from_settings && saved.width >= 64 && saved.height >= 64) {
    options.width = saved.width;
    options.height = saved.height;
  }
  imgui_ini_path = (std::filesystem::path(options.settings_dir) / "imgui.ini").string();
}

void Application::Impl::SaveSettings() const {
  if (options.settings_dir.empty() || window == nullptr) return;
  GuiSettings s;
  glfwGetWindowSize(window, &s.width, &s.height);
  s.show_panels = ui.show_panels;
  s.layers = ui.layers;
  s.scene = ui.current_scene;
  s.camera = ui.camera;
  SaveGuiSettings(options.settings_dir, s);
  if (imgui_context) ImGui::SaveIniSettingsToDisk(imgui_ini_path.c_str());
}

Application::Impl::~Impl() {
  SaveSettings();
  if (runtime) runtime->Stop();
  runtime.reset();
  if (window) glfwMakeContextCurrent(window);
  renderer.reset();  // GL objects go while the context is current
  panel_layer.reset();
  if (imgui_gl) ImGui_ImplOpenGL3_Shutdown();
  if (imgui_glfw) ImGui_ImplGlfw_Shutdown();
  if (imgui_context) ImGui::DestroyContext();
  if (window) glfwDestroyWindow(window);
  if (glfw_ready) glfwTerminate();
}

void Application::Impl::OpenWindow() {
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
  glfw_ready = true;
  // No multisampled window: the scene is multisampled offscreen (render/scene_target.h), at a
  // sample count the render quality can change.
  auto hints = [&] {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, 0);
    glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  };
  hints();
  const std::string title = "contactlab - " + ui.current_scene;
  window = glfwCreateWindow(options.width, options.height, title.c_str(), nullptr, nullptr);
  if (!window) {
    throw GuiError(GuiError::Kind::kNoOpenGl,
                   "cannot create an OpenGL 3.3 core window: " + LastGlfwError());
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(options.vsync ? 1 : 0);
  glfwSetWindowUserPointer(window, this);
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    Impl& impl = Of(w);
    impl.panel_refresh.OnInput();
    impl.DropFiles(std::vector<std::string>(paths, paths + count));
  });
  if (!LoadGl(reinterpret_cast<GlProcLoader>(glfwGetProcAddress))) {
    throw GuiError(GuiError::Kind::kNoOpenGl, "OpenGL 3.3 core is not available");
  }
  spdlog::debug("OpenGL {} ({})", reinterpret_cast<const char*>(glGetString(GL_VERSION)),
                reinterpret_cast<const char*>(glGetString(GL_RENDERER)));

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imgui_context = true;
  ImGuiIO& io = ImGui::GetIO();
  // The sidebar and plots are laid out every frame; other windows' positions (Inspect) persist
  // with the settings, in our own directory, loaded here and saved with them (SaveSettings).
  io.IniFilename = nullptr;
  if (!imgui_ini_path.empty()) ImGui::LoadIniSettingsFromDisk(imgui_ini_path.c_str());
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 3.0f;
  style.FrameRounding = 2.0f;
  style.GrabRounding = 2.0f;
  imgui_glfw = ImGui_ImplGlfw_InitForOpenGL(window, true);
  // Ours in front of Dear ImGui's key callback: every event is queued for the keyboard device.
  imgui_key_callback =
      glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
        Impl& impl = Of(w);
        impl.key_events.Push(key, action);
        impl.panel_refresh.OnInput();
        if (impl.imgui_key_callback) impl.imgui_key_callback(w, key, scancode, action, mods);
      });
  WatchInput();
  imgui_gl = ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!imgui_glfw || !imgui_gl) {
    throw GuiError(GuiError::Kind::kNoOpenGl,
                   "cannot initialise Dear ImGui's GLFW/OpenGL backends");
  }
}

void Application::Impl::BuildRenderer() {
  try {
    auto r = std::make_unique<Renderer>(options.shader_dir);
    auto layer = std::make_unique<LayerTexture>(options.shader_dir);
    renderer = std::move(r);
    panel_layer = std::move(layer);
    render_error.clear();
  } catch (const std::exception& e) {
    // Keep the last good renderer (if any) and show the message.
    render_error = e.what();
    AddError(std::string("renderer: ") + e.what());
  }
}

void Application::Impl::AddError(const std::string& message) {
  if (!ui.errors.empty() && ui.errors.back() == message) return;
  spdlog::warn("{}", message);
  ui.errors.push_back(message);
  if (ui.errors.size() > 50) ui.errors.erase(ui.errors.begin());
}

void Application::Impl::OnNewScene(const Snapshot& snapshot) {
  scene_generation = snapshot.scene_generation;
  if (pending_defaults) {
    ui.defaults = *pending_defaults;
    ui.current_scene = pending_scene_name;
    pending_defaults.reset();
  } else if (snapshot.scene) {
    ui.defaults = ComputeSceneDefaults(*snapshot.scene);
  }
  ui.posted_settings.reset();
  Unpin(&ui.contacts.pinned);       // body indices of another scene
  TrackConvergence(snapshot, &ui);  // a new scene is a new run
  plot_run = snapshot.run;
  plots.Clear();
  if (snapshot.scene) {
    ui.plot_body = DefaultPlotBody(*snapshot.scene);
    runtime->Post(command::SelectPlotBody{ui.plot_body});
  }
  if (ui.camera.follow_body >= 0) ui.camera.follow_body = ui.plot_body;
  if (snapshot.scene) ui.views = DefaultCameraViews(*snapshot.scene, options.camera);
  if (restored_camera) {  // the first scene, as the user last looked at it
    ui.camera = *restored_camera;
    ui.auto_frame = false;
    restored_camera.reset();
  } else {
    FrameScene(snapshot, FreeViewFraction(), &ui.camera);
    ui.auto_frame = true;
  }
  if (window) glfwSetWindowTitle(window, ("contactlab - " + ui.current_scene).c_str());
}

float Application::Impl::FreeViewFraction() const {
  int w = options.width, h = options.height;
  if (window) glfwGetWindowSize(window, &w, &h);
  if (w <= 0 || h <= 0) return 1.0f;
  const PanelLayout l =
      ComputePanelLayout(static_cast<float>(w), static_cast<float>(h), ui.show_panels);
  return std::min((h - l.plots_h) / h, (w - l.sidebar_w) / h);
}

void Application::Impl::LoadScene(const std::string& name_or_path) {
  try {
    LoadScene(LoadSceneFile(ResolveScenePath(name_or_path)), name_or_path);
  } catch (const std::exception& e) {
    AddError(e.what());  // the current scene stays
  }
}

void Application::Impl::LoadScene(SceneSpec scene, const std::string& name) {
  pending_defaults = ComputeSceneDefaults(scene);
  pending_scene_name = name;
  runtime->Post(command::LoadScene{std::move(scene)});
  ui.status = "loading " + name;
}

void Application::Impl::DropFiles(const std::vector<std::string>& paths) {
  if (paths.empty()) return;
  try {
    LoadScene(LoadDroppedFile(paths.front()), paths.front());
  } catch (const std::exception& e) {
    AddError(e.what());  // the current scene stays
  }
}

void Application::Impl::Execute(UiActions& actions, const Snapshot& snapshot) {
  for (Command& c : actions.commands) runtime->Post(std::move(c));
  if (actions.load_scene) LoadScene(*actions.load_scene);
  if (actions.export_csv) {
    const double t1 = ui.plot_window.End(plots), t0 = t1 - ui.plot_window.span_s;
    try {
      WritePlotCsv(ui.csv_path, plots, t0, t1);
      const auto [first, last] = plots.Range(t0, t1);
      ui.status = "wrote " + std::to_string(last - first) + " rows to " + ui.csv_path;
      spdlog::info("{}", ui.status);
    } catch (const std::exception& e) {
      AddError(e.what());
    }
  }
  if (actions.export_contacts) {
    const std::string error = ExportContacts(snapshot, &ui.contacts);
    if (error.empty()) {
      ui.status = ui.contacts.export_message;
    } else {
      AddError(error);
    }
  }
  pending_plot_png = actions.export_plot_png;
  pending_screenshot = actions.save_screenshot;
  if (actions.reload_shaders) {
    BuildRenderer();
    if (render_error.empty()) ui.status = "shaders reloaded";
  }
  if (actions.camera_preset) ApplyCameraPreset(*actions.camera_preset, &ui.camera);
  if (actions.camera_preset || actions.frame_scene) ui.views.main = -1;  // the free camera's
  if (actions.frame_scene) {
    ui.camera.follow_body = -1;
    FrameScene(snapshot, FreeViewFraction(), &ui.camera);
  }
  if (actions.quit) quit = true;
}

void Application::Impl::Frame(std::vector<uint8_t>* capture, int* capture_w, int* capture_h) {
  timer.BeginFrame();
  const Clock::time_point work_start = Clock::now();
  const double cpu_start_ms = ThreadCpuMs();
  const Clock::time_point frame_start = frame_clock.value_or(work_start);
  AdaptRenderQuality(frame_start);
  glfwPollEvents();
  const std::shared_ptr<const Snapshot> snapshot = TakeSimOutput();
  const bool build_panels = BuildPanelsThisFrame(frame_start, capture != nullptr);
  if (build_panels) {
    HandleInputAndPanels(*snapshot);
  } else {
    FeedGamepad(runtime->gamepad().get());  // a device, not an event: read every frame
  }
  const Camera view = ViewCamera(*snapshot);
  if (build_panels) InspectContacts(*snapshot, view, &ui);
  Draw(*snapshot, view, build_panels, capture, capture_w, capture_h);
  SwapAndPace(work_start, cpu_start_ms);
}

std::shared_ptr<const Snapshot> Application::Impl::TakeSimOutput() {
  for (std::string& e : runtime->TakeErrors()) AddError(e);
  // Samples first, then the snapshot: it is at least as new as every sample drained.
  runtime->DrainPlotSamples(&samples);
  std::shared_ptr<const Snapshot> snapshot = runtime->Latest();
  if (snapshot->scene_generation != scene_generation) OnNewScene(*snapshot);
  for (const PlotSample& s : samples) {
    if (s.run < plot_run) continue;  // the scene before the one shown
    const double row[kNumPlotSeries] = {s.normal_force_N,
                                        s.friction_force_N,
                                        s.slip_speed_m_per_s,
                                        s.signed_distance_m,
                                        static_cast<double>(s.iterations),
                                        s.step_ms,
                                        s.grip_force_N};
    plots.Append(s.time_s, row);
    if (snapshot->ghost.active) main_samples.push_back(s);
  }
  CountConvergence(samples, &ui);
  samples.clear();
  ghost = runtime->LatestGhost();
  AppendGhostDifferences();
  if (frame_next) {
    FrameScene(*snapshot, FreeViewFraction(), &ui.camera);
    frame_next = false;
  }
  return snapshot;
}

// Every frame unless the render quality slows the panels (ui/panel_refresh.h); then also when
// the layer holds no drawing of this frame's size or the last frame drew them directly, while
// the mouse holds a button (drags), with a synthetic pointer (tests) and for a captured frame.
bool Application::Impl::BuildPanelsThisFrame(Clock::time_point frame_start, bool capture) {
  const bool layered = PanelsLayered();
  const bool must = !layered || !panels_layered || !panel_layer->Holds(last_fb_w, last_fb_h) ||
                    capture || synthetic_pointer.has_value() || ImGui::IsAnyMouseDown();
  const double now_s = Seconds(frame_start.time_since_epoch());
  return panel_refresh.BuildThisFrame(now_s, ui.render_quality.quality().panel_refresh_hz, must);
}

void Application::Impl::WatchInput() {
  imgui_mouse_button_callback =
      glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int mods) {
        Impl& impl = Of(w);
        impl.panel_refresh.OnInput();
        if (impl.imgui_mouse_button_callback) {
          impl.imgui_mouse_button_callback(w, button, action, mods);
        }
      });
  imgui_scroll_callback = glfwSetScrollCallback(window, [](GLFWwindow* w, double dx, double dy) {
    Impl& impl = Of(w);
    impl.panel_refresh.OnInput();
    if (impl.imgui_scroll_callback) impl.imgui_scroll_callback(w, dx, dy);
  });
  imgui_char_callback = glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int c) {
    Impl& impl = Of(w);
    impl.panel_refresh.OnInput();
    if (impl.imgui_char_callback) impl.imgui_char_callback(w, c);
  });
  imgui_focus_callback = glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int focused) {
    Impl& impl = Of(w);
    impl.panel_refresh.OnInput();
    if (impl.imgui_focus_callback) impl.imgui_focus_callback(w, focused);
  });
  imgui_cursor_enter_callback = glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int entered) {
    Impl& impl = Of(w);
    impl.panel_refresh.OnInput();
    if (impl.imgui_cursor_enter_callback) impl.imgui_cursor_enter_callback(w, entered);
  });
  // Dear ImGui 1.86 reads the cursor and the window's size itself each frame: no callbacks of
  // its own to call.
  glfwSetCursorPosCallback(window,
                           [](GLFWwindow* w, double, double) { Of(w).panel_refresh.OnInput(); });
  glfwSetFramebufferSizeCallback(window,
                                 [](GLFWwindow* w, int, int) { Of(w).panel_refresh.OnInput(); });
}

void Application::Impl::HandleInputAndPanels(const Snapshot& snapshot) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  const ImGuiIO& io = ImGui::GetIO();

  UiActions actions;
  HandleShortcuts(snapshot, &ui, &actions);
  FeedTeleopKeys(snapshot.teleop.active, key_events.events(), runtime->keyboard().get());
  key_events.Clear();
  FeedGamepad(runtime->gamepad().get());
  const PointerInput pointer = ReadPointer();
  const bool dragging = HandlePicking(pointer, snapshot);
  if (!io.WantCaptureMouse && !dragging) {
    MouseInput mouse;
    mouse.dx = io.MouseDelta.x;
    mouse.dy = io.MouseDelta.y;
    mouse.left = io.MouseDown[0];
    mouse.right = io.MouseDown[1];
    mouse.middle = io.MouseDown[2];
    mouse.wheel = io.MouseWheel;
    const bool moved = mouse.wheel != 0 || ((mouse.left || mouse.right || mouse.middle) &&
                                            (mouse.dx != 0 || mouse.dy != 0));
    if (moved) ui.auto_frame = false;   // the user has taken the camera
    if (moved && ui.views.main >= 0) {  // from a scene camera's view on, as the free camera
      ui.camera = OrbitFrom(ViewCamera(snapshot));
      ui.views.main = -1;
    }
    ApplyMouse(mouse, static_cast<int>(io.DisplaySize.x), static_cast<int>(io.DisplaySize.y),
               &ui.camera);
  }
  ui.frame_stats = timer.stats();
  DrawUi(snapshot, plots, io.DisplaySize.x, io.DisplaySize.y, &ui, &actions);
  AlignmentHud(
      snapshot, ui.layers.alignment,
      ComputePanelLayout(io.DisplaySize.x, io.DisplaySize.y, ui.show_panels).sidebar_w + 10.0f,
      10.0f);
  if (ui.show_panels) {
    // Top right, folded until the user opens it (the scene stays in view).
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 410, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(400, 0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
    if (ImGui::Begin("Inspect")) {
      if (ImGui::CollapsingHeader("Selected body", ImGuiTreeNodeFlags_DefaultOpen)) {
        SelectedBodyPanel(snapshot, inspect);
      }
      if (ImGui::CollapsingHeader("Timeline", ImGuiTreeNodeFlags_DefaultOpen)) {
        TimelinePanel(snapshot, &actions);
      }
      if (ImGui::CollapsingHeader("Ghost", ImGuiTreeNodeFlags_DefaultOpen)) {
        GhostPanel(snapshot, &inspect, &actions);
      }
    }
    ImGui::End();
  }
  Execute(actions, snapshot);
}

Camera Application::Impl::ViewCamera(const Snapshot& snapshot) {
  const ImGuiIO& io = ImGui::GetIO();
  if (ui.auto_frame && ui.camera.follow_body < 0) {
    constexpr float kAutoFrameTimeConstant_s = 0.6f;
    EaseTowardsFraming(snapshot, FreeViewFraction(), std::min(frame_period_s, 0.1f),
                       kAutoFrameTimeConstant_s, &ui.camera);
  }
  UpdateFollow(snapshot, &ui.camera);  // so that unfollowing keeps the view
  // The scene's centre of attention in the middle of the area the panels leave free.
  const PanelLayout layout = ComputePanelLayout(io.DisplaySize.x, io.DisplaySize.y, ui.show_panels);
  const float aspect = io.DisplaySize.y > 0 ? io.DisplaySize.x / io.DisplaySize.y : 1.0f;
  const float shift_x = io.DisplaySize.x > 0 ? 0.5f * layout.sidebar_w / io.DisplaySize.x : 0;
  const float shift_y = io.DisplaySize.y > 0 ? -0.5f * layout.plots_h / io.DisplaySize.y : 0;
  if (auto scene_camera = MainSceneCamera(snapshot, ui.views, shift_x, shift_y)) {
    return *scene_camera;
  }
  return ShiftedCamera(ui.camera, snapshot, shift_x, shift_y, aspect);
}

void Application::Impl::Draw(const Snapshot& snapshot, const Camera& view, bool panels_built,
                             std::vector<uint8_t>* capture, int* capture_w, int* capture_h) {
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(window, &fb_w, &fb_h);
  last_fb_w = fb_w;
  last_fb_h = fb_h;
  glViewport(0, 0, fb_w, fb_h);
  bool drawn = false;
  if (renderer && fb_w > 0 && fb_h > 0) {
    try {
      renderer->BeginScene(fb_w, fb_h);
      renderer->Render(snapshot, view, ui.layers, fb_w, fb_h, ghost.get());
      const ImGuiIO& io = ImGui::GetIO();
      DrawCameraInset(*renderer, snapshot, ui.views, ui.layers, fb_w, fb_h, io.DisplaySize.x,
                      io.DisplaySize.y, ghost.get());
      renderer->EndScene();
      last_view_projection =
          ViewProjection(view, snapshot, static_cast<float>(fb_w) / static_cast<float>(fb_h));
      drawn = true;
    } catch (const std::exception& e) {
      AddError(std::string("renderer: ") + e.what());
      render_error = e.what();
      renderer.reset();
    }
  }
  if (!drawn) {
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.12f, 0.12f, 0.14f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  }
  DrawPanels(panels_built, fb_w, fb_h);
  if (pending_plot_png && renderer) ExportShownPlot(fb_w, fb_h);
  pending_plot_png = false;
  if (pending_screenshot && renderer) SaveScreenshot(fb_w, fb_h);
  pending_screenshot = false;
  if (capture && renderer) {
    *capture = renderer->ReadPixels(fb_w, fb_h);
    *capture_w = fb_w;
    *capture_h = fb_h;
  }
}

void Application::Impl::DrawPanels(bool built, int fb_w, int fb_h) {
  if (built) ImGui::Render();
  panels_layered = PanelsLayered();
  if (!panels_layered) {
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    return;
  }
  if (built) {
    try {
      panel_layer->Begin(fb_w, fb_h);
    } catch (const RenderError& e) {  // the panels straight into the frame from now on
      AddError(std::string("panel layer: ") + e.what());
      panel_layer.reset();
      panels_layered = false;
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      return;
    }
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    panel_layer->End();
    glViewport(0, 0, fb_w, fb_h);
  }
  panel_layer->Composite();
}

void Application::Impl::ExportShownPlot(int fb_w, int fb_h) {
  const int plot = std::clamp(ui.contacts.png_plot, 0, kNumPlots - 1);
  const float scale = ImGui::GetIO().DisplaySize.x > 0 ? fb_w / ImGui::GetIO().DisplaySize.x : 1;
  const std::string error = ExportPlotPng(renderer->ReadPixels(fb_w, fb_h), fb_w, fb_h, scale,
                                          ui.plot_views[plot], &ui.contacts);
  if (error.empty()) {
    ui.status = ui.contacts.export_message;
  } else {
    AddError(error);
  }
}

void Application::Impl::SaveScreenshot(int fb_w, int fb_h) {
  const std::string path = TimestampedPath("contactlab", "png", std::time(nullptr));
  try {
    WritePng(path, fb_w, fb_h, renderer->ReadPixels(fb_w, fb_h));
    ui.status = "saved " + path;
    spdlog::info("{}", ui.status);
  } catch (const std::exception& e) {
    AddError(e.what());
  }
}

// The frame period drives the automatic quality (ui/state/auto_quality.h); the renderer draws with
// the quality chosen, automatic or the Solver panel's.
void Application::Impl::AdaptRenderQuality(Clock::time_point frame_start) {
  AutoQuality& q = ui.render_quality;
  frame_period_s = last_frame_start ? static_cast<float>(Seconds(frame_start - *last_frame_start))
                                    : 1.0f / 60.0f;
  if (last_frame_start && q.OnFrame(frame_period_s)) {
    spdlog::info("render quality ({:.1f} fps): {}", q.fps(), QualityLabel(q.quality()));
  }
  last_frame_start = frame_start;
  if (renderer && !(renderer->quality() == q.quality())) renderer->SetQuality(q.quality());
}

void Application::Impl::SwapAndPace(Clock::time_point work_start, double cpu_start_ms) {
  const Clock::time_point swap_start = Clock::now();
  last_work_ms = std::chrono::duration<double, std::milli>(swap_start - work_start).count();
  last_work_cpu_ms = ThreadCpuMs() - cpu_start_ms;
  timer.EndWork(last_work_cpu_ms);
  glfwSwapBuffers(window);
  if (glfwWindowShouldClose(window)) quit = true;
  const double swap_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - swap_start).count();
  swap_ms_average += 0.1 * (swap_ms - swap_ms_average);
  // Without a display that paces the loop (vsync off, or no vsync as under Xvfb: the swap
  // returns at once), sleep for the rest of the frame period instead of rendering frames no
  // one sees on a core the sim thread needs.
  const bool display_paces = options.vsync && swap_ms_average > 1.0;
  if (pace && !frame_clock && options.max_fps > 0 && !display_paces) {
    const Clock::time_point due =
        work_start + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(1.0 / options.max_fps));
    if (Clock::now() < due) std::this_thread::sleep_until(due);
  }
}

PointerInput Application::Impl::ReadPointer() {
  if (synthetic_pointer) {
    const PointerInput p = *synthetic_pointer;
    synthetic_pointer->double_click = false;  // one frame
    return p;
  }
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse && drag.body < 0) return PointerInput{};  // over a panel
  return {io.MousePos.x, io.MousePos.y, io.MouseDown[0], io.MouseDoubleClicked[0], io.KeyCtrl};
}

bool Application::Impl::HandlePicking(const PointerInput& pointer, const Snapshot& snapshot) {
  const ImGuiIO& io = ImGui::GetIO();
  const float w = io.DisplaySize.x, h = io.DisplaySize.y;
  const bool pressed = pointer.left_down && !left_was_down;
  left_was_down = pointer.left_down;
  if (w <= 0 || h <= 0) return false;
  const Ray ray = ScreenRay(last_view_projection, {pointer.x, pointer.y}, {w, h});
  if (pointer.double_click && !pointer.ctrl) {
    if (const std::optional<BodyHit> hit = picker.Pick(snapshot, ray)) {
      inspect.selected_body = ui.plot_body = hit->body;
      runtime->Post(command::SelectPlotBody{hit->body});
      ui.status = "selected " + snapshot.scene->bodies[hit->body].body.name;
      ui.auto_frame = false;  // the view holds still on what the user is looking at
    }
  }
  if (pressed && pointer.ctrl) {
    if (const std::optional<BodyHit> hit = picker.Pick(snapshot, ray)) {
      // The mouse moves the target in the plane through the grabbed point facing the camera.
      drag = {hit->body, snapshot.body_poses[hit->body].inverse() * hit->p_W, hit->p_W,
              -ray.direction_W};
      ui.auto_frame = false;  // the view holds still under the mouse while it pulls
      inspect.selected_body = ui.plot_body = hit->body;  // its panel shows the pull
      runtime->Post(command::SelectPlotBody{hit->body});
    }
  }
  if (drag.body < 0) return false;
  if (!pointer.left_down) {
    runtime->Post(command::Perturb{});
    drag.body = -1;
    return false;
  }
  const std::optional<Eigen::Vector3d> target = IntersectPlane(ray, drag.plane_p_W, drag.plane_n_W);
  if (target) runtime->Post(command::Perturb{drag.body, drag.p_BoQ_B, *target});
  return true;
}

void Application::Impl::WaitForGhost(uint64_t step) {
  const auto ghost_step = [&] {
    const std::shared_ptr<const Snapshot> g = runtime->LatestGhost();
    return g ? g->step_index : 0;
  };
  if (!WaitWithoutStall([&] { return ghost_step() >= step; }, ghost_step)) {
    AddError("the ghost did not catch up with the main run for the screenshot");
  }
}

// Pairs each ghost sample with the main run's sample of the same step (the ghost lags: main
// samples wait in main_samples) and plots ghost − main.
void Application::Impl::AppendGhostDifferences() {
  if (!ghost) {
    main_samples.clear();
    return;
  }
  runtime->DrainGhostSamples(&ghost_samples);
  for (const GhostSample& g : ghost_samples) {
    while (!main_samples.empty() && main_samples.front().step_index < g.step_index) {
      main_samples.pop_front();
    }
    if (main_samples.empty() || main_samples.front().step_index != g.step_index) continue;
    const PlotSample& m = main_samples.front();
    const Eigen::Vector3d dp(g.body_position_W[0] - m.body_position_W[0],
                             g.body_position_W[1] - m.body_position_W[1],
                             g.body_position_W[2] - m.body_position_W[2]);
    const double row[kNumGhostSeries] = {dp.norm(), g.normal_force_N - m.normal_force_N,
                                         g.slip_speed_m_per_s - m.slip_speed_m_per_s};
    inspect.ghost_plots.Append(g.time_s, row);
  }
  ghost_samples.clear();
  constexpr size_t kMaxWaiting = 1 << 16;  // a ghost far behind: forget the oldest
  while (main_samples.size() > kMaxWaiting) main_samples.pop_front();
}

FrameStats Application::Impl::Stats(int frames, Clock::time_point start, uint64_t start_step,
                                    double work_ms_sum, double max_frame_ms) const {
  FrameStats s;
  s.frames = frames;
  s.wall_s = Seconds(Clock::now() - start);
  s.mean_frame_ms = frames > 0 ? 1000.0 * s.wall_s / frames : 0.0;
  s.max_frame_ms = max_frame_ms;
  s.mean_work_ms = frames > 0 ? work_ms_sum / frames : 0.0;
  const std::shared_ptr<const Snapshot> snapshot = runtime->Latest();
  s.sim_steps = snapshot->step_index >= start_step ? snapshot->step_index - start_step : 0;
  s.sim_time_s = snapshot->time_s;
  s.errors = ui.errors.size();
  s.quality_level = ui.render_quality.level();
  if (snapshot->ghost.active) s.ghost_lag_s = snapshot->ghost.lag_s;
  return s;
}

Application::Application(const ApplicationOptions& options)
    : impl_(std::make_unique<Impl>(options)) {
  impl_->runtime->Post(command::SetArtificialStepDelay{options.artificial_step_delay_s});
}

Application::~Application() = default;

const std::string& Application::render_error() const { return impl_->render_error; }

void Application::SetSyntheticPointer(std::optional<PointerInput> pointer) {
  impl_->synthetic_pointer = pointer;
}

std::optional<Eigen::Vector2f> Application::ProjectToWindow(const Eigen::Vector3d& p_W) const {
  const ImGuiIO& io = ImGui::GetIO();
  return ProjectToScreen(impl_->last_view_projection, p_W, {io.DisplaySize.x, io.DisplaySize.y});
}

std::shared_ptr<const Snapshot> Application::LatestSnapshot() const {
  return impl_->runtime->Latest();
}

void Application::DropFiles(const std::vector<std::string>& paths) { impl_->DropFiles(paths); }

void Application::SendKey(int glfw_key, int action) {
  // GLFW has no getter for the installed callback (ImGui's backend, which chains any other):
  // take it out and put it back.
  GLFWwindow* window = impl_->window;
  const GLFWkeyfun callback = glfwSetKeyCallback(window, nullptr);
  glfwSetKeyCallback(window, callback);
  if (callback) callback(window, glfw_key, glfwGetKeyScancode(glfw_key), action, 0);
}

int Application::selected_body() const { return impl_->inspect.selected_body; }

int Application::Run() {
  impl_->EnsureStarted();
  while (!impl_->quit) impl_->Frame(nullptr, nullptr, nullptr);
  impl_->runtime->Stop();
  return 0;
}

FrameStats Application::RunFrames(int n) {
  impl_->EnsureStarted();
  const Clock::time_point start = Clock::now();
  const uint64_t start_step = impl_->runtime->Latest()->step_index;
  double work = 0, max_frame = 0;
  int frames = 0;
  for (; frames < n && !impl_->quit; ++frames) {
    const Clock::time_point t = Clock::now();
    impl_->Frame(nullptr, nullptr, nullptr);
    work += impl_->last_work_cpu_ms;
    max_frame = std::max(max_frame, 1000.0 * Seconds(Clock::now() - t));
  }
  return impl_->Stats(frames, start, start_step, work, max_frame);
}

FrameStats Application::RunFor(double seconds, FrameTrace* trace) {
  impl_->EnsureStarted();
  const Clock::time_point start = Clock::now();
  const uint64_t start_step = impl_->runtime->Latest()->step_index;
  double work = 0, max_frame = 0;
  int frames = 0;
  if (trace) *trace = FrameTrace{};
  while (Seconds(Clock::now() - start) < seconds && !impl_->quit) {
    const Clock::time_point t = Clock::now();
    impl_->Frame(nullptr, nullptr, nullptr);
    work += impl_->last_work_cpu_ms;
    const double frame_ms = 1000.0 * Seconds(Clock::now() - t);
    max_frame = std::max(max_frame, frame_ms);
    ++frames;
    if (trace) {
      const std::shared_ptr<const Snapshot> s = impl_->runtime->Latest();
      trace->frame_ms.push_back(frame_ms);
      trace->work_ms.push_back(impl_->last_work_ms);
      trace->work_cpu_ms.push_back(impl_->last_work_cpu_ms);
      trace->published_s.push_back(Seconds(s->published - start));
      trace->sim_time_s.push_back(s->time_s);
      trace->quality_level.push_back(impl_->ui.render_quality.level());
    }
  }
  if (trace) trace->final_quality = QualityLabel(impl_->ui.render_quality.quality());
  return impl_->Stats(frames, start, start_step, work, max_frame);
}

void Application::Impl::EnterStepping() {
  if (frame_clock) return;
  if (started) {  // running: pause, and wait until no step is under way
    runtime->Post(command::Pause{});
    if (!WaitWithoutStall([&] { return runtime->Latest()->paused; }, [] { return 0; })) {
      throw std::runtime_error("the simulation did not pause for stepped frames");
    }
  }
  started = true;  // paused since construction otherwise
  frame_clock = Clock::now();
  last_frame_start.reset();
}

void Application::Impl::StepSimTo(uint64_t step) {
  const auto sim_step = [&] { return runtime->Latest()->step_index; };
  for (uint64_t s = sim_step(); s < step; ++s) runtime->Post(command::StepOnce{});
  const bool done = WaitWithoutStall(
      [&] {
        for (std::string& e : runtime->TakeErrors()) AddError(e);
        return !ui.errors.empty() || sim_step() >= step;  // an error: shown, the frame goes on
      },
      sim_step);
  if (!done)
    throw std::runtime_error("the simulation stalled at step " + std::to_string(sim_step()));
}

FrameStats Application::RunSteppedFrames(int n, double frame_period_s) {
  if (!(frame_period_s > 0) || !std::isfinite(frame_period_s)) {
    throw std::invalid_argument("RunSteppedFrames: the frame period must be > 0 s");
  }
  Impl& a = *impl_;
  a.EnterStepping();
  const Clock::time_point start = Clock::now();
  const std::shared_ptr<const Snapshot> first = a.runtime->Latest();
  const uint64_t start_step = first->step_index;
  const double steps_per_frame =
      frame_period_s * std::max(a.options.realtime_factor, 0.0) / first->contact_settings.dt_s;
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(frame_period_s));
  double work = 0, max_frame = 0;
  int frames = 0;
  for (; frames < n && !a.quit; ++frames) {
    a.StepSimTo(start_step + StepsAfterFrames(frames + 1, steps_per_frame));
    *a.frame_clock += period;
    const Clock::time_point t = Clock::now();
    a.Frame(nullptr, nullptr, nullptr);
    work += a.last_work_cpu_ms;
    max_frame = std::max(max_frame, 1000.0 * Seconds(Clock::now() - t));
  }
  return a.Stats(frames, start, start_step, work, max_frame);
}

void Application::Screenshot(int frames, const std::string& png_path) {
  Impl& a = *impl_;
  if (!a.renderer) {
    throw std::runtime_error("cannot take a screenshot: the renderer failed: " + a.render_error);
  }
  if (a.started) throw std::logic_error("Screenshot must be the first run of an Application");
  SimRuntime& runtime = *a.runtime;
  a.pace = false;  // the frames show simulated time; no need to spread them in wall time
  // Paused since construction, before the first step: from here on the application decides
  // every step.
  a.started = true;
  const double steps_per_frame = kScreenshotFramePeriod_s *
                                 std::max(a.options.realtime_factor, 0.0) /
                                 runtime.Latest()->contact_settings.dt_s;
  const uint64_t base = runtime.Latest()->step_index;
  std::vector<uint8_t> pixels;
  int width = 0, height = 0;
  frames = std::max(frames, 1);
  for (int k = 1; k <= frames; ++k) {
    const uint64_t target = StepsAfterFrames(k, steps_per_frame);
    a.StepSimTo(base + target);
    // The last frame is framed on the bodies where they are then (fast ones may have left the
    // initial view), and shows the ghost (if any) at the same step.
    if (k == frames) {
      a.frame_next = true;
      if (a.options.ghost) a.WaitForGhost(base + target);
    }
    a.Frame(k == frames ? &pixels : nullptr, &width, &height);
    if (!a.ui.errors.empty()) {
      throw std::runtime_error(a.ui.errors.back());
    }
  }
  if (pixels.empty() || width <= 0 || height <= 0) {
    throw std::runtime_error("cannot take a screenshot: no pixels were read back");
  }
  WritePng(png_path, width, height, pixels);
  const std::shared_ptr<const Snapshot> last = runtime.Latest();
  spdlog::info("wrote {} ({}x{}, {} frames, t = {:.4f} s, {} steps)", png_path, width, height,
               frames, last->time_s, last->step_index);
}

}  // namespace contactlab
