#include "ui/plot_feed.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "ui/panels/inspect_panels.h"
#include "ui/panels/slip_meter_panel.h"
#include "ui/state/ui_state.h"

namespace contactlab {

PlotFeed::PlotFeed() : plots_(PlotSeriesNames(), kHistorySamples) {}

void PlotFeed::StartRun(uint64_t run) {
  run_ = run;
  plots_.Clear();
}

void PlotFeed::AppendMain(const std::vector<PlotSample>& samples, bool ghost_active) {
  for (const PlotSample& s : samples) {
    if (s.run < run_) continue;  // the scene before the one shown
    const double row[kNumPlotSeries] = {s.normal_force_N,
                                        s.friction_force_N,
                                        s.slip_speed_m_per_s,
                                        s.signed_distance_m,
                                        static_cast<double>(s.iterations),
                                        s.step_ms,
                                        s.grip_force_N,
                                        SlipPlotValue(s.meter_slip_speed_m_per_s),
                                        static_cast<double>(s.barrier_iterations)};
    plots_.Append(s.time_s, row);
    if (ghost_active) waiting_.push_back(s);
  }
}

void PlotFeed::AppendGhost(const std::vector<GhostSample>& samples, PlotData* ghost_plots) {
  while (!ghost_waiting_.empty() && Pair(ghost_waiting_.front(), ghost_plots)) {
    ghost_waiting_.pop_front();
  }
  for (const GhostSample& g : samples) {
    if (!ghost_waiting_.empty() || !Pair(g, ghost_plots)) ghost_waiting_.push_back(g);
  }
  while (waiting_.size() > kMaxWaiting) waiting_.pop_front();
  while (ghost_waiting_.size() > kMaxWaiting) ghost_waiting_.pop_front();
}

void PlotFeed::AppendStepSizes(const std::vector<PlotSample>& samples, StepSizeHistory* history) {
  for (const PlotSample& s : samples) {
    if (s.run < run_) continue;  // the scene before the one shown
    ++history->accepted;
    history->rejected += static_cast<uint64_t>(s.num_rejected);
    if (s.at_step_floor) ++history->at_floor;
    // A zero error (a body at rest) sits at the bottom of the plot, 1e-12.
    const double row[kNumStepSizeSeries] = {
        std::log10(s.dt_s),
        s.error_controlled ? std::log10(std::max(s.error_estimate, 1e-12)) : NAN,
        s.error_controlled ? std::log10(s.accuracy) : NAN};
    history->plots.Append(s.time_s, row);
  }
}

bool PlotFeed::Pair(const GhostSample& g, PlotData* ghost_plots) {
  while (waiting_.size() >= 2 && waiting_[1].time_s <= g.time_s) waiting_.pop_front();
  if (waiting_.empty() || waiting_.front().time_s > g.time_s) return true;  // gone: no row
  const PlotSample& m0 = waiting_.front();
  double s = 0;  // the main run at g's time: m0 + s (m1 − m0)
  const PlotSample* m1 = &m0;
  if (m0.time_s < g.time_s) {
    if (waiting_.size() < 2) return false;  // ahead of the main run: wait for it
    m1 = &waiting_[1];
    s = (g.time_s - m0.time_s) / (m1->time_s - m0.time_s);
  }
  const auto lerp = [s](double a, double b) { return a + s * (b - a); };
  const Eigen::Vector3d dp(
      g.body_position_W[0] - lerp(m0.body_position_W[0], m1->body_position_W[0]),
      g.body_position_W[1] - lerp(m0.body_position_W[1], m1->body_position_W[1]),
      g.body_position_W[2] - lerp(m0.body_position_W[2], m1->body_position_W[2]));
  const double row[kNumGhostSeries] = {
      dp.norm(), g.normal_force_N - lerp(m0.normal_force_N, m1->normal_force_N),
      g.slip_speed_m_per_s - lerp(m0.slip_speed_m_per_s, m1->slip_speed_m_per_s)};
  ghost_plots->Append(g.time_s, row);
  return true;
}

}  // namespace contactlab
