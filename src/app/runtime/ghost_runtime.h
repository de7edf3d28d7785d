// A ghost: a second world stepped beside the main run on its own thread (docs/architecture.md,
// Ghost). Started from the main run's state with other contact settings (another
// approximation, other parameters, another integrator), it is fed the main run's step inputs
// (actuation from teleoperation or scripts, the user's pushes) stamped with the time each main
// step starts, and steps its own sizes: before each of its steps it applies the newest inputs
// stamped at or before its time (a zero-order hold), and it steps only once an input stamped at
// or after its time has arrived, so it never guesses one. Under the main run's own settings its
// steps are the main run's, bit for bit (lock-step). It publishes its own snapshots, drawn as a
// translucent ghost. The main run never waits for it: inputs go through a preallocated queue; a
// ghost that cannot keep up lags behind and says by how much (in seconds), and one a whole
// queue behind is stopped.
#pragma once

#include <Eigen/Core>
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/runtime/snapshot_publisher.h"
#include "app/runtime/spsc_ring.h"
#include "app/runtime/step_inputs.h"

namespace contactlab {

// Where a ghost starts: a copy of the main run at a step boundary, with its own settings.
struct GhostStart {
  std::shared_ptr<const SceneSpec> scene;
  uint64_t scene_generation = 0;
  std::vector<HydroelasticRepresentation> hydroelastic;  // the main run's, in force
  ContactSettings settings;  // the main run's with the ghost's overrides applied
  Eigen::VectorXd q, v;
  double time_s = 0;
  World::StepSizeState step_sizes;  // the main run's (World::step_size_state)
  StepInputs inputs;                // in force at the start
  uint64_t step_index = 0;          // the main run's
  std::string label;                // what differs, for the UI ("SAP", "μ = 0.3", ...)
};

// One ghost step, for the difference plots (matched to the main run's by time: ui/plot_feed).
struct GhostSample {
  uint64_t step_index = 0;  // the main run's at the start plus the ghost's steps since
  double time_s = 0;
  std::array<double, 3> body_position_W{};  // of the main run's plot body
  double normal_force_N = 0, slip_speed_m_per_s = 0;
};

class GhostRuntime {
 public:
  // Starts the ghost's thread, which builds its world (hydroelastic meshes included: this can
  // take a while, off the main run's thread). Room for `queue_steps` steps of lag.
  GhostRuntime(GhostStart start, int queue_steps);
  ~GhostRuntime();  // stops and joins: waits for at most the step or build under way
  GhostRuntime(const GhostRuntime&) = delete;
  GhostRuntime& operator=(const GhostRuntime&) = delete;

  // The main run's thread, right before its step: queues that step's inputs, its plot body and
  // its start time `time_s` (increasing). Never blocks; false when the queue is full (the
  // caller stops the ghost).
  bool Push(const StepInputs& inputs, int plot_body, double time_s);
  void RequestStop();  // any thread; does not wait

  // Any thread.
  std::shared_ptr<const Snapshot> Latest() const { return publisher_.Latest(); }
  void DrainSamples(std::vector<GhostSample>* out) { samples_.Drain(out); }
  bool ready() const { return ready_.load(std::memory_order_acquire); }  // world built
  bool finished() const { return finished_.load(std::memory_order_acquire); }
  double time_s() const { return time_s_.load(std::memory_order_relaxed); }  // its world's
  std::string error() const;  // why it stopped by itself ("" if it did not)
  const std::string& label() const { return label_; }
  int queue_steps() const { return static_cast<int>(slots_.size()); }

 private:
  struct Slot {
    StepInputs inputs;
    int plot_body = -1;
    double time_s = 0;
  };
  void Run(GhostStart start);
  // *next_input_s: the stamp of the next input queued (∞ if none), where the step must end.
  bool TakeDueInputs(World* world, double* next_input_s);
  void StepOnce(World* world, uint64_t step_index, double end_time_s);
  void Fail(std::string message);

  const std::string label_;
  const uint64_t scene_generation_;
  // The queue: written at pushed_, read at taken_. A slot is taken (and free) once applied:
  // the ghost's world then holds its inputs.
  std::vector<Slot> slots_;
  std::atomic<uint64_t> pushed_{0}, taken_{0};
  std::atomic<double> time_s_{0};
  // The ghost thread's: the inputs in force, stamped at in_force_s_ (their plot body).
  double in_force_s_ = -std::numeric_limits<double>::infinity();  // none before the first push
  int plot_body_ = -1;
  std::atomic<uint64_t> wake_{0};  // bumped (and notified) on every push and on a stop
  std::atomic<bool> stop_{false}, ready_{false}, finished_{false};
  SnapshotPublisher publisher_{"ghost"};
  OverwritingSpscRing<GhostSample> samples_;
  mutable std::mutex error_mu_;
  std::string error_;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace contactlab
