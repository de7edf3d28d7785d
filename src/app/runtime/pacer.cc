#include "app/runtime/pacer.h"

#include <algorithm>

namespace contactlab {

namespace {

std::chrono::nanoseconds Seconds(double s) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(s));
}

double SecondsBetween(Pacer::Clock::time_point a, Pacer::Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

void Pacer::SetTargetFactor(double factor) {
  target_factor_ = factor;
  anchored_ = false;
}

Pacer::Clock::time_point Pacer::NextStepDue(Clock::time_point now, double dt_s, double dt_max_s) {
  const double next_sim_s = sim_total_s_ + dt_s;
  Clock::time_point due = anchor_wall_ + Seconds((next_sim_s - anchor_sim_s_) / target_factor_);
  const double max_lag_s = std::max(kMaxLagSteps * dt_max_s / target_factor_, kMaxLag_s);
  if (!anchored_ || SecondsBetween(due, now) > max_lag_s) {
    anchored_ = true;
    anchor_wall_ = now;
    anchor_sim_s_ = next_sim_s;
    due = now;
  }
  return due;
}

void Pacer::StepTaken(double dt_s, Clock::time_point end) {
  sim_total_s_ += dt_s;
  if (rate_count_ == 0 || end - rate_marks_[rate_newest_].wall >= kRateMarkInterval) {
    rate_newest_ = (rate_newest_ + 1) % kRateMarks;
    rate_marks_[rate_newest_] = {end, sim_total_s_};
    if (rate_count_ < kRateMarks) ++rate_count_;
  }
  const RateMark& oldest = rate_marks_[(rate_newest_ + kRateMarks - rate_count_ + 1) % kRateMarks];
  const double wall_s = SecondsBetween(oldest.wall, end);
  if (wall_s > 1e-3) achieved_factor_ = (sim_total_s_ - oldest.sim_s) / wall_s;
}

void Pacer::ClearAchievedFactor() {
  rate_count_ = 0;
  rate_newest_ = -1;
  achieved_factor_ = 0;
}

}  // namespace contactlab
