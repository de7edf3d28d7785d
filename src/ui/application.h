// The GUI application shell (docs/architecture.md, Threads): a GLFW window with an OpenGL 3.3 core
// context, Dear ImGui, the Renderer, and a SimRuntime whose sim thread steps the world. The main
// loop runs at display rate: take the newest snapshot (never waiting for a solve), render it,
// draw the panels, post the user's commands.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/runtime/snapshot.h"
#include "engine/world/scene_spec.h"
#include "render/contact_colors.h"
#include "render/vector_scaling.h"
#include "ui/state/calibration_state.h"
#include "ui/view/viewport_input.h"  // PointerInput

namespace contactlab {

// Why the GUI could not start. kNoDisplay: no X display / window system (exit code 2);
// kNoOpenGl: no OpenGL 3.3 core context.
class GuiError : public std::runtime_error {
 public:
  // kBadInput: an --input or --record argument that cannot be used (exit code 2, like
  // kNoDisplay).
  enum class Kind { kNoDisplay, kNoOpenGl, kBadInput, kOther };
  GuiError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

struct ApplicationOptions {
  SceneSpec scene;               // loaded, command-line overrides applied
  SceneSpec scene_defaults;      // the scene as its file gives it (the panels' reset values)
  std::string scene_name;        // shown in the scene picker (built-in name or path)
  double realtime_factor = 1.0;  // 0: as fast as possible
  int width = 1280, height = 720;
  bool visible = true;  // false: a hidden window (tests, screenshots)
  bool vsync = true;
  // Render-rate cap [frames/s] when the display does not pace the loop (vsync off, or without
  // effect as under Xvfb): a frame that finishes early sleeps for the rest of its period, so
  // that the render loop leaves the CPU to the sim thread. 0: uncapped. Not in screenshots.
  double max_fps = 60.0;
  int msaa_samples = 4;  // the scene's samples per pixel at the best render quality
  // Lower the render quality (samples, shadow resolution, the panels' rate, the 3-D view's
  // resolution) while the frame rate is below 30 fps, raise it again when frames are fast
  // (ui/state/auto_quality.h); false: keep the best.
  bool auto_quality = true;
  // ≥ 0: the render quality fixed at this level of the ladder from the start (0 the best; the
  // last ones slow the panels and scale the 3-D view; ui/state/auto_quality.h), whatever
  // auto_quality says.
  int quality_level = -1;
  std::string shader_dir;              // empty: ShaderDirectory()
  double artificial_step_delay_s = 0;  // testing: the solver made slow
  // Teleoperation input (--input): keyboard | spacemouse (merged with the keyboard) |
  // replay:FILE.
  std::string input = "spacemouse";
  std::string record_path;  // non-empty: record the applied teleoperation commands (CSV)
  // Nice increment of the render (main) thread and of the GL driver's threads it creates: the
  // sim thread keeps priority over rendering. 0: leave priorities alone.
  int render_thread_nice = 10;
  // What colours the contact points at start (--contact-colors; the Contacts panel changes it).
  ContactColorMode contact_colors = ContactColorMode::kState;
  // The contact views at start (--contact-view: ApplyContactViewList; "" as saved or the
  // defaults) and their arrows' scaling (--vector-scale; unset: as saved), over the settings.
  std::string contact_views;
  std::optional<VectorScaling> vector_scaling;
  // The directory of the GUI's settings (ui/state/gui_settings.h), read at start and written when
  // the Application ends; empty: none (tests, screenshots, --no-settings). With
  // window_size_from_settings the saved window size replaces width × height.
  std::string settings_dir;
  bool window_size_from_settings = false;
  // The main camera at start (--camera): a camera of the scene, "free" (the orbit camera), or
  // "" (the scene's default: `task` if it has one). Checked with CheckCameraName.
  std::string camera;
  // A ghost run from the start with this approximation (--ghost) and/or this integrator
  // (--ghost-integrator); neither: none.
  std::optional<ContactApproximation> ghost;
  std::optional<TimeIntegration> ghost_integrator;
  // Where the files saved without a path go (--output-dir; io/output_folder.h); "": the folder
  // chosen in the window (saved settings), else DefaultOutputDirectory().
  std::string output_dir;
};

// What a run of frames did (RunFrames / RunFor).
struct FrameStats {
  int frames = 0;
  double wall_s = 0;
  double mean_frame_ms = 0, max_frame_ms = 0;  // frame period (start to start)
  double mean_work_ms = 0;                     // contactlab's own CPU time per frame
  uint64_t sim_steps = 0;   // steps the sim thread took meanwhile (snapshot step index delta)
  double sim_time_s = 0;    // simulated time at the end
  size_t errors = 0;        // messages in the error banner at the end
  double ghost_lag_s = -1;  // how far a ghost run was behind at the end (−1: no ghost)
  int quality_level = 0;    // the render quality's level at the end (ui/state/auto_quality.h)
};

// Wall time of a frame's parts [ms]: the 3-D scene (shadow map, main view, inset, scaled to the
// window), the panels (built and drawn, or their layer blended) and the buffer swap. In a run
// with a trace each part ends with glFinish, so that the GL's work is counted in the part that
// asked for it, not in the swap (a software renderer draws at the flush).
struct FrameCost {
  double scene_ms = 0, panels_ms = 0, swap_ms = 0;
};

// Per frame of a run (RunFor with a trace), for --gui-stats.
struct FrameTrace {
  std::vector<double> frame_ms;     // frame period, start to start (swap and cap sleep included)
  std::vector<double> work_ms;      // wall time in our code: frame start to just before the swap
  std::vector<double> work_cpu_ms;  // the render thread's CPU time over the same span
  // Where the frame's wall time went (FrameCost): the 3-D scene, the panels and the swap.
  std::vector<double> scene_ms, panels_ms, swap_ms;
  // The newest snapshot at each frame: when the sim thread published it (seconds since the run
  // began) and its simulated time. Samples of the sim thread's progress, exact to the step.
  std::vector<double> published_s, sim_time_s;
  std::vector<int>
      quality_level;          // the render quality's level (ui/state/auto_quality.h), 0 the best
  std::string final_quality;  // QualityLabel of the last frame's quality
};

class Application {
 public:
  // Opens the window and starts the sim thread. Throws GuiError when there is no display or no
  // OpenGL 3.3, std::invalid_argument for an invalid scene. A renderer that fails to build (a
  // shader error) is not fatal: the message is shown in the UI (see render_error()).
  explicit Application(const ApplicationOptions& options);
  ~Application();
  Application(const Application&) = delete;
  Application& operator=(const Application&) = delete;

  // The interactive loop, until the window is closed (or Ctrl+Q). Returns an exit code.
  int Run();

  // Runs n frames of the normal loop (never waiting for the solver) / frames for a wall time.
  // The sim thread runs free, paced to wall time (resumed if a stepped run paused it).
  FrameStats RunFrames(int n);
  // With a trace, every frame's parts end with glFinish (FrameCost).
  FrameStats RunFor(double seconds, FrameTrace* trace = nullptr);

  // Frames in lockstep with simulated time (tests, scripted demos): the sim thread is paused
  // and the application steps it so that each frame shows frame_period_s × realtime_factor more
  // simulated time (rounded down to whole steps), and the frame clock that the automatic render
  // quality, the panels' refresh and the camera's easing read advances by frame_period_s a
  // frame. What the n frames show and do then depends on n alone, not on how fast the machine
  // renders or solves. Throws std::invalid_argument for a period ≤ 0, std::runtime_error when the
  // sim thread takes no step for two minutes.
  FrameStats RunSteppedFrames(int n, double frame_period_s = 1.0 / 60.0);

  // Screenshot mode, deterministic: the sim is paused and stepped by the application so that
  // frame k (1-based) shows the state at t = k × (1/60 s) × realtime_factor (rounded down to
  // whole steps) however slow the machine is; after `frames` frames the framebuffer of the last
  // one (scene and panels; the camera aimed at the bodies where they are then) is saved as a PNG.
  // The sim stays paused afterwards. Must be the first run of the Application. Throws
  // std::runtime_error on failure (the renderer could not be built, the simulation failed or
  // stalled, the file can't be written).
  void Screenshot(int frames, const std::string& png_path);

  // Synthetic pointer input, used instead of the mouse from the next frame on (nullopt: the
  // mouse again); a double_click counts for one frame. Picking (double-click selects a body)
  // and pushing (Ctrl+drag) then work as with the mouse.
  void SetSyntheticPointer(std::optional<PointerInput> pointer);
  // Files dropped on the window (GLFW's drop callback calls this too): a log (.csv) first is
  // the Calibrate window's reference (opened); else the first that is a scene (.yaml) or a URDF
  // (wrapped in a minimal scene, io/dropped_file.h) is loaded; anything else is an error in the
  // red banner, and the scene stays.
  void DropFiles(const std::vector<std::string>& paths);
  // A key event as GLFW delivers it (GLFW_KEY_*, GLFW_PRESS / GLFW_RELEASE), through the
  // window's key callback: tests and scripted demos press keys as a person does.
  void SendKey(int glfw_key, int action);
  // Where p_W appears in the window with the last frame's camera (pixels, y down).
  std::optional<Eigen::Vector2f> ProjectToWindow(const Eigen::Vector3d& p_W) const;
  // The newest snapshot of the sim thread, and the body picked by double-click (−1: none).
  std::shared_ptr<const Snapshot> LatestSnapshot() const;
  int selected_body() const;
  // The toasts shown now (ui/state/toast_queue.h): a save's confirmation or error.
  std::vector<std::string> ToastTexts() const;
  // The folder the window saves into (ApplicationOptions::output_dir).
  const std::string& output_dir() const;
  // The sidebar's one-line status (e.g. "loaded mug_rack").
  const std::string& status_line() const;

  // A shader or renderer error ("" if the renderer is fine).
  const std::string& render_error() const;

  // The Calibrate window (ui/panels/calibrate_panel.h), for tests and scripts: a request as its
  // buttons make it, carried out at the next frame that builds the panels; what it shows; and a
  // wait until nothing it asked for is under way — a copy of the timeline has come and a fit has
  // ended (its thread joined) — whose outcome it shows from the next frame. Only this waits;
  // the window never does. Throws std::runtime_error if the sim thread stalls.
  void RequestCalibration(CalibrationRequest request);
  const CalibrationPanelState& calibration() const;
  void WaitForCalibration();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Names of the built-in scenes (assets/scenes/*.yaml), sorted.
std::vector<std::string> BuiltinSceneNames();

}  // namespace contactlab
