#include "ui/gui_run_stats.h"

#include <algorithm>

namespace contactlab {

GuiRunStats::GuiRunStats(Clock::time_point start, uint64_t start_step, FrameTrace* trace)
    : start_(start), start_step_(start_step), trace_(trace) {
  if (trace_) *trace_ = FrameTrace{};
}

void GuiRunStats::AddFrame(double frame_ms, double work_ms, double work_cpu_ms,
                           const FrameCost& cost, const Snapshot& latest, int quality_level) {
  ++frames_;
  work_cpu_ms_sum_ += work_cpu_ms;
  max_frame_ms_ = std::max(max_frame_ms_, frame_ms);
  if (!trace_) return;
  trace_->frame_ms.push_back(frame_ms);
  trace_->work_ms.push_back(work_ms);
  trace_->work_cpu_ms.push_back(work_cpu_ms);
  trace_->scene_ms.push_back(cost.scene_ms);
  trace_->panels_ms.push_back(cost.panels_ms);
  trace_->swap_ms.push_back(cost.swap_ms);
  trace_->published_s.push_back(std::chrono::duration<double>(latest.published - start_).count());
  trace_->sim_time_s.push_back(latest.time_s);
  trace_->quality_level.push_back(quality_level);
}

FrameStats GuiRunStats::Finish(Clock::time_point end, const Snapshot& latest, size_t errors,
                               int quality_level, const std::string& quality_label) const {
  if (trace_) trace_->final_quality = quality_label;
  FrameStats s;
  s.frames = frames_;
  s.wall_s = std::chrono::duration<double>(end - start_).count();
  s.mean_frame_ms = frames_ > 0 ? 1000.0 * s.wall_s / frames_ : 0.0;
  s.max_frame_ms = max_frame_ms_;
  s.mean_work_ms = frames_ > 0 ? work_cpu_ms_sum_ / frames_ : 0.0;
  s.sim_steps = latest.step_index >= start_step_ ? latest.step_index - start_step_ : 0;
  s.sim_time_s = latest.time_s;
  s.errors = errors;
  s.quality_level = quality_level;
  if (latest.ghost.active) s.ghost_lag_s = latest.ghost.lag_s;
  return s;
}

}  // namespace contactlab
