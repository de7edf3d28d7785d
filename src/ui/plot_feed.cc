#include "ui/plot_feed.h"

#include <Eigen/Core>

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
                                        SlipPlotValue(s.meter_slip_speed_m_per_s)};
    plots_.Append(s.time_s, row);
    if (ghost_active) waiting_.push_back(s);
  }
}

void PlotFeed::AppendGhost(const std::vector<GhostSample>& samples, PlotData* ghost_plots) {
  for (const GhostSample& g : samples) {
    while (!waiting_.empty() && waiting_.front().step_index < g.step_index) waiting_.pop_front();
    if (waiting_.empty() || waiting_.front().step_index != g.step_index) continue;
    const PlotSample& m = waiting_.front();
    const Eigen::Vector3d dp(g.body_position_W[0] - m.body_position_W[0],
                             g.body_position_W[1] - m.body_position_W[1],
                             g.body_position_W[2] - m.body_position_W[2]);
    const double row[kNumGhostSeries] = {dp.norm(), g.normal_force_N - m.normal_force_N,
                                         g.slip_speed_m_per_s - m.slip_speed_m_per_s};
    ghost_plots->Append(g.time_s, row);
  }
  while (waiting_.size() > kMaxWaiting) waiting_.pop_front();
}

}  // namespace contactlab
