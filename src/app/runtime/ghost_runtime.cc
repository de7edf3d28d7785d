#include "app/runtime/ghost_runtime.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <stdexcept>
#include <utility>

#include "app/runtime/thread_priority.h"

namespace contactlab {

namespace {
// Samples the UI has not drained yet (the plot ring's size: a few seconds of steps).
constexpr size_t kGhostSampleCapacity = 8192;
// The ghost thread's nice value above its creator's (the render thread's is +10: the ghost
// takes precedence over drawing, the main run over the ghost).
constexpr int kGhostNiceIncrement = 5;
}  // namespace

GhostRuntime::GhostRuntime(GhostStart start, int queue_steps)
    : label_(start.label),
      scene_generation_(start.scene_generation),
      slots_(std::max(queue_steps, 1), Slot{start.inputs, -1, 0.0}),
      time_s_(start.time_s),
      samples_(kGhostSampleCapacity),
      thread_([this, start = std::move(start)]() mutable { Run(std::move(start)); }) {}

GhostRuntime::~GhostRuntime() {
  RequestStop();
  thread_.join();
}

bool GhostRuntime::Push(const StepInputs& inputs, int plot_body, double time_s) {
  const uint64_t n = pushed_.load(std::memory_order_relaxed);  // only this thread writes it
  if (n - taken_.load(std::memory_order_acquire) >= slots_.size()) return false;
  Slot& slot = slots_[n % slots_.size()];
  slot.inputs = inputs;  // same sizes as the slot's: assigned in place
  slot.plot_body = plot_body;
  slot.time_s = time_s;
  pushed_.store(n + 1, std::memory_order_release);
  wake_.fetch_add(1, std::memory_order_release);
  wake_.notify_one();
  return true;
}

void GhostRuntime::RequestStop() {
  stop_.store(true, std::memory_order_release);
  wake_.fetch_add(1, std::memory_order_release);
  wake_.notify_one();
}

std::string GhostRuntime::error() const {
  std::lock_guard lock(error_mu_);
  return error_;
}

void GhostRuntime::Fail(std::string message) {
  spdlog::warn("ghost ({}): {}", label_, message);
  std::lock_guard lock(error_mu_);
  error_ = std::move(message);
}

// The ghost's thread: build the world as the main run was, then take the queued steps in
// order, sleeping on wake_ while the queue is empty.
void GhostRuntime::Run(GhostStart start) {
  // Below the sim thread (which created this one with its own priority): on a machine without
  // a core to spare the ghost lags, not the main run.
  if (!LowerThisThreadsPriority(kGhostNiceIncrement)) {
    spdlog::debug("ghost ({}): could not lower its thread's priority", label_);
  }
  std::unique_ptr<World> world;
  try {
    world = std::make_unique<World>(start.scene);
    for (int g = 0; g < world->num_geometries(); ++g) {  // live E_h and resolution changes
      if (start.hydroelastic[g].model == ContactModel::kPoint) continue;
      world->SetHydroelasticGeometry(g, start.hydroelastic[g]);
    }
    world->SetContactSettings(start.settings);
    world->SetState(start.q, start.v, start.time_s);
    world->SetStepSizeState(start.step_sizes);  // after SetState, which clears it
    ApplyStepInputs(start.inputs, world.get());
  } catch (const std::exception& e) {
    Fail(fmt::format("could not start: {}", e.what()));
    finished_.store(true, std::memory_order_release);
    return;
  }
  std::shared_ptr<Snapshot> s = publisher_.Free();
  FillSnapshot(*world, scene_generation_, start.step_index, s.get());
  publisher_.Publish(std::move(s));
  ready_.store(true, std::memory_order_release);
  spdlog::info("ghost ({}): started at t = {:.3f} s", label_, start.time_s);
  uint64_t step_index = start.step_index;
  while (!stop_.load(std::memory_order_acquire)) {
    const uint64_t wake = wake_.load(std::memory_order_acquire);
    bool due = false;
    try {
      double next_input_s = 0;
      due = TakeDueInputs(world.get(), &next_input_s);
      if (due) StepOnce(world.get(), ++step_index, next_input_s);
    } catch (const std::exception& e) {
      Fail(e.what());
      break;
    }
    if (!due) wake_.wait(wake, std::memory_order_acquire);
  }
  finished_.store(true, std::memory_order_release);
}

// The zero-order hold: applies the newest queued inputs stamped at or before the ghost's time
// and frees their slots. True when the inputs for a step from that time are known: an input
// stamped at or after it has arrived (any later one is stamped later still).
bool GhostRuntime::TakeDueInputs(World* world, double* next_input_s) {
  const uint64_t pushed = pushed_.load(std::memory_order_acquire);
  uint64_t taken = taken_.load(std::memory_order_relaxed);
  const Slot* newest_due = nullptr;
  for (; taken < pushed && slots_[taken % slots_.size()].time_s <= world->time(); ++taken) {
    newest_due = &slots_[taken % slots_.size()];
  }
  if (newest_due) {
    ApplyStepInputs(newest_due->inputs, world);
    in_force_s_ = newest_due->time_s;
    plot_body_ = newest_due->plot_body;
    taken_.store(taken, std::memory_order_release);
  }
  *next_input_s = taken < pushed ? slots_[taken % slots_.size()].time_s
                                 : std::numeric_limits<double>::infinity();
  return taken < pushed || in_force_s_ >= world->time();
}

// Under error control a step ends no later than the next input's stamp (World::Step cuts it
// short there), so no input is applied late; fixed steps ignore the end time.
void GhostRuntime::StepOnce(World* world, uint64_t step_index, double end_time_s) {
  if (!world->Step(end_time_s)) {
    throw std::runtime_error(
        fmt::format("its step at t = {:.6f} s failed: {}", world->time(), world->failure()));
  }
  std::shared_ptr<Snapshot> s = publisher_.Free();
  FillSnapshot(*world, scene_generation_, step_index, s.get());
  publisher_.Publish(std::move(s));
  time_s_.store(world->time(), std::memory_order_relaxed);

  GhostSample sample;
  sample.step_index = step_index;
  sample.time_s = world->time();
  const int b = plot_body_;
  if (b >= 0 && b < static_cast<int>(world->scene().bodies.size())) {
    const Eigen::Vector3d p = world->BodyPose(b).translation();
    sample.body_position_W = {p.x(), p.y(), p.z()};
    sample.normal_force_N = world->NetNormalForce(b).norm();
    if (const ContactResult* c = StrongestContact(*world, b)) {
      sample.slip_speed_m_per_s = c->slip_velocity_W.norm();
    }
  }
  samples_.Push(sample);
}

}  // namespace contactlab
