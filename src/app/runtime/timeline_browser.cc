#include "app/runtime/timeline_browser.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

namespace contactlab {

TimelineBrowser::TimelineBrowser(const World& world, double duration_s, size_t budget_bytes)
    : duration_s_(duration_s),
      budget_bytes_(budget_bytes),
      timeline_(std::make_unique<Timeline>(world, duration_s, budget_bytes)) {}

void TimelineBrowser::Reallocate(const World& world) {
  Clear();
  timeline_.reset();
  timeline_ = std::make_unique<Timeline>(world, duration_s_, budget_bytes_);
}

void TimelineBrowser::Clear() {
  timeline_->Clear();
  view_ = -1;
  settings_edited_ = false;
  replay_.clear();
  replay_next_ = 0;
}

TimelineBrowser::Replayed TimelineBrowser::ReplayNext(World* world) {
  if (replay_next_ >= replay_.size()) return Replayed::kNo;
  ApplyStepInputs(replay_[replay_next_++], world);
  if (replay_next_ < replay_.size()) return Replayed::kYes;
  spdlog::info("sim runtime: branch replayed {} recorded steps; live input from t = {:.3f} s",
               replay_.size(), world->time());
  replay_.clear();
  replay_next_ = 0;
  return Replayed::kLast;
}

int TimelineBrowser::RecordAt(double time_s) const {
  if (timeline_->size() == 0 || !std::isfinite(time_s)) return kNone;
  return timeline_->Find(time_s);
}

int TimelineBrowser::RecordAfter(int steps) const {
  const int n = timeline_->size();
  if (n == 0 || steps == 0) return kNone;
  const int from = view_ >= 0 ? view_ : n - 1;
  const int to = from + steps;
  if (to >= n - 1 && view_ >= 0) return kHead;
  return std::clamp(to, 0, n - 1);
}

bool TimelineBrowser::Show(int record, World* world) {
  view_ = record;
  timeline_->Restore(record, world, settings_edited_);
  return world->Step();
}

void TimelineBrowser::Leave() {
  view_ = -1;
  settings_edited_ = false;
}

bool TimelineBrowser::Branch(const World& world) {
  if (view_ < 0) return false;
  const int n = timeline_->size();
  replay_.resize(static_cast<size_t>(n - 1 - view_));
  for (int i = view_ + 1; i < n; ++i) timeline_->Inputs(i, &replay_[i - view_ - 1]);
  replay_next_ = 0;
  timeline_->TruncateAfter(view_);
  spdlog::info("sim runtime: branch at t = {:.4f} s ({}), replaying {} recorded steps",
               timeline_->time_s(view_), ContactApproximationName(world.approximation()),
               replay_.size());
  Leave();
  return true;
}

void TimelineBrowser::Fill(const World& world, TimelineView* view) const {
  TimelineView& t = *view;
  t.records = timeline_->size();
  t.oldest_s = t.records ? timeline_->time_s(0) : world.time();
  // The newest step's end: its recorded start and size (steps vary under error control).
  t.newest_s =
      t.records ? timeline_->time_s(t.records - 1) + timeline_->dt_s(t.records - 1) : world.time();
  t.viewing = view_ >= 0;
  t.memory_MB = static_cast<double>(timeline_->memory_bytes()) / (1024.0 * 1024.0);
  t.replay_steps_left = static_cast<int>(replay_.size() - replay_next_);
}

void TimelineBrowser::LogSize() const {
  const double MB = static_cast<double>(timeline_->memory_bytes()) / (1024.0 * 1024.0);
  const double duration_s = timeline_->capacity() * timeline_->typical_dt_s();
  spdlog::debug(
      "sim runtime: timeline of {} steps ({:.0f} s at dt = {} s): {:.1f} MB, {:.2f} MB per 10 s",
      timeline_->capacity(), duration_s, timeline_->typical_dt_s(), MB, MB * 10.0 / duration_s);
}

}  // namespace contactlab
