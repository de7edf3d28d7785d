// The real-time loop (docs/architecture.md, Threads): the sim thread owns the World, steps it at a
// fixed δt paced to a target real-time factor, and publishes a Snapshot after every step; the
// main thread reads the newest snapshot and posts commands, neither ever waiting on the other
// for more than a pointer swap.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

#include "app/runtime/ghost_runtime.h"
#include "app/runtime/recorded_run.h"
#include "app/runtime/snapshot.h"
#include "engine/world/world.h"
#include "input/input_spec.h"
#include "input/recorder.h"

namespace contactlab {

// How the error of a recording that could not start begins (command::StartRecording): the GUI
// shows it as a failed save.
inline constexpr std::string_view kRecordingNotStarted = "recording not started: ";

// Commands from the UI, applied by the sim thread between steps, in the order posted.
namespace command {
struct SetOverrides {          // contact parameters, δt, approximation (validated; a bad value is
  ContactOverrides overrides;  // rejected with an error message, the last good state kept);
};                             // overrides.clear drops per-pair overrides (exact scene values)
struct Pause {};
struct Resume {};
struct StepOnce {};  // while paused: one step
struct Reset {};     // the initial state of the scene, bit for bit
struct LoadScene {   // replaces the world (a bad scene is rejected, the old one kept)
  SceneSpec scene;
};
struct SetRealtimeFactor {  // 0: as fast as possible
  double factor = 1.0;
};
struct SelectPlotBody {  // whose forces the plot samples carry (scene body index)
  int body = -1;
};
struct SetArtificialStepDelay {  // testing and demos: sleep this long inside every step
  double seconds = 0;
};
struct SetTeleopOptions {                   // teleoperation settings; unset fields are kept
  std::optional<double> grip_force_N;       // finger effort limit, (0, the robot's max]; stops a
                                            // grip-force program (the slider overrides it)
  std::optional<bool> follow_grip_program;  // resume (true) or stop the scene's program
  std::optional<double> sensitivity;        // twist scale of live devices, [0.05, 10] (not replays)
  std::optional<TeleopFrame> frame;         // live devices' twists: their own frame, world or tool
  std::optional<double> circle_frequency_Hz;  // the scene's teleop circle, [0, 3] Hz
};
// Live hydroelastic E_h [Pa] and mesh resolution [m] (unset: kept) of one geometry (World
// order), or of every hydroelastic_compliant geometry (geometry = -1). Validated on arrival
// (a bad value is an error, nothing changes); the new mesh is built on a worker thread while
// the sim keeps stepping and swapped in between steps once ready, so the change shows up in a
// later snapshot (Snapshot::scene's GeometrySpec::hydroelastic), not necessarily the next one.
// A modulus change alone rescales the pressure field without re-meshing.
struct SetHydroelastic {
  int geometry = -1;
  std::optional<double> modulus_Pa;
  std::optional<double> resolution_m;
};
// The mouse spring (Perturbation): grab `body` at p_BoQ_B and pull it toward target_W from the
// next step on; posted again as the mouse moves. body −1 releases it. Logged when it starts
// and ends. A body that is not dynamic is rejected.
struct Perturb {
  int body = -1;
  Eigen::Vector3d p_BoQ_B = Eigen::Vector3d::Zero();
  Eigen::Vector3d target_W = Eigen::Vector3d::Zero();
};
// A ghost (GhostRuntime) from the current state: the main run's settings with `overrides`
// applied (validated: a bad value is an error and no ghost starts). Replaces a running ghost.
// A reset, a scene load or a branch stops it.
struct StartGhost {
  ContactOverrides overrides;
  std::string label;  // what differs, for the UI
};
struct StopGhost {};
// The timeline (Timeline). Pauses the run and shows the recorded step that was in progress
// at `time_s` (clamped to the history), recomputed from its record.
struct ShowTime {
  double time_s = 0;
};
// Shows the recorded step `steps` away from the one shown (the newest if none is): −1 back,
// +1 forward; past the newest, the head again. Pauses the run.
struct StepTimeline {
  int steps = 0;
};
// Continues from the step shown, with the settings now in force (changed while viewing, or
// those recorded), dropping the history after it; the recorded inputs that followed it are
// replayed, then live input takes over. A new run; still paused (Resume or StepOnce go on).
struct Branch {};
// Recording in the window (the replay CSV of --record): resets to the scene's initial state and
// records every teleoperation command applied from there, so that `--headless --input
// replay:FILE` reproduces the run bit for bit. A file that cannot be written is an error
// (beginning with kRecordingNotStarted).
struct StartRecording {
  std::string path;
};
struct StopRecording {};  // closes the file (also done by a new recording or a replay)
// Plays a replay CSV from the scene's initial state (a reset) in place of the live device; live
// input takes over where it ends. A malformed file is an error and nothing changes.
struct PlayReplay {
  std::string path;
};
// Switches the live teleoperation device (keyboard, space mouse or gamepad, each merged with the
// keyboard), between two steps. During a replay it is the device that takes over at its end.
struct SelectInput {
  InputSpec::Kind kind = InputSpec::Kind::kKeyboard;  // kReplay is PlayReplay's
};
// Copies the main run's timeline (ExportRecordedRun) for a fit of the scene to its own run
// (the Calibrate panel); the copy, tagged with `request`, is taken by TakeRecordedRun.
struct ExportRecordedRun {
  uint64_t request = 0;
};
}  // namespace command

using Command =
    std::variant<command::SetOverrides, command::Pause, command::Resume, command::StepOnce,
                 command::Reset, command::LoadScene, command::SetRealtimeFactor,
                 command::SelectPlotBody, command::SetArtificialStepDelay,
                 command::SetTeleopOptions, command::SetHydroelastic, command::Perturb,
                 command::StartGhost, command::StopGhost, command::ShowTime, command::StepTimeline,
                 command::Branch, command::StartRecording, command::StopRecording,
                 command::PlayReplay, command::SelectInput, command::ExportRecordedRun>;

// One sample per simulated step for the live plots (a lossless stream, unlike snapshots, which
// the renderer may skip).
struct PlotSample {
  double time_s = 0;
  double normal_force_N = 0;      // |net normal contact force| on the selected body
  double friction_force_N = 0;    // |net friction force| on the selected body
  double slip_speed_m_per_s = 0;  // of the selected body's strongest contact
  double signed_distance_m = 0;   // of that contact (ContactResult::signed_distance_m)
  int iterations = 0;
  // The rigid model's stage (docs/contact-model.md §8): its barrier method's Newton steps
  // (StepStats::rigid); 0 under the compliant models and in a step with no contact acting.
  int barrier_iterations = 0;
  double step_ms = 0;
  bool converged = true;  // the step's solve met its tolerance
  // Teleoperation: |net normal contact force| on the leader finger [N] (0 without a robot).
  double grip_force_N = 0;
  uint64_t run = 0;         // Snapshot::run of the step (a reset or a new scene starts a new run)
  uint64_t step_index = 0;  // Snapshot::step_index of the step
  // The step's size and, under error control (docs/contact-model.md §1.2), its error estimate,
  // the accuracy asked, the attempts rejected before it and whether it was at the floor.
  double dt_s = 0, error_estimate = 0, accuracy = 0;
  int num_rejected = 0;
  bool error_controlled = false, at_step_floor = false;
  std::array<double, 3> body_position_W{};  // of the selected body (the ghost's differences)
  // The slip meter's slip speed over the step (SlipReading::v_slip_H) [m/s]; NaN when the meter
  // measures nothing or has no step since its restart.
  double meter_slip_speed_m_per_s = 0;
};

// The body whose forces the plots show first (the runtime's plot samples and the UI): the
// scene's held object if it declares one, else in a teleoperation scene the first free-floating
// body (the peg; the robot's links hang on joints), else the first dynamic body; −1 if none.
int DefaultPlotBody(const SceneSpec& scene);

class SimRuntime {
 public:
  // Builds the world (throws std::invalid_argument on an invalid scene). Does not start.
  explicit SimRuntime(const SceneSpec& scene, double target_realtime_factor = 1.0);
  ~SimRuntime();  // stops the thread
  SimRuntime(const SimRuntime&) = delete;
  SimRuntime& operator=(const SimRuntime&) = delete;

  // Teleoperation: in a scene with a robot arm (FindTeleopConfig), before every step the
  // runtime polls devices.active at the simulation time and a TeleopController turns the
  // command into PD targets (rebuilt for every scene loaded, reset with the world). Call before
  // Start(). Without devices a robot scene simply holds its initial targets.
  void SetInputDevices(InputDevices devices);
  // Records every teleoperation command applied (in world axes: TeleopController::InWorldAxes)
  // for a bit-exact replay; rows at a reset (time rewound) are dropped. Call before Start().
  void SetRecorder(std::unique_ptr<Recorder> recorder);
  // The keyboard device the GUI feeds key events to (thread-safe; null without devices).
  std::shared_ptr<KeyboardDevice> keyboard() const;
  // The gamepad device the GUI feeds the pad's state to (thread-safe; null without devices).
  std::shared_ptr<GamepadDevice> gamepad() const;

  void Start();
  void Stop();  // joins; idempotent

  // Main thread. Never blocks for longer than a queue push or a pointer swap. Returns the
  // command's number n (1 the first posted): commands_processed() >= n once it is handled.
  uint64_t Post(Command c);
  // The newest complete snapshot (never null after construction: the initial state is
  // published before Start). Holding it keeps it alive and unchanged.
  std::shared_ptr<const Snapshot> Latest() const;
  // Moves the plot samples produced since the last call into `out` (appends). Samples beyond
  // the ring's capacity (a few seconds of steps) are dropped oldest-first, counted.
  void DrainPlotSamples(std::vector<PlotSample>* out);
  // Errors from rejected commands and failed steps since the last call (e.g. "--stiffness must
  // be positive").
  std::vector<std::string> TakeErrors();
  // The copy of the timeline the last command::ExportRecordedRun asked for, once it is made
  // (nullopt before, and after it was taken): a short lock, as TakeErrors.
  std::optional<RecordedRun> TakeRecordedRun();

  // Any thread. Commands the sim thread has taken off the queue and handled (applied or
  // rejected), in posting order: after Post() number n, commands_processed() >= n means it
  // has taken effect: while paused, Latest() shows it; while running, the next snapshot does.
  uint64_t commands_processed() const;
  // Plot samples lost because DrainPlotSamples was not called often enough.
  uint64_t plot_samples_dropped() const;
  // The scene body the plot samples describe (-1: none). Defaults to the first dynamic body.
  int plot_body() const;
  // Capacity of the plot sample ring (steps).
  static constexpr size_t kPlotCapacity = 8192;

  // The ghost's newest snapshot (null without a ready ghost) and its samples since the last
  // call. Never waits for the ghost or the sim thread beyond a pointer copy.
  std::shared_ptr<const Snapshot> LatestGhost() const;
  void DrainGhostSamples(std::vector<GhostSample>* out);

  // The timeline keeps this much simulated time at the scene's δt, within this much memory
  // (peg_in_hole at 1 ms: 40 s in 37 MB; clutter: about 16 s at 2 ms).
  static constexpr double kTimelineDuration_s = 40.0;
  static constexpr size_t kTimelineBudget_bytes = size_t{64} << 20;
  // A ghost may lag this much simulated time behind before it is stopped.
  static constexpr double kGhostMaxLag_s = 10.0;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace contactlab
