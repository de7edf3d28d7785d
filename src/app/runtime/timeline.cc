#include "app/runtime/timeline.h"

#include <algorithm>
#include <cmath>

namespace contactlab {

Timeline::Timeline(const World& world, double duration_s, size_t budget_bytes)
    : nq_(static_cast<int>(world.q().size())), nv_(static_cast<int>(world.v().size())) {
  for (size_t b = 0; b < world.inputs().pd.size(); ++b) {
    if (world.inputs().pd[b]) pd_bodies_.push_back(static_cast<int>(b));
  }
  num_pd_ = static_cast<int>(pd_bodies_.size());
  record_size_ = kHeader + nq_ + nv_ + kPdFields * num_pd_ + kForceFields;
  const bool error_controlled =
      world.contact_settings().integrator.scheme == TimeIntegration::Scheme::kErrorControlled;
  typical_dt_s_ = error_controlled ? world.dt() / 10 : world.dt();
  const double steps = std::ceil(duration_s / typical_dt_s_) + 1;
  const double fit = static_cast<double>(budget_bytes / (sizeof(double) * record_size_));
  capacity_ = static_cast<int>(std::max(2.0, std::min(steps, fit)));
  records_.resize(static_cast<size_t>(capacity_) * record_size_);
  CaptureStepInputs(world, &scratch_);
}

// Record layout: [step index, t, settings index, last δt, next δt, δt | q | v | per PD body: kp,
// kd, effort limit, q_d, v_d, feedforward | external force: body, p_BoQ_B, f_Q_W].
void Timeline::Record(const World& world, uint64_t step_index) {
  const ContactSettings settings = world.contact_settings();
  if (settings_.empty() || !(settings_.back() == settings)) settings_.push_back(settings);
  if (count_ == capacity_) {
    first_ = (first_ + 1) % capacity_;
    --count_;
  }
  DropUnusedSettings();
  double* r = MutableSlot(count_++);
  r[kStepIndex] = static_cast<double>(step_index);  // exact below 2^53 steps
  r[kTime] = world.time();
  r[kSettings] = static_cast<double>(first_settings_ + settings_.size() - 1);
  const World::StepSizeState sizes = world.step_size_state();
  r[kLastDt] = sizes.last_dt_s;
  r[kNextDt] = sizes.next_dt_s;
  r[kDt] = 0;
  double* p = r + kHeader;
  p = std::copy(world.q().data(), world.q().data() + nq_, p);
  p = std::copy(world.v().data(), world.v().data() + nv_, p);
  for (int b : pd_bodies_) {
    const JointPdSpec& pd = *world.inputs().pd[b];
    *p++ = pd.kp, *p++ = pd.kd, *p++ = pd.effort_limit;
    *p++ = pd.q_desired, *p++ = pd.v_desired, *p++ = pd.feedforward;
  }
  const ExternalForce& f = world.inputs().external_force;
  *p++ = f.scene_body;
  p = std::copy(f.p_BoQ_B.data(), f.p_BoQ_B.data() + 3, p);
  std::copy(f.f_Q_W.data(), f.f_Q_W.data() + 3, p);
}

void Timeline::Taken(const World& world) {
  if (count_ > 0) MutableSlot(count_ - 1)[kDt] = world.last_stats().dt_s;
}

int Timeline::Find(double time_s) const {
  if (count_ == 0) return -1;
  int lo = 0, hi = count_ - 1;  // binary search: record times increase
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (this->time_s(mid) <= time_s) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

void Timeline::Inputs(int i, StepInputs* inputs) const {
  const double* p = Slot(i) + kHeader + nq_ + nv_;
  inputs->pd.resize(scratch_.pd.size());
  for (int b : pd_bodies_) {
    inputs->pd[b] = JointPdSpec{p[0], p[1], p[2], p[3], p[4], p[5]};
    p += kPdFields;
  }
  ExternalForce& f = inputs->external_force;
  f.scene_body = static_cast<int>(p[0]);
  f.p_BoQ_B = Eigen::Vector3d(p[1], p[2], p[3]);
  f.f_Q_W = Eigen::Vector3d(p[4], p[5], p[6]);
}

void Timeline::Restore(int i, World* world, bool keep_settings) const {
  const double* r = Slot(i);
  if (!keep_settings) world->SetContactSettings(settings(i));
  const double* p = r + kHeader;
  world->SetState(Eigen::Map<const Eigen::VectorXd>(p, nq_),
                  Eigen::Map<const Eigen::VectorXd>(p + nq_, nv_), r[kTime]);
  world->SetStepSizeState({r[kLastDt], r[kNextDt]});  // after SetState, which clears it
  Inputs(i, &scratch_);
  ApplyStepInputs(scratch_, world);
}

// Settings older than the oldest record's go: live changes in a long session (a soak, a user
// who keeps moving sliders) must not grow the history beyond its fixed span.
void Timeline::DropUnusedSettings() {
  if (count_ == 0) return;
  const auto oldest = static_cast<uint64_t>(Slot(0)[kSettings]);
  while (first_settings_ < oldest && settings_.size() > 1) {
    settings_.pop_front();
    ++first_settings_;
  }
}

void Timeline::TruncateAfter(int i) { count_ = std::clamp(i + 1, 0, count_); }

void Timeline::Clear() {
  first_ = count_ = 0;
  settings_.clear();
  first_settings_ = 0;
}

size_t Timeline::memory_bytes() const {
  return records_.size() * sizeof(double) + settings_.size() * sizeof(ContactSettings);
}

}  // namespace contactlab
