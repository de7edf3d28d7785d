#include "app/runtime/ghost_host.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <utility>

namespace contactlab {

GhostHost::GhostHost(double max_lag_s, std::function<void(std::string)> error)
    : max_lag_s_(max_lag_s), error_(std::move(error)) {}

GhostHost::~GhostHost() = default;

void GhostHost::Start(const World& world, uint64_t scene_generation, uint64_t step_index,
                      const ContactOverrides& overrides, const std::string& label) {
  GhostStart start;
  start.settings = world.contact_settings();
  try {
    ApplyOverrides(overrides, &start.settings);
  } catch (const std::exception& e) {
    error_(fmt::format("ghost rejected: {}", e.what()));
    return;
  }
  start.scene = world.shared_scene();
  start.scene_generation = scene_generation;
  for (int g = 0; g < world.num_geometries(); ++g) {
    start.hydroelastic.push_back(world.hydroelastic_representation(g));
  }
  start.q = world.q();
  start.v = world.v();
  start.time_s = world.time();
  start.step_sizes = world.step_size_state();
  CaptureStepInputs(world, &start.inputs);
  start.step_index = step_index;
  start.label = label.empty() ? "ghost" : label;
  Stop("");
  const int queue_steps = QueueSteps(world, start.inputs);
  main_end_s_ = world.time();
  auto fresh = std::make_unique<GhostRuntime>(std::move(start), queue_steps);
  std::lock_guard lock(mu_);
  ghost_ = std::move(fresh);
  stopped_reason_.clear();
}

// max_lag_s_ of main steps at δt, or at δt_max / 10 under error control, as far as the budget
// allows (a slot holds the step's inputs).
int GhostHost::QueueSteps(const World& world, const StepInputs& inputs) const {
  const bool error_controlled =
      world.contact_settings().integrator.scheme == TimeIntegration::Scheme::kErrorControlled;
  const double typical_dt_s = error_controlled ? world.dt() / 10 : world.dt();
  const size_t slot_bytes = sizeof(StepInputs) + 2 * sizeof(double) +
                            inputs.pd.size() * sizeof(std::optional<JointPdSpec>);
  const double fit = static_cast<double>(kQueueBudget_bytes / slot_bytes);
  return static_cast<int>(std::max(2.0, std::min(std::ceil(max_lag_s_ / typical_dt_s), fit)));
}

void GhostHost::Stop(std::string reason) {
  for (size_t i = 0; i < retired_.size();) {  // ended ones are joined at once
    if (retired_[i]->finished()) {
      retired_.erase(retired_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  if (!ghost_) return;
  if (!reason.empty()) error_(fmt::format("ghost ({}) stopped: {}", ghost_->label(), reason));
  ghost_->RequestStop();
  std::lock_guard lock(mu_);
  retired_.push_back(std::move(ghost_));
  stopped_reason_ = std::move(reason);
}

void GhostHost::Feed(const World& world, int plot_body) {
  if (!ghost_) return;
  if (ghost_->finished()) {
    Stop(ghost_->error().empty() ? "its thread ended" : ghost_->error());
    return;
  }
  CaptureStepInputs(world, &step_inputs_);
  if (!ghost_->Push(step_inputs_, plot_body, world.time())) {
    Stop(fmt::format("it fell more than {:.3g} s behind (a whole queue of {} main steps)",
                     world.time() - ghost_->time_s(), ghost_->queue_steps()));
    return;
  }
  main_end_s_ = world.time() + world.next_dt();
}

void GhostHost::Fill(GhostView* view) const {
  GhostView& g = *view;
  g.active = ghost_ != nullptr;
  g.ready = ghost_ && ghost_->ready();
  g.label = ghost_ ? ghost_->label() : "";
  g.lag_s = ghost_ ? std::max(0.0, main_end_s_ - ghost_->time_s()) : 0.0;
  g.stopped_reason = stopped_reason_;
}

std::shared_ptr<const Snapshot> GhostHost::Latest() const {
  std::lock_guard lock(mu_);
  return ghost_ ? ghost_->Latest() : nullptr;
}

void GhostHost::DrainSamples(std::vector<GhostSample>* out) {
  std::lock_guard lock(mu_);
  if (ghost_) ghost_->DrainSamples(out);
}

}  // namespace contactlab
