// Application (application.h): its construction and the render loop's frame, one Frame() of
// named steps over the parts Application::Impl composes (application_impl.h); the runs are in
// application_runs.cc.
#include "ui/application.h"

#include <imgui.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <thread>
#include <vector>

#include "app/runtime/thread_priority.h"
#include "io/asset_directory.h"
#include "io/output_folder.h"
#include "io/png_file.h"
#include "render/shader_directory.h"
#include "ui/application_impl.h"
#include "ui/gamepad_feed.h"
#include "ui/panels/contact_panel.h"
#include "ui/panels/contact_view_panel.h"
#include "ui/panels/exports.h"
#include "ui/panels/panels.h"
#include "ui/panels/recording_panel.h"
#include "ui/panels/shortcuts.h"
#include "ui/panels/teleop_panel.h"
#include "ui/panels/toast_overlay.h"
#include "ui/sim_stepping.h"
#include "ui/state/gui_settings.h"
#include "ui/view/alignment_hud.h"
#include "ui/view/camera_controller.h"
#include "ui/view/camera_views.h"
#include "ui/view/contact_picking.h"

namespace contactlab {

namespace {

using Clock = std::chrono::steady_clock;

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
  // The command line's views win over the saved ones, for this run.
  ApplyContactViewList(options.contact_views, &ui.layers);
  if (options.vector_scaling) ui.layers.vector_scaling = *options.vector_scaling;
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
  ui.files.output_dir = options.output_dir.empty() ? DefaultOutputDirectory() : options.output_dir;
}

// Paused until the first run (and the ghost, if asked for, from the first step on).
void Application::Impl::StartSim() {
  ConnectInputDevices(options, runtime.get());
  runtime->Post(command::Pause{});
  if (options.ghost || options.ghost_integrator) {
    command::StartGhost ghost_start;
    ghost_start.overrides.approximation = options.ghost;
    ghost_start.overrides.integrator = options.ghost_integrator;
    if (options.ghost) ghost_start.label = ContactApproximationName(*options.ghost);
    if (options.ghost_integrator) {
      ghost_start.label +=
          (options.ghost ? " " : "") + TimeIntegrationName(*options.ghost_integrator);
    }
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
  // The folder chosen in the window, unless the command line names one for this run.
  ui.files.output_dir_setting = saved.output_dir;
  if (options.output_dir.empty() && !saved.output_dir.empty()) {
    ui.files.output_dir = saved.output_dir;
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
  s.output_dir = ui.files.output_dir_setting;
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
  events.on_key = [this](int key, int action, InputStamp stamp) {
    key_events.Push(key, action, stamp.t_s, stamp.exact ? -1 : stamp.poll);
  };
  events.on_mouse_button = [this](const MouseButtonEvent& e) { mouse_events.push_back(e); };
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
    // No input came (it builds the panels): held keys are held until this poll; the pad is a
    // device, not an event: read every frame.
    FeedTeleopKeys(snapshot->teleop.active, {}, window->poll_start_s(), window->polls(),
                   runtime->keyboard().get());
    FeedGamepad(runtime->gamepad().get(), window->polls());
  }
  const Camera view = MainViewCamera(*snapshot, MainView(), &ui);
  if (build_panels) InspectContacts(*snapshot, view, viewport.clicks(), &ui);
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
  // The toasts age by the frame clock: by frames, not the machine's speed, in stepped runs.
  ui.files.toasts.Tick(Seconds(start.time.time_since_epoch()));
  AdaptRenderQuality(start, &ui.render_quality);
  drawing.SetQuality(ui.render_quality.quality());
  return work;
}

std::shared_ptr<const Snapshot> Application::Impl::TakeSimOutput() {
  // Before the errors and the snapshot: the commands counted are in what they show.
  const uint64_t processed = runtime->commands_processed();
  for (std::string& e : runtime->TakeErrors()) {
    // A recording that could not start is a failed save: a toast too.
    if (e.starts_with(kRecordingNotStarted)) ui.files.toasts.Push(e, ToastKind::kError);
    AddError(e, &ui);
  }
  // Samples first, then the snapshot: it is at least as new as every sample drained.
  runtime->DrainPlotSamples(&samples);
  std::shared_ptr<const Snapshot> snapshot = runtime->Latest();
  if (scenes.IsNew(*snapshot)) OnNewScene(*snapshot);
  calibration.Update(runtime->TakeRecordedRun(), snapshot->scene_generation, &ui);
  WatchRecording(snapshot->recording, &ui.recording, &ui.files.toasts);
  scenes.CheckLoad(processed, &ui);
  plot_feed.AppendMain(samples, snapshot->ghost.active);
  plot_feed.AppendStepSizes(samples, &ui.step_sizes);
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
  ui.step_sizes.Clear();
  calibration.OnNewScene(&ui);
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
  FeedTeleopKeys(snapshot.teleop.active, key_events.events(), window->poll_start_s(),
                 window->polls(), runtime->keyboard().get());
  key_events.Clear();
  FeedGamepad(runtime->gamepad().get(), window->polls());
  HandlePointer(snapshot);
  ui.frame_stats = timer.stats();
  DrawUi(snapshot, plot_feed.plots(), io.DisplaySize.x, io.DisplaySize.y, &ui, &actions);
  const PanelLayout layout = ComputePanelLayout(io.DisplaySize.x, io.DisplaySize.y, ui.show_panels);
  AlignmentHud(snapshot, ui.layers.alignment, layout.sidebar_w + 10.0f, 10.0f);
  ToastOverlay(ui.files.toasts, layout.sidebar_w + 10.0f,
               io.DisplaySize.y - layout.plots_h - 10.0f);
  if (ui.show_panels) {
    InspectWindow(
        snapshot,
        PlaceInspectWindow(io.DisplaySize.x, io.DisplaySize.y, layout.plots_h,
                           ShownInsetRect(snapshot, ui.views, io.DisplaySize.x, io.DisplaySize.y)),
        &inspect, &actions);
  }
  Execute(actions, snapshot);
}

void Application::Impl::HandlePointer(const Snapshot& snapshot) {
  const ImGuiIO& io = ImGui::GetIO();
  PointerInput pointer =
      viewport.ReadPointer(io, mouse_events, window->polls(), window->poll_start_s());
  mouse_events.clear();
  // On the inset a click is on its picture: no body behind it is selected or grabbed (a pull
  // already under way only needs the button held, and goes on).
  if (OverInset(snapshot, ui.views, io.DisplaySize.x, io.DisplaySize.y, pointer.x, pointer.y)) {
    pointer.double_click = pointer.ctrl = false;
  }
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
  if (const std::optional<MouseInput> mouse = CameraMouse(io, events)) {
    MoveMainViewCamera(*mouse, snapshot, MainView(), &ui);
  }
}

void Application::Impl::Execute(UiActions& actions, const Snapshot& snapshot) {
  // First: Accept and Undo add their commands.
  if (actions.calibrate) calibration_asks.push_back(std::move(*actions.calibrate));
  for (const CalibrationRequest& r : calibration_asks) {
    calibration.Handle(r, snapshot, &ui, &actions);
  }
  calibration_asks.clear();
  for (Command& c : actions.commands) runtime->Post(std::move(c));
  if (actions.load_scene) LoadScene(*actions.load_scene);
  if (actions.export_csv) ExportPlotCsv();
  if (actions.export_contacts) {
    ReportSave(ExportContacts(snapshot, ui.files.output_dir, &ui.contacts),
               ui.contacts.export_message);
  }
  if (actions.set_output_dir) SetOutputDirectory(*actions.set_output_dir);
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

// Read when asked for: the panels may have changed (hidden, shown) since the frame began.
MainViewFrame Application::Impl::MainView() const {
  const ImGuiIO& io = ImGui::GetIO();
  return {{io.DisplaySize.x, io.DisplaySize.y}, frame_period_s, FreeViewFraction()};
}

void Application::Impl::Draw(const Snapshot& snapshot, const Camera& view, bool panels_built,
                             FrameCapture* capture) {
  int fb_w = 0, fb_h = 0;
  window->FramebufferSize(&fb_w, &fb_h);
  const ImGuiIO& io = ImGui::GetIO();
  const Clock::time_point scene_start = Clock::now();
  if (const std::string error = drawing.DrawScene(snapshot, view, ui, ghost.get(), fb_w, fb_h,
                                                  io.DisplaySize.x, io.DisplaySize.y);
      !error.empty()) {
    AddError("renderer: " + error, &ui);
  }
  if (finish_parts) drawing.Finish();
  const Clock::time_point panels_start = Clock::now();
  if (const std::string error =
          drawing.DrawPanels(panels_built, ui.render_quality.quality(), fb_w, fb_h);
      !error.empty()) {
    AddError("panel layer: " + error, &ui);
  }
  if (finish_parts) drawing.Finish();
  last_cost.scene_ms = Milliseconds(panels_start - scene_start);
  last_cost.panels_ms = Milliseconds(Clock::now() - panels_start);
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
  const double swap_ms = last_cost.swap_ms = Milliseconds(Clock::now() - swap_start);
  if (const std::optional<Clock::time_point> due = pacing.EndFrame(work.wall_start, swap_ms)) {
    if (Clock::now() < *due) std::this_thread::sleep_until(*due);
  }
}

float Application::Impl::FreeViewFraction() const {
  int w = options.width, h = options.height;
  if (window) window->Size(&w, &h);
  return contactlab::FreeViewFraction(w, h, ui.show_panels);
}

void Application::Impl::LoadScene(const std::string& name_or_path) {
  if (std::optional<Command> load = scenes.Load(name_or_path, &ui)) {
    scenes.Posted(runtime->Post(std::move(*load)));
  }
}

void Application::Impl::DropFiles(const std::vector<std::string>& paths) {
  // A log is the Calibrate window's reference (shown); any other file is a scene.
  if (!paths.empty() && std::filesystem::path(paths.front()).extension() == ".csv") {
    calibration_asks.push_back({CalibrationRequest::Kind::kLoadLog, paths.front()});
    ui.calibration.show = true;
    return;
  }
  if (std::optional<Command> load = scenes.Drop(paths, &ui)) {
    scenes.Posted(runtime->Post(std::move(*load)));
  }
}

void Application::Impl::ExportPlotCsv() {
  const PlotData& plots = plot_feed.plots();
  const double t1 = ui.plot_window.End(plots), t0 = t1 - ui.plot_window.span_s;
  std::string error;
  const std::string path =
      ExportPath(ui.csv_path, ui.files.output_dir, "contactlab_plot", "csv", &error);
  if (path.empty()) return ReportSave(error, "");
  try {
    WritePlotCsv(path, plots, t0, t1);
  } catch (const std::exception& e) {
    return ReportSave(e.what(), "");
  }
  const auto [first, last] = plots.Range(t0, t1);
  const std::string message = "wrote " + std::to_string(last - first) + " rows to " + path;
  spdlog::info("{}", message);
  ReportSave("", message);
}

void Application::Impl::ExportShownPlot(int fb_w, int fb_h) {
  const int plot = std::clamp(ui.contacts.png_plot, 0, kNumPlots - 1);
  const float scale = ImGui::GetIO().DisplaySize.x > 0 ? fb_w / ImGui::GetIO().DisplaySize.x : 1;
  const std::string error = ExportPlotPng(drawing.ReadPixels(fb_w, fb_h), fb_w, fb_h, scale,
                                          ui.plot_views[plot], ui.files.output_dir, &ui.contacts);
  ReportSave(error, ui.contacts.export_message);
}

void Application::Impl::SaveScreenshot(int fb_w, int fb_h) {
  std::string error;
  const std::string path =
      NewOutputPath(ui.files.output_dir, "contactlab", "png", std::time(nullptr), &error);
  if (path.empty()) return ReportSave("screenshot not saved: " + error, "");
  try {
    WritePng(path, fb_w, fb_h, drawing.ReadPixels(fb_w, fb_h));
  } catch (const std::exception& e) {
    return ReportSave(e.what(), "");
  }
  spdlog::info("saved {}", path);
  ReportSave("", "saved " + path);
}

void Application::Impl::ReportSave(const std::string& error, const std::string& message) {
  if (!error.empty()) {
    ui.files.toasts.Push(error, ToastKind::kError);
    AddError(error, &ui);
    return;
  }
  ui.status = message;
  ui.files.toasts.Push(message);
}

void Application::Impl::SetOutputDirectory(const std::string& directory) {
  std::string absolute;
  if (const std::string error = PrepareOutputDirectory(directory, &absolute); !error.empty()) {
    ui.files.toasts.Push("output folder not changed: " + error, ToastKind::kError);
    return;
  }
  ui.files.output_dir = ui.files.output_dir_setting = absolute;
  ui.files.output_dir_field[0] = '\0';
  ui.recording.listed = false;  // its recordings, in the chooser
  spdlog::info("saving into {}", absolute);
  ui.files.toasts.Push("saving into " + absolute);
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

std::vector<std::string> Application::ToastTexts() const {
  std::vector<std::string> texts;
  for (const Toast& t : impl_->ui.files.toasts.toasts()) texts.push_back(t.text);
  return texts;
}

const std::string& Application::output_dir() const { return impl_->ui.files.output_dir; }

const std::string& Application::status_line() const { return impl_->ui.status; }

void Application::RequestCalibration(CalibrationRequest request) {
  impl_->ui.calibration.show = true;  // its buttons are in it
  impl_->calibration_asks.push_back(std::move(request));
}

const CalibrationPanelState& Application::calibration() const { return impl_->ui.calibration; }

void Application::WaitForCalibration() {
  Impl& a = *impl_;
  if (a.calibration.awaiting_run()) {
    // Paused or not, the sim thread copies the timeline between two steps.
    std::optional<RecordedRun> run;
    if (!WaitWithoutStall([&] { return (run = a.runtime->TakeRecordedRun()).has_value(); },
                          [&] { return a.runtime->Latest()->step_index; })) {
      throw std::runtime_error("the sim thread did not copy its timeline");
    }
    a.calibration.Update(std::move(run), a.runtime->Latest()->scene_generation, &a.ui);
  }
  a.calibration.WaitForFit();
}

}  // namespace contactlab
