// SimRuntime's internals (not a public header; docs/architecture.md §4, Threads): the loop and
// the command dispatch over the World and the parts it owns, each in a file pair of its own
// with its own tests: the Pacer, the TeleopSession, the TimelineBrowser, the GhostHost, the
// MouseSpring and the HydroelasticWorker.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/runtime/ghost_host.h"
#include "app/runtime/hydroelastic_worker.h"
#include "app/runtime/mouse_spring.h"
#include "app/runtime/pacer.h"
#include "app/runtime/sim_runtime.h"
#include "app/runtime/snapshot_publisher.h"
#include "app/runtime/spsc_ring.h"
#include "app/runtime/teleop_session.h"
#include "app/runtime/timeline_browser.h"
#include "app/teleop/peg_alignment.h"
#include "app/teleop/slip_meter.h"

namespace contactlab {

struct SimRuntime::Impl {
  using Clock = Pacer::Clock;

  // Builds the world (throws std::invalid_argument on an invalid scene).
  Impl(const SceneSpec& scene, double target_realtime_factor);

  // ---- Shared. Declared first: the parts report their errors through Error.
  SnapshotPublisher publisher{"sim runtime"};
  OverwritingSpscRing<PlotSample> plot_ring{kPlotCapacity};
  std::atomic<uint64_t> commands_processed{0};
  std::atomic<int> plot_body{-1};

  std::mutex mu;  // guards queue, commands_posted and stop; cv waits on it
  std::condition_variable cv;
  std::vector<Command> queue;
  uint64_t commands_posted = 0;
  bool stop = false;

  std::mutex errors_mu;
  std::vector<std::string> errors;

  std::mutex recorded_run_mu;  // guards recorded_run: the sim thread fills it, the UI takes it
  std::optional<RecordedRun> recorded_run;

  // ---- Sim-thread state (the constructor's thread before Start, then only the sim thread).
  std::unique_ptr<World> world;  // its scene (World::shared_scene) is shared by snapshots
  uint64_t scene_generation = 0;
  uint64_t step_index = 0;
  uint64_t run = 0;  // resets and scene loads so far (Snapshot::run)
  bool paused = false;
  int pending_single_steps = 0;
  double step_delay_s = 0;
  int selected_body = -1;
  std::optional<PegHole> peg_hole;  // of the scene (found at load), for the alignment aids
  int slip_hand = -1;               // of the scene (DefaultSlipHand, at load)
  SlipMeter slip_meter;             // the selected body's, else the held object's
  std::vector<Command> drained;     // swapped with `queue`, reused

  // The parts. The sim thread drives them; GhostHost's snapshots are read by any thread.
  Pacer pacer;
  TeleopSession teleop{[this](std::string m) { Error(std::move(m)); }};
  TimelineBrowser timeline;
  GhostHost ghosts{kGhostMaxLag_s, [this](std::string m) { Error(std::move(m)); }};
  MouseSpring spring{[this](std::string m) { Error(std::move(m)); }};

  std::thread thread;

  // Declared last: destroying it waits for a running build, whose end still signals mu/cv.
  HydroelasticWorker hydro{[this] { WakeUp(); }, [this](std::string m) { Error(std::move(m)); }};

  // The loop (sim_runtime.cc).
  void Run();
  void WakeUp();  // any thread: the loop re-checks its conditions
  void DoStep();
  void ApplyStepInputs();
  void PushPlotSample(double step_ms);
  void Publish();
  void Error(std::string message);
  void SelectBody(int body);  // and measures it with the slip meter
  void FinishHydroelasticBuild();
  // A reset or a new scene: the history, the view, a branch's replay, the ghost and the mouse
  // spring all belonged to the old run.
  void RestartHistory();
  void ShowRecord(int record);  // pauses and publishes the recorded step, recomputed
  void LeaveView();             // back to the head, if a recorded step is shown

  // The command dispatch, one handler per command.
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
  void Apply(command::SetHydroelastic& c);
  void Apply(command::Perturb& c);
  void Apply(command::StartGhost& c);
  void Apply(command::StopGhost&);
  void Apply(command::ShowTime& c);
  void Apply(command::StepTimeline& c);
  void Apply(command::Branch&);
  void Apply(command::StartRecording& c);
  void Apply(command::StopRecording&);
  void Apply(command::PlayReplay& c);
  void Apply(command::SelectInput& c);
  void Apply(command::ExportRecordedRun& c);
};

}  // namespace contactlab
