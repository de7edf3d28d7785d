// The sim thread's side of the ghost (docs/architecture.md §4, Ghost): starts a GhostRuntime
// from the main run at a step boundary, feeds it the main run's step inputs, and stops it
// without ever waiting for its thread: a stopped ghost is kept until its thread has ended and
// joined only then, so that joining never stalls a step.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "app/runtime/ghost_runtime.h"
#include "app/runtime/snapshot.h"
#include "app/runtime/step_inputs.h"
#include "engine/world/world.h"

namespace contactlab {

class GhostHost {
 public:
  // A ghost a whole queue behind is stopped: the queue holds `max_lag_s` of the main run's
  // steps at δt (δt_max / 10 under error control, whose steps vary), within
  // kQueueBudget_bytes. `error` reports a rejected ghost, and why one stopped (on the sim
  // thread).
  GhostHost(double max_lag_s, std::function<void(std::string)> error);
  ~GhostHost();  // joins every ghost: waits for at most the step or build under way in each
  GhostHost(const GhostHost&) = delete;
  GhostHost& operator=(const GhostHost&) = delete;

  // ---- Sim thread.
  // A ghost from `world`'s state (step `step_index` of scene `scene_generation`), with its
  // settings changed by `overrides` (validated: a bad value is reported and nothing changes).
  // Replaces a running ghost.
  void Start(const World& world, uint64_t scene_generation, uint64_t step_index,
             const ContactOverrides& overrides, const std::string& label);
  // Stops the ghost, if one runs, without waiting for its thread; a non-empty `reason` is
  // reported and shown. Ghosts stopped before whose threads have ended are joined here.
  void Stop(std::string reason);
  // Right before each main step: hands the ghost the inputs `world` is about to step with,
  // stamped with its time, and the plot body. Stops it if its thread has ended or it has fallen
  // a whole queue behind. Allocation-free once warm.
  void Feed(const World& world, int plot_body);
  bool active() const { return ghost_ != nullptr; }
  int retired() const { return static_cast<int>(retired_.size()); }  // stopped, not joined
  // The lag is in seconds: the planned end of the main step last fed (its time plus
  // World::next_dt) less the ghost's time, at least 0.
  void Fill(GhostView* view) const;
  static constexpr size_t kQueueBudget_bytes = size_t{64} << 20;

  // ---- Any thread. Never waits for the ghost or the sim thread beyond a pointer copy.
  std::shared_ptr<const Snapshot> Latest() const;  // null without a ghost
  void DrainSamples(std::vector<GhostSample>* out);

 private:
  int QueueSteps(const World& world, const StepInputs& inputs) const;
  const double max_lag_s_;
  std::function<void(std::string)> error_;
  // Created, replaced and stopped by the sim thread under mu_, which other threads take to
  // read its snapshots.
  std::unique_ptr<GhostRuntime> ghost_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<GhostRuntime>> retired_;  // stopped, their threads maybe running
  std::string stopped_reason_;
  StepInputs step_inputs_;  // the step's, captured for the ghost (reused)
  double main_end_s_ = 0;   // the planned end of the main step last fed
};

}  // namespace contactlab
