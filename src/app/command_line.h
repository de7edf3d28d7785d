// The command line of docs/architecture.md §7 ("Command line").
#pragma once

#include <optional>
#include <string>

#include "engine/world/scene_spec.h"

namespace contactlab {

struct CommandLine {
  bool headless = false;
  std::string scene = "peg_in_hole";  // the default scene: a gripper on an arm, live
  std::optional<double> duration_s;
  ContactOverrides overrides;
  std::string input;
  std::string record_path;  // --record: the teleoperation commands applied, as a replay CSV
  std::string log_path, summary_path;
  std::string contact_log_path;               // --log-contacts
  // --log-solver, --log-newton and --hessian-condition (headless; app/headless/solver_log.h):
  // the solver's convergence and conditioning per step and per Newton iterate.
  std::string solver_log_path, newton_log_path;
  bool hessian_condition = false;
  std::optional<ContactApproximation> ghost;  // --ghost (GUI): a ghost run from the start
  // --ghost-integrator (GUI): a ghost run from the start under this integrator (with --ghost's
  // approximation, else the main run's).
  std::optional<TimeIntegration> ghost_integrator;
  std::optional<double> realtime_factor;
  // --circle-frequency HZ: the frequency of the scene's teleop circle (a scene without one is
  // bad input: app/teleop/teleop_program.h).
  std::optional<double> circle_frequency_Hz;
  // --stop-on-failure (headless): the run ends at the step its held object fails
  // (app/headless/grasp_failure.h), for sweeps of the time to failure.
  bool stop_on_failure = false;
  // --threads N (headless): threads that share a step's islands, 1–64; default: 2 on a machine
  // with two cores or more (the GUI's sim thread solves alone: the render thread has the other).
  std::optional<int> solver_threads;
  std::string screenshot_path;
  int frames = 0;
  // GUI and screenshot window size in pixels (--window-size WxH); 0: the default.
  int window_width = 0, window_height = 0;
  // GUI render-rate cap [frames/s] when the display does not pace the loop (no vsync, e.g.
  // Xvfb); 0: uncapped. Default: ApplicationOptions::max_fps.
  std::optional<double> max_fps;
  int msaa_samples = -1;  // --msaa N: multisample anti-aliasing samples (-1: the default, 4)
  // --fixed-quality: the GUI keeps --msaa, its shadow map's size and the 3-D view's full
  // resolution however slow the frames (else the render quality drops below 30 fps:
  // ui/state/auto_quality.h).
  bool fixed_quality = false;
  // --gui-stats FILE: run the GUI for --duration seconds of wall time, write frame and sim
  // timing statistics as JSON, exit.
  std::string gui_stats_path;
  // --contact-colors state|gliding|slip: the GUI's contact point colours at start (validated
  // here against kContactColorModes; "" the default, by state).
  std::string contact_colors;
  // --contact-view LIST: the GUI's contact views at start, a comma-separated list of
  // kContactViews (those listed on, the others off; "none": all off), and --vector-scale
  // linear|log|fixed their arrows' scaling (validated here; "" as the settings have them).
  std::string contact_views, vector_scale;
  // --camera NAME: the GUI's (and --screenshot's) main camera, a camera of the scene or "free"
  // (checked against the scene once it is loaded); "" the scene's default.
  std::string camera;
  // --output-dir DIR: where the GUI saves what the user gave no path for (recordings, F12
  // screenshots, exports; io/output_folder.h), checked (created, writable) and made absolute
  // here; "" the GUI's setting or DefaultOutputDirectory().
  std::string output_dir;
  bool verbose = false;
  bool no_settings = false;  // --no-settings: the GUI neither reads nor writes its settings file
};

// The values --contact-colors takes.
inline constexpr const char* kContactColorModes[] = {"state", "gliding", "slip"};
// The contact views --contact-view switches (forces: the normal and friction force arrows), and
// the values of --vector-scale.
inline constexpr const char* kContactViews[] = {"forces", "traction", "slip", "wireframe", "none"};
inline constexpr const char* kVectorScales[] = {"linear", "log", "fixed"};

// Parses "WxH" (each 64–8192); false on anything else.
bool ParseWindowSize(const std::string& text, int* width, int* height);

// Exit codes: 0 success, 2 bad input (arguments, scene), 3 the run failed (non-finite state),
// 1 anything else (I/O).
enum ExitCode { kExitOk = 0, kExitError = 1, kExitBadInput = 2, kExitRunFailed = 3 };

// An error line quotes users' files: it stays one printable line of at most this many
// characters (io/printable_text.h).
inline constexpr size_t kMaxErrorLineChars = 400;

// Parses argv and checks the options against each other and against this build (gui_built:
// whether it has the GUI). On --help prints usage and returns kExitOk with *exit_now = true; on
// a bad argument prints one line and returns kExitBadInput with *exit_now = true.
int ParseCommandLine(int argc, char** argv, bool gui_built, CommandLine* out, bool* exit_now);

}  // namespace contactlab
