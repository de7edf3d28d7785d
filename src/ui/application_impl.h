// Application::Impl (application.h), shared by the files of its implementation: application.cc
// (construction and the frame) and application_runs.cc (the runs: Run, RunFrames, RunFor,
// RunSteppedFrames, Screenshot). It composes the parts that do the work, each owning its state:
// the window, the frame's drawing and pacing, the pointer over the view, the scene shown, the
// plots' feed, the stepping of the sim thread and the runs' statistics. Not for other users.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "ui/application.h"
#include "ui/calibration_session.h"
#include "ui/frame_drawing.h"
#include "ui/gui_run_stats.h"
#include "ui/main_view.h"
#include "ui/panel_refresh.h"
#include "ui/panels/inspect_panels.h"
#include "ui/plot_feed.h"
#include "ui/scene_session.h"
#include "ui/state/actions.h"
#include "ui/state/frame_pacing.h"
#include "ui/state/frame_timer.h"
#include "ui/state/key_events.h"
#include "ui/state/ui_state.h"
#include "ui/view/viewport_input.h"
#include "ui/window.h"

namespace contactlab {

struct Application::Impl {
  using Clock = std::chrono::steady_clock;

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
  FrameTimer timer;                            // the Solver panel's frame times
  PanelRefresh panel_refresh;                  // told of every input event (WindowEvents::on_input)
  KeyEventQueue key_events;                    // this frame's, for the keyboard device
  std::vector<MouseButtonEvent> mouse_events;  // this frame's, for the view's clicks

  UiState ui;
  InspectState inspect;
  SceneSession scenes;
  CalibrationSession calibration;                    // the Calibrate window's work
  std::vector<CalibrationRequest> calibration_asks;  // dropped logs, tests: at the next Execute
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
  FrameCost last_cost;                            // the last frame's parts
  bool finish_parts = false;  // glFinish after the scene and the panels (a traced run)

  // application.cc: construction.
  explicit Impl(const ApplicationOptions& o);
  ~Impl();
  void InitUiState();
  void StartSim();
  void RestoreSettings();
  void SaveSettings() const;
  void OpenWindow();
  void BuildRenderer();

  // application.cc: one frame of the render loop, the steps below in order. With `capture`,
  // the framebuffer of the frame is read back before the swap.
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
  void Execute(UiActions& actions, const Snapshot& snapshot);
  // The main view as it is now (ui/main_view.h): window size, frame period, free fraction.
  MainViewFrame MainView() const;
  // The scene and the panels into the framebuffer, then what is to be read back of it.
  void Draw(const Snapshot& snapshot, const Camera& view, bool panels_built, FrameCapture* capture);
  void ReadBack(int fb_w, int fb_h, FrameCapture* capture);
  // Swaps, then sleeps out the rest of the frame when no display paces the loop.
  void SwapAndPace(const FrameWork& work);

  // application.cc: what the panels ask for besides commands.
  float FreeViewFraction() const;
  void LoadScene(const std::string& name_or_path);
  void DropFiles(const std::vector<std::string>& paths);
  void ExportPlotCsv();
  // The plot the PNG button chose, from the framebuffer just drawn (exports.h).
  void ExportShownPlot(int fb_w, int fb_h);
  void SaveScreenshot(int fb_w, int fb_h);
  // A save's outcome: the status line, a toast (and the red banner for an error).
  void ReportSave(const std::string& error, const std::string& message);
  // The Files panel's folder, if it can be created and written (else an error toast).
  void SetOutputDirectory(const std::string& directory);

  // application_runs.cc. The sim thread exists (paused) from construction on; the first run
  // lets it go, and so does a free-running run after stepped ones.
  void EnsureStarted();
  // From free running to stepped frames: the sim paused, the frame clock stepped.
  void EnterStepping();
  // Until the paused sim thread has published step `step`; an error cuts it short (shown).
  void StepSimTo(uint64_t step);
  // To frame k (1-based) of a stepped run from `first`, frames `frame_period_s` apart: the
  // steps it shows at a fixed step (StepsAfterFrames), its simulated time under error control
  // (StepSimToTime: the steps vary).
  void StepSimToFrame(const Snapshot& first, int k, double frame_period_s);
  // One frame of a run, measured; the run's statistics at its end.
  void MeasuredFrame(GuiRunStats* stats);
  FrameStats Finish(const GuiRunStats& stats) const;
};

}  // namespace contactlab
