// SimRuntime's internals, shared by its source files (not a public header): sim_runtime.cc (the
// loop, pacing, commands, publishing, teleoperation and hydroelastic changes) and
// sim_runtime_debugging.cc (the step inputs, the mouse spring, the ghost and the timeline).
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/runtime/ghost_runtime.h"
#include "app/runtime/sim_runtime.h"
#include "app/runtime/snapshot_publisher.h"
#include "app/runtime/spsc_ring.h"
#include "app/runtime/step_inputs.h"
#include "app/runtime/timeline.h"
#include "app/teleop/perturbation.h"
#include "app/teleop/teleop_controller.h"
#include "input/replay_device.h"

namespace contactlab {

namespace sim_runtime_internal {
using Clock = std::chrono::steady_clock;
// Achieved real-time factor: sim time over wall time across the oldest of these marks, one
// taken every kRateMarkInterval (sim_runtime.cc), i.e. a sliding window of about 0.5 s.
inline constexpr int kRateMarks = 11;
}  // namespace sim_runtime_internal

struct SimRuntime::Impl {
  using Clock = sim_runtime_internal::Clock;
  static constexpr int kRateMarks = sim_runtime_internal::kRateMarks;

  // ---- Sim-thread state (the constructor's thread before Start, then only the sim thread).
  std::unique_ptr<World> world;  // its scene (World::shared_scene) is shared by snapshots
  uint64_t scene_generation = 0;
  uint64_t step_index = 0;
  uint64_t run = 0;  // resets and scene loads so far (Snapshot::run)
  bool paused = false;
  int pending_single_steps = 0;
  double target_factor = 1.0;
  double step_delay_s = 0;
  int selected_body = -1;

  // Teleoperation (sim thread only after Start).
  InputDevices devices;
  std::unique_ptr<Recorder> recorder;
  std::unique_ptr<TeleopController> teleop;
  double teleop_sensitivity = 1.0;
  TeleopFrame teleop_frame = TeleopFrame::kDeviceOwn;
  std::optional<double> grip_force_N;      // set by the UI; else the robot's default
  std::string device_name, device_status;  // refreshed every kStatusRefreshSteps (no per-step
                                           // string building)
  bool device_connected = true;
  double grip_force_N_measured = 0;  // |net normal force| on the leader finger, last step

  // Pacing: the next step is due when the wall clock reaches
  // pace_wall + (sim_total + dt − pace_sim) / target_factor.
  bool pace_valid = false;
  Clock::time_point pace_wall;
  double pace_sim = 0;
  double sim_total = 0;  // simulated seconds ever stepped (monotone across resets and scenes)

  struct RateMark {
    Clock::time_point wall;
    double sim = 0;
  };
  std::array<RateMark, kRateMarks> rate_marks;
  int rate_count = 0, rate_newest = -1;
  double achieved_factor = 0;

  std::vector<Command> drained;  // swapped with `queue`, reused

  // The timeline (Timeline): recorded before every step. While a recorded step is shown,
  // `view` is its record (−1: the head is shown); a branch replays `replay` from replay_next.
  std::unique_ptr<Timeline> timeline;
  int view = -1;
  bool settings_edited_in_view = false;
  std::vector<StepInputs> replay;
  size_t replay_next = 0;
  StepInputs step_inputs;  // the step's, captured for the timeline and the ghost (reused)

  // The mouse spring, and its record for the log line at its release.
  Perturbation perturbation;
  double perturbation_start_s = 0, perturbation_peak_N = 0;

  // The ghost: created, replaced and reset by the sim thread under ghost_mu (which the main
  // thread takes to read its snapshots); a stopped ghost waits in `retired` until its thread
  // has ended, so that joining it never stalls a step.
  std::unique_ptr<GhostRuntime> ghost;
  std::vector<std::unique_ptr<GhostRuntime>> retired;
  std::string ghost_stopped_reason;
  mutable std::mutex ghost_mu;

  // ---- Shared.
  SnapshotPublisher publisher{"sim runtime"};
  OverwritingSpscRing<PlotSample> plot_ring{kPlotCapacity};
  std::atomic<uint64_t> commands_processed{0};
  std::atomic<int> plot_body{-1};

  std::mutex mu;  // guards queue and stop; cv waits on it
  std::condition_variable cv;
  std::vector<Command> queue;
  bool stop = false;

  std::mutex errors_mu;
  std::vector<std::string> errors;

  std::thread thread;

  void Run();
  void ApplyCommands();
  void Apply(command::SetOverrides& c);
  void Apply(command::Pause&);
  void Apply(command::Resume&);
  void Apply(command::StepOnce&);
  void Apply(command::Reset&);
  void Apply(command::LoadScene& c);
  void Apply(command::SetRealtimeFactor& c);
  void Apply(command::SelectPlotBody& c);
  void Apply(command::SetArtificialStepDelay& c);
  void Apply(command::SetTeleopOptions& c);
  void RebuildTeleop();
  void UpdateTeleop();
  void FillTeleopView(Snapshot* s) const;
  void DoStep();
  void PushPlotSample(double step_ms);
  void UpdateAchievedFactor(Clock::time_point now);
  void ClearRateWindow() {
    rate_count = 0;
    rate_newest = -1;
    achieved_factor = 0;
  }
  void Publish();
  void Error(std::string message);
  void Apply(command::Perturb& c);
  void Apply(command::StartGhost& c);
  void Apply(command::StopGhost&);
  void Apply(command::ShowTime& c);
  void Apply(command::StepTimeline& c);
  void Apply(command::Branch&);
  void ApplyStepInputs();
  void EndPerturbation();
  void StopGhost(std::string reason);
  void FeedGhost();
  void ShowRecord(int record);
  void LeaveView();
  void RestartHistory();
  void FillViews(Snapshot* s) const;
  // Recording and replaying in the window (sim_runtime_recording.cc).
  std::shared_ptr<InputDevice> live_device;  // set aside while a replay plays
  std::shared_ptr<ReplayDevice> replay_device;
  std::string last_recording_path;
  void Apply(command::StartRecording& c);
  void Apply(command::StopRecording&);
  void Apply(command::PlayReplay& c);
  void Apply(command::SelectInput& c);
  void StopRecordingFile();
  void EndReplayIfDone();
  void FillRecordingView(Snapshot* s) const;
  std::optional<PegHole> peg_hole;  // of the scene (found at load), for the alignment aids
  void LogTimeline() const {
    const double MB = static_cast<double>(timeline->memory_bytes()) / (1024.0 * 1024.0);
    spdlog::debug(
        "sim runtime: timeline of {} steps ({:.0f} s at dt = {} s): {:.1f} MB, {:.2f} MB "
        "per 10 s",
        timeline->capacity(), timeline->capacity() * world->dt(), world->dt(), MB,
        MB * 10.0 / (timeline->capacity() * world->dt()));
  }
  void SelectBody(int body) {
    selected_body = body;
    plot_body.store(body, std::memory_order_relaxed);
  }

  // ---- Live hydroelastic changes (command::SetHydroelastic): validated on arrival, built one
  // job at a time on a worker thread (meshing can take a second; the sim thread never waits for
  // it), swapped into the World between steps. Declared last: destroying hydro_build waits for
  // a running worker, which still signals mu/cv.
  struct HydroelasticJob {
    uint64_t scene_generation = 0;
    std::vector<int> geometries;
    std::optional<double> modulus_Pa, resolution_m;
  };
  struct HydroelasticBuilt {
    uint64_t scene_generation = 0;
    std::vector<std::pair<int, HydroelasticRepresentation>> geometries;
    std::string error;  // empty on success
    double build_ms = 0;
  };
  std::deque<HydroelasticJob> hydro_waiting;   // sim thread
  bool hydro_ready = false;                    // guarded by mu: the worker is done (wakes Run)
  std::future<HydroelasticBuilt> hydro_build;  // the job being built (valid() while it runs)
  void Apply(command::SetHydroelastic& c);
  void StartHydroelasticBuild();
  void FinishHydroelasticBuild();
};

}  // namespace contactlab
