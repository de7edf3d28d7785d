// Application (application.h): the parts below, composed. Each frame is one Frame(), a list of
// named steps; each part keeps its own state (docs/architecture.md §4).
#include "ui/application.h"

#include <imgui.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <thread>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "app/runtime/thread_priority.h"
#include "io/asset_directory.h"
#include "render/camera.h"
#include "render/png_writer.h"
#include "render/shader_directory.h"
#include "ui/frame_drawing.h"
#include "ui/gamepad_feed.h"
#include "ui/gui_run_stats.h"
#include "ui/panel_refresh.h"
#include "ui/panels/contact_panel.h"
#include "ui/panels/exports.h"
#include "ui/panels/inspect_panels.h"
#include "ui/panels/panels.h"
#include "ui/panels/shortcuts.h"
#include "ui/panels/teleop_panel.h"
#include "ui/plot_feed.h"
#include "ui/scene_session.h"
#include "ui/sim_stepping.h"
#include "ui/state/actions.h"
#include "ui/state/frame_pacing.h"
#include "ui/state/frame_timer.h"
#include "ui/state/gui_settings.h"
#include "ui/state/key_events.h"
#include "ui/state/ui_state.h"
#include "ui/view/alignment_hud.h"
#include "ui/view/camera_controller.h"
#include "ui/view/camera_views.h"
#include "ui/view/viewport_input.h"
#include "ui/window.h"

namespace contactlab {

namespace {

using Clock = std::chrono::steady_clock;

// Screenshot mode: the simulated time each frame shows, at real-time factor 1.
constexpr double kScreenshotFramePeriod_s = 1.0 / 60.0;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }
double Milliseconds(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
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

// Teleoperation input (used by scenes with a robot arm) and its recorder, before the sim thread
// starts. The GUI's default is the space mouse merged with the keyboard, so that the keyboard
// works with or without a space mouse.
void ConnectInputDevices(const ApplicationOptions& options, SimRuntime* runtime) {
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

std::string SceneName(const ApplicationOptions& options) {
  return options.scene_name.empty() ? options.scene.name : options.scene_name;
}

// The panels' reset values: the scene as its file gives it, when the caller kept that.
SceneDefaults FileDefaults(const ApplicationOptions& options) {
  return ComputeSceneDefaults(options.scene_defaults.bodies.empty() ? options.scene
                                                                    : options.scene_defaults);
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
  // The framebuffer of a frame, read before the swap (screenshots).
  struct FrameCapture {
    std::vector<uint8_t> pixels;
    int width = 0, height = 0;
  };
  // When a frame began, on the wall clock, the render thread's CPU clock and the frame clock.
  struct FrameWork {
    Clock::time_point wall_start;
    double cpu_start_ms = 0;
    Clock::time_point frame_start;
  };

  ApplicationOptions options;
  // The sim first: an invalid scene fails before a window appears.
  std::unique_ptr<SimRuntime> runtime;
  std::unique_ptr<Window> window;
  FrameDrawing drawing;  // declared after the window: its GL objects go first
  FramePacing pacing;
  FrameTimer timer;            // the Solver panel's frame times
  PanelRefresh panel_refresh;  // told of every input event (Window's on_input)
  KeyEventQueue key_events;    // this frame's, for the keyboard device

  UiState ui;
  InspectState inspect;
  SceneSession scenes;
  PlotFeed plot_feed;
  ViewportInput viewport;
  std::vector<PlotSample> samples;         // this frame's, drained from the sim thread
  std::vector<GhostSample> ghost_samples;  // the ghost's, likewise
  std::shared_ptr<const Snapshot> ghost;   // the ghost's newest snapshot this frame

  std::string imgui_ini_path;  // Dear ImGui's window positions ("" without settings)
  bool quit = false;
  bool started = false;             // a run (Run, RunFrames, RunFor, Screenshot) has begun
  bool frame_next = false;          // aim the camera at the scene at the next frame
  bool pending_plot_png = false;    // read the chosen plot back after this frame is drawn
  bool pending_screenshot = false;  // F12: save this frame once it is drawn
  float frame_period_s = 0;         // start to start (the camera's easing)
  double last_work_ms = 0, last_work_cpu_ms = 0;  // the last frame's, in our code

  explicit Impl(const ApplicationOptions& o);
  ~Impl();
  void InitUiState();
  void StartSim();
  void RestoreSettings();
  void SaveSettings() const;
  void OpenWindow();
  void BuildRenderer();

  // One frame of the render loop: the steps below, in order. With `capture`, the framebuffer
  // of the frame is read back before the swap.
  void Frame(FrameCapture* capture);
  // The clocks at the frame's start; the render quality for it.
  FrameWork BeginFrame();
  // The sim thread's errors, plot samples and newest snapshot (and the ghost's).
  std::shared_ptr<const Snapshot> TakeSimOutput();
  void TakeGhostOutput();
  void OnNewScene(const Snapshot& snapshot);
  // Whether this frame builds the panels (ui/panel_refresh.h).
  bool BuildPanelsThisFrame(Clock::time_point frame_start, bool capture);
  // Keys, the gamepad and the pointer, the panels, and the actions they ask for.
  void HandleInputAndPanels(const Snapshot& snapshot);
  // Picking, pulling and the camera's mouse (ui/view/viewport_input.h).
  void HandlePointer(const Snapshot& snapshot);
  void MoveCamera(const MouseInput& mouse, const Snapshot& snapshot);
  void Execute(UiActions& actions, const Snapshot& snapshot);
  // The camera for this frame: framing, following, shifted into the area the panels leave.
  Camera ViewCamera(const Snapshot& snapshot);
  // The scene and the panels into the framebuffer, then what is to be read back of it.
  void Draw(const Snapshot& snapshot, const Camera& view, bool panels_built, FrameCapture* capture);
  void ReadBack(int fb_w, int fb_h, FrameCapture* capture);
  // Swaps, then sleeps out the rest of the frame when no display paces the loop.
  void SwapAndPace(const FrameWork& work);

  // The part of the view's height the panels leave for the scene (for framing).
  float FreeViewFraction() const;
  void LoadScene(const std::string& name_or_path);
  void DropFiles(const std::vector<std::string>& paths);
  void ExportPlotCsv();
  // The plot the PNG button chose, from the framebuffer just drawn (exports.h).
  void ExportShownPlot(int fb_w, int fb_h);
  void SaveScreenshot(int fb_w, int fb_h);

  // Runs. The sim thread exists (paused) from construction on; the first run lets it go, and
  // so does a free-running run after stepped ones.
  void EnsureStarted();
  // From free running to stepped frames: the sim paused, the frame clock stepped.
  void EnterStepping();
  // Until the paused sim thread has published step `step`; an error cuts it short (shown).
  void StepSimTo(uint64_t step);
  // One frame of a run, measured; the run's statistics at its end.
  void MeasuredFrame(GuiRunStats* stats);
  FrameStats Finish(const GuiRunStats& stats) const;
};

Application::Impl::Impl(const ApplicationOptions& o)
    : options(o),
      runtime(std::make_unique<SimRuntime>(o.scene, o.realtime_factor)),
      drawing(o.shader_dir.empty() ? ShaderDirectory() : o.shader_dir),
      pacing(o.vsync, o.max_fps),
      scenes(SceneName(o), FileDefaults(o), o.camera) {
  InitUiState();
  // The sim thread is created before the window and the GL context, at normal priority; the
  // main thread then lowers its own, so that the threads the GL driver creates with the context
  // (llvmpipe's rasterizer threads when rendering in software) inherit the lower priority. On a
  // machine with few cores the sim thread then keeps its real-time pace and the frame rate
  // gives way instead (issue 3: the sim must not slow down because a window is open).
  StartSim();
  LowerCallingThreadPriority(options.render_thread_nice);
  RestoreSettings();
  OpenWindow();
  BuildRenderer();
}

void Application::Impl::InitUiState() {
  ui.builtin_scenes = BuiltinSceneNames();
  ui.current_scene = SceneName(options);
  ui.target_realtime_factor =
      options.realtime_factor > 0 ? static_cast<float>(options.realtime_factor) : 1.0f;
  ui.as_fast_as_possible = options.realtime_factor <= 0;
  ui.render_quality = AutoQuality(options.msaa_samples, options.auto_quality);
  if (options.quality_level >= 0) ui.render_quality.SetLevel(options.quality_level);
  ApplyCameraPreset(CameraPreset::kIso, &ui.camera);
  ui.layers.contact_colors = options.contact_colors;
}

// Paused until the first run (and the ghost, if asked for, from the first step on).
void Application::Impl::StartSim() {
  ConnectInputDevices(options, runtime.get());
  runtime->Post(command::Pause{});
  if (options.ghost) {
    command::StartGhost ghost_start;
    ghost_start.overrides.approximation = *options.ghost;
    ghost_start.label = ContactApproximationName(*options.ghost);
    runtime->Post(std::move(ghost_start));
  }
  runtime->Start();
}

void Application::Impl::RestoreSettings() {
  if (options.settings_dir.empty()) return;
  GuiSettings defaults;
  defaults.layers = ui.layers;
  defaults.show_panels = ui.show_panels;
  const GuiSettings saved = LoadGuiSettings(options.settings_dir, defaults);
  ui.layers = saved.layers;
  ui.show_panels = saved.show_panels;
  if (saved.camera && saved.scene == ui.current_scene) scenes.RestoreCamera(*saved.camera);
  if (options.window_size_from_settings && saved.width >= 64 && saved.height >= 64) {
    options.width = saved.width;
    options.height = saved.height;
  }
  imgui_ini_path = (std::filesystem::path(options.settings_dir) / "imgui.ini").string();
}

void Application::Impl::SaveSettings() const {
  if (options.settings_dir.empty() || !window) return;
  GuiSettings s;
  window->Size(&s.width, &s.height);
  s.show_panels = ui.show_panels;
  s.layers = ui.layers;
  s.scene = ui.current_scene;
  s.camera = ui.camera;
  SaveGuiSettings(options.settings_dir, s);
  window->SaveImGuiSettings(imgui_ini_path);
}

Application::Impl::~Impl() {
  SaveSettings();
  runtime->Stop();
  runtime.reset();
  // Another Application's context may be current (tests): the renderer's GL objects go with
  // this window's, as the members are destroyed (drawing, then window).
  if (window) window->MakeContextCurrent();
}

void Application::Impl::OpenWindow() {
  WindowOptions w;
  w.width = options.width;
  w.height = options.height;
  w.title = "contactlab - " + ui.current_scene;
  w.visible = options.visible;
  w.vsync = options.vsync;
  w.imgui_ini_path = imgui_ini_path;
  WindowEvents events;
  events.on_input = [this] { panel_refresh.OnInput(); };
  events.on_key = [this](int key, int action) { key_events.Push(key, action); };
  events.on_drop = [this](std::vector<std::string> paths) { DropFiles(paths); };
  window = std::make_unique<Window>(w, std::move(events));
}

// A renderer that fails to build keeps the last good one (if any); the message is shown.
void Application::Impl::BuildRenderer() {
  if (const std::string error = drawing.Build(); !error.empty()) {
    AddError("renderer: " + error, &ui);
  }
}

void Application::Impl::Frame(FrameCapture* capture) {
  const FrameWork work = BeginFrame();
  window->PollEvents();
  const std::shared_ptr<const Snapshot> snapshot = TakeSimOutput();
  const bool build_panels = BuildPanelsThisFrame(work.frame_start, capture != nullptr);
  if (build_panels) {
    HandleInputAndPanels(*snapshot);
  } else {
    FeedGamepad(runtime->gamepad().get());  // a device, not an event: read every frame
  }
  const Camera view = ViewCamera(*snapshot);
  if (build_panels) InspectContacts(*snapshot, view, &ui);
  Draw(*snapshot, view, build_panels, capture);
  SwapAndPace(work);
}

// The frame period drives the automatic quality (ui/state/frame_pacing.h); the renderer draws
// with the quality chosen, automatic or the Solver panel's.
Application::Impl::FrameWork Application::Impl::BeginFrame() {
  timer.BeginFrame();
  FrameWork work{Clock::now(), ThreadCpuMs(), {}};
  const FramePacing::FrameStart start = pacing.BeginFrame(work.wall_start);
  work.frame_start = start.time;
  frame_period_s = start.period_s;
  AdaptRenderQuality(start, &ui.render_quality);
  drawing.SetQuality(ui.render_quality.quality());
  return work;
}

std::shared_ptr<const Snapshot> Application::Impl::TakeSimOutput() {
  for (std::string& e : runtime->TakeErrors()) AddError(e, &ui);
  // Samples first, then the snapshot: it is at least as new as every sample drained.
  runtime->DrainPlotSamples(&samples);
  std::shared_ptr<const Snapshot> snapshot = runtime->Latest();
  if (scenes.IsNew(*snapshot)) OnNewScene(*snapshot);
  plot_feed.AppendMain(samples, snapshot->ghost.active);
  CountConvergence(samples, &ui);
  samples.clear();
  TakeGhostOutput();
  if (frame_next) {
    FrameScene(*snapshot, FreeViewFraction(), &ui.camera);
    frame_next = false;
  }
  return snapshot;
}

void Application::Impl::TakeGhostOutput() {
  ghost = runtime->LatestGhost();
  if (!ghost) {
    plot_feed.ForgetGhost();
    return;
  }
  runtime->DrainGhostSamples(&ghost_samples);
  plot_feed.AppendGhost(ghost_samples, &inspect.ghost_plots);
  ghost_samples.clear();
}

void Application::Impl::OnNewScene(const Snapshot& snapshot) {
  if (std::optional<Command> select = scenes.OnNewScene(snapshot, FreeViewFraction(), &ui)) {
    runtime->Post(std::move(*select));
  }
  plot_feed.StartRun(snapshot.run);
  window->SetTitle("contactlab - " + ui.current_scene);
}

// Every frame unless the render quality slows the panels (ui/panel_refresh.h); then also when
// the layer holds no drawing of this frame's size or the last frame drew them directly, while
// the mouse holds a button (drags), with a synthetic pointer (tests) and for a captured frame.
bool Application::Impl::BuildPanelsThisFrame(Clock::time_point frame_start, bool capture) {
  const RenderQuality& quality = ui.render_quality.quality();
  const bool must = !drawing.LayerIsCurrent(quality) || capture || viewport.synthetic() ||
                    ImGui::IsAnyMouseDown();
  const double now_s = Seconds(frame_start.time_since_epoch());
  return panel_refresh.BuildThisFrame(now_s, quality.panel_refresh_hz, must);
}

void Application::Impl::HandleInputAndPanels(const Snapshot& snapshot) {
  window->BeginImGuiFrame();
  const ImGuiIO& io = ImGui::GetIO();
  UiActions actions;
  HandleShortcuts(snapshot, &ui, &actions);
  FeedTeleopKeys(snapshot.teleop.active, key_events.events(), runtime->keyboard().get());
  key_events.Clear();
  FeedGamepad(runtime->gamepad().get());
  HandlePointer(snapshot);
  ui.frame_stats = timer.stats();
  DrawUi(snapshot, plot_feed.plots(), io.DisplaySize.x, io.DisplaySize.y, &ui, &actions);
  AlignmentHud(
      snapshot, ui.layers.alignment,
      ComputePanelLayout(io.DisplaySize.x, io.DisplaySize.y, ui.show_panels).sidebar_w + 10.0f,
      10.0f);
  if (ui.show_panels) InspectWindow(snapshot, io.DisplaySize.x, &inspect, &actions);
  Execute(actions, snapshot);
}

void Application::Impl::HandlePointer(const Snapshot& snapshot) {
  const ImGuiIO& io = ImGui::GetIO();
  const PointerInput pointer = viewport.ReadPointer(io);
  const ViewportEvents events = viewport.Handle(pointer, snapshot, drawing.view_projection(),
                                                {io.DisplaySize.x, io.DisplaySize.y});
  if (events.selected_body >= 0) {
    inspect.selected_body = ui.plot_body = events.selected_body;
    runtime->Post(command::SelectPlotBody{events.selected_body});
    // The view holds still on what the user is looking at, and under the mouse while it pulls.
    ui.auto_frame = false;
    if (!events.grabbed) {
      ui.status = "selected " + snapshot.scene->bodies[events.selected_body].body.name;
    }
  }
  if (events.perturb) runtime->Post(*events.perturb);
  if (const std::optional<MouseInput> mouse = CameraMouse(io, events)) MoveCamera(*mouse, snapshot);
}

void Application::Impl::MoveCamera(const MouseInput& mouse, const Snapshot& snapshot) {
  if (MovesCamera(mouse)) {
    ui.auto_frame = false;     // the user has taken the camera
    if (ui.views.main >= 0) {  // from a scene camera's view on, as the free camera
      ui.camera = OrbitFrom(ViewCamera(snapshot));
      ui.views.main = -1;
    }
  }
  const ImGuiIO& io = ImGui::GetIO();
  ApplyMouse(mouse, static_cast<int>(io.DisplaySize.x), static_cast<int>(io.DisplaySize.y),
             &ui.camera);
}

void Application::Impl::Execute(UiActions& actions, const Snapshot& snapshot) {
  for (Command& c : actions.commands) runtime->Post(std::move(c));
  if (actions.load_scene) LoadScene(*actions.load_scene);
  if (actions.export_csv) ExportPlotCsv();
  if (actions.export_contacts) {
    const std::string error = ExportContacts(snapshot, &ui.contacts);
    if (error.empty()) {
      ui.status = ui.contacts.export_message;
    } else {
      AddError(error, &ui);
    }
  }
  pending_plot_png = actions.export_plot_png;
  pending_screenshot = actions.save_screenshot;
  if (actions.reload_shaders) {
    BuildRenderer();
    if (drawing.error().empty()) ui.status = "shaders reloaded";
  }
  if (actions.camera_preset) ApplyCameraPreset(*actions.camera_preset, &ui.camera);
  if (actions.camera_preset || actions.frame_scene) ui.views.main = -1;  // the free camera's
  if (actions.frame_scene) {
    ui.camera.follow_body = -1;
    FrameScene(snapshot, FreeViewFraction(), &ui.camera);
  }
  if (actions.quit) quit = true;
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
                             FrameCapture* capture) {
  int fb_w = 0, fb_h = 0;
  window->FramebufferSize(&fb_w, &fb_h);
  const ImGuiIO& io = ImGui::GetIO();
  if (const std::string error = drawing.DrawScene(snapshot, view, ui, ghost.get(), fb_w, fb_h,
                                                  io.DisplaySize.x, io.DisplaySize.y);
      !error.empty()) {
    AddError("renderer: " + error, &ui);
  }
  if (const std::string error =
          drawing.DrawPanels(panels_built, ui.render_quality.quality(), fb_w, fb_h);
      !error.empty()) {
    AddError("panel layer: " + error, &ui);
  }
  ReadBack(fb_w, fb_h, capture);
}

void Application::Impl::ReadBack(int fb_w, int fb_h, FrameCapture* capture) {
  if (pending_plot_png && drawing.renderer()) ExportShownPlot(fb_w, fb_h);
  pending_plot_png = false;
  if (pending_screenshot && drawing.renderer()) SaveScreenshot(fb_w, fb_h);
  pending_screenshot = false;
  if (capture && drawing.renderer()) {
    capture->pixels = drawing.ReadPixels(fb_w, fb_h);
    capture->width = fb_w;
    capture->height = fb_h;
  }
}

void Application::Impl::SwapAndPace(const FrameWork& work) {
  const Clock::time_point swap_start = Clock::now();
  last_work_ms = Milliseconds(swap_start - work.wall_start);
  last_work_cpu_ms = ThreadCpuMs() - work.cpu_start_ms;
  timer.EndWork(last_work_cpu_ms);
  if (window->SwapBuffers()) quit = true;
  const double swap_ms = Milliseconds(Clock::now() - swap_start);
  if (const std::optional<Clock::time_point> due = pacing.EndFrame(work.wall_start, swap_ms)) {
    if (Clock::now() < *due) std::this_thread::sleep_until(*due);
  }
}

float Application::Impl::FreeViewFraction() const {
  int w = options.width, h = options.height;
  if (window) window->Size(&w, &h);
  if (w <= 0 || h <= 0) return 1.0f;
  const PanelLayout l =
      ComputePanelLayout(static_cast<float>(w), static_cast<float>(h), ui.show_panels);
  return std::min((h - l.plots_h) / h, (w - l.sidebar_w) / h);
}

void Application::Impl::LoadScene(const std::string& name_or_path) {
  if (std::optional<Command> load = scenes.Load(name_or_path, &ui)) runtime->Post(std::move(*load));
}

void Application::Impl::DropFiles(const std::vector<std::string>& paths) {
  if (std::optional<Command> load = scenes.Drop(paths, &ui)) runtime->Post(std::move(*load));
}

void Application::Impl::ExportPlotCsv() {
  const PlotData& plots = plot_feed.plots();
  const double t1 = ui.plot_window.End(plots), t0 = t1 - ui.plot_window.span_s;
  try {
    WritePlotCsv(ui.csv_path, plots, t0, t1);
    const auto [first, last] = plots.Range(t0, t1);
    ui.status = "wrote " + std::to_string(last - first) + " rows to " + ui.csv_path;
    spdlog::info("{}", ui.status);
  } catch (const std::exception& e) {
    AddError(e.what(), &ui);
  }
}

void Application::Impl::ExportShownPlot(int fb_w, int fb_h) {
  const int plot = std::clamp(ui.contacts.png_plot, 0, kNumPlots - 1);
  const float scale = ImGui::GetIO().DisplaySize.x > 0 ? fb_w / ImGui::GetIO().DisplaySize.x : 1;
  const std::string error = ExportPlotPng(drawing.ReadPixels(fb_w, fb_h), fb_w, fb_h, scale,
                                          ui.plot_views[plot], &ui.contacts);
  if (error.empty()) {
    ui.status = ui.contacts.export_message;
  } else {
    AddError(error, &ui);
  }
}

void Application::Impl::SaveScreenshot(int fb_w, int fb_h) {
  const std::string path = TimestampedPath("contactlab", "png", std::time(nullptr));
  try {
    WritePng(path, fb_w, fb_h, drawing.ReadPixels(fb_w, fb_h));
    ui.status = "saved " + path;
    spdlog::info("{}", ui.status);
  } catch (const std::exception& e) {
    AddError(e.what(), &ui);
  }
}

void Application::Impl::EnsureStarted() {
  if (!started || pacing.stepped()) runtime->Post(command::Resume{});
  started = true;
  pacing.UseWallClock();
}

void Application::Impl::EnterStepping() {
  if (pacing.stepped()) return;
  if (started) PauseSim(*runtime);  // running: pause, and wait until no step is under way
  started = true;                   // paused since construction otherwise
  pacing.UseSteppedClock(Clock::now());
}

void Application::Impl::StepSimTo(uint64_t step) {
  contactlab::StepSimTo(*runtime, step, [&] {
    for (std::string& e : runtime->TakeErrors()) AddError(e, &ui);
    return !ui.errors.empty();  // an error: shown, the frame goes on
  });
}

void Application::Impl::MeasuredFrame(GuiRunStats* stats) {
  const Clock::time_point start = Clock::now();
  Frame(nullptr);
  const double frame_ms = Milliseconds(Clock::now() - start);
  stats->AddFrame(frame_ms, last_work_ms, last_work_cpu_ms, *runtime->Latest(),
                  ui.render_quality.level());
}

FrameStats Application::Impl::Finish(const GuiRunStats& stats) const {
  return stats.Finish(Clock::now(), *runtime->Latest(), ui.errors.size(), ui.render_quality.level(),
                      QualityLabel(ui.render_quality.quality()));
}

Application::Application(const ApplicationOptions& options)
    : impl_(std::make_unique<Impl>(options)) {
  impl_->runtime->Post(command::SetArtificialStepDelay{options.artificial_step_delay_s});
}

Application::~Application() = default;

const std::string& Application::render_error() const { return impl_->drawing.error(); }

void Application::SetSyntheticPointer(std::optional<PointerInput> pointer) {
  impl_->viewport.SetSyntheticPointer(pointer);
}

std::optional<Eigen::Vector2f> Application::ProjectToWindow(const Eigen::Vector3d& p_W) const {
  const ImGuiIO& io = ImGui::GetIO();
  return ProjectToScreen(impl_->drawing.view_projection(), p_W,
                         {io.DisplaySize.x, io.DisplaySize.y});
}

std::shared_ptr<const Snapshot> Application::LatestSnapshot() const {
  return impl_->runtime->Latest();
}

void Application::DropFiles(const std::vector<std::string>& paths) { impl_->DropFiles(paths); }

void Application::SendKey(int glfw_key, int action) { impl_->window->SendKey(glfw_key, action); }

int Application::selected_body() const { return impl_->inspect.selected_body; }

int Application::Run() {
  impl_->EnsureStarted();
  while (!impl_->quit) impl_->Frame(nullptr);
  impl_->runtime->Stop();
  return 0;
}

FrameStats Application::RunFrames(int n) {
  Impl& a = *impl_;
  a.EnsureStarted();
  GuiRunStats stats(Clock::now(), a.runtime->Latest()->step_index);
  for (int frames = 0; frames < n && !a.quit; ++frames) a.MeasuredFrame(&stats);
  return a.Finish(stats);
}

FrameStats Application::RunFor(double seconds, FrameTrace* trace) {
  Impl& a = *impl_;
  a.EnsureStarted();
  const Clock::time_point start = Clock::now();
  GuiRunStats stats(start, a.runtime->Latest()->step_index, trace);
  while (Seconds(Clock::now() - start) < seconds && !a.quit) a.MeasuredFrame(&stats);
  return a.Finish(stats);
}

FrameStats Application::RunSteppedFrames(int n, double frame_period_s) {
  if (!(frame_period_s > 0) || !std::isfinite(frame_period_s)) {
    throw std::invalid_argument("RunSteppedFrames: the frame period must be > 0 s");
  }
  Impl& a = *impl_;
  a.EnterStepping();
  const std::shared_ptr<const Snapshot> first = a.runtime->Latest();
  GuiRunStats stats(Clock::now(), first->step_index);
  const double steps_per_frame =
      StepsPerFrame(frame_period_s, a.options.realtime_factor, first->contact_settings.dt_s);
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(frame_period_s));
  for (int frames = 0; frames < n && !a.quit; ++frames) {
    a.StepSimTo(first->step_index + StepsAfterFrames(frames + 1, steps_per_frame));
    a.pacing.Advance(period);
    a.MeasuredFrame(&stats);
  }
  return a.Finish(stats);
}

void Application::Screenshot(int frames, const std::string& png_path) {
  Impl& a = *impl_;
  if (!a.drawing.renderer()) {
    throw std::runtime_error("cannot take a screenshot: the renderer failed: " + a.drawing.error());
  }
  if (a.started) throw std::logic_error("Screenshot must be the first run of an Application");
  a.pacing.set_capped(false);  // the frames show simulated time; no need to spread them
  // Paused since construction, before the first step: from here on the application decides
  // every step.
  a.started = true;
  const std::shared_ptr<const Snapshot> first = a.runtime->Latest();
  const double steps_per_frame = StepsPerFrame(kScreenshotFramePeriod_s, a.options.realtime_factor,
                                               first->contact_settings.dt_s);
  Impl::FrameCapture capture;
  frames = std::max(frames, 1);
  for (int k = 1; k <= frames; ++k) {
    const uint64_t target = first->step_index + StepsAfterFrames(k, steps_per_frame);
    a.StepSimTo(target);
    // The last frame is framed on the bodies where they are then (fast ones may have left the
    // initial view), and shows the ghost (if any) at the same step.
    if (k == frames) {
      a.frame_next = true;
      if (a.options.ghost && !WaitForGhost(*a.runtime, target)) {
        AddError("the ghost did not catch up with the main run for the screenshot", &a.ui);
      }
    }
    a.Frame(k == frames ? &capture : nullptr);
    if (!a.ui.errors.empty()) throw std::runtime_error(a.ui.errors.back());
  }
  if (capture.pixels.empty() || capture.width <= 0 || capture.height <= 0) {
    throw std::runtime_error("cannot take a screenshot: no pixels were read back");
  }
  WritePng(png_path, capture.width, capture.height, capture.pixels);
  const std::shared_ptr<const Snapshot> last = a.runtime->Latest();
  spdlog::info("wrote {} ({}x{}, {} frames, t = {:.4f} s, {} steps)", png_path, capture.width,
               capture.height, frames, last->time_s, last->step_index);
}

}  // namespace contactlab
