#include "app/runtime/ghost_host.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <exception>
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
  CaptureStepInputs(world, &start.inputs);
  start.step_index = step_index;
  start.label = label.empty() ? "ghost" : label;
  Stop("");
  const int queue_steps = static_cast<int>(std::ceil(max_lag_s_ / world.dt()));
  auto fresh = std::make_unique<GhostRuntime>(std::move(start), queue_steps);
  std::lock_guard lock(mu_);
  ghost_ = std::move(fresh);
  stopped_reason_.clear();
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
  if (!ghost_->Push(step_inputs_, plot_body)) {
    Stop(fmt::format("it fell more than {:.0f} s behind", max_lag_s_));
  }
}

void GhostHost::Fill(GhostView* view) const {
  GhostView& g = *view;
  g.active = ghost_ != nullptr;
  g.ready = ghost_ && ghost_->ready();
  g.label = ghost_ ? ghost_->label() : "";
  g.lag_s = ghost_
                ? static_cast<double>(ghost_->steps_queued() - ghost_->steps_taken()) * ghost_->dt()
                : 0.0;
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
