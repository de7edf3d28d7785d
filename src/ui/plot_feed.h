// The sim thread's per-step samples into the plots: the main run's PlotSamples as the plots
// panel's rows (PlotSeries order), and the ghost's GhostSamples paired by time with the main
// run's into the Inspect window's difference plots (ghost − main, GhostSeries order). The
// samples are a lossless stream, unlike the snapshots the render loop may skip. A ghost under
// another integrator steps other sizes (docs/architecture.md §4, Ghost): a ghost sample is
// compared with the main run interpolated linearly to its time (at a main sample's own time,
// that sample exactly).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "ui/state/ui_state.h"
#include "ui/widgets/plot_data.h"

namespace contactlab {

class PlotFeed {
 public:
  // Rows the plots keep (the plot window scrolls back through them while paused): roughly 30 s
  // of samples at δt = 1 ms. Not SimRuntime::kPlotCapacity, the smaller ring that only carries
  // samples from the sim thread to this one between two frames.
  static constexpr size_t kHistorySamples = 30000;
  // Main samples kept waiting for a ghost far behind: beyond these the oldest are forgotten.
  static constexpr size_t kMaxWaiting = size_t{1} << 16;

  PlotFeed();

  const PlotData& plots() const { return plots_; }
  // The main run's samples waiting for the ghost's of the same times.
  size_t waiting() const { return waiting_.size(); }
  // The ghost's samples ahead of the newest main sample, waiting for the main run.
  size_t ghost_waiting() const { return ghost_waiting_.size(); }

  // A new run shown (a new scene): the plots start empty, and samples of earlier runs, still
  // on their way, are not plotted.
  void StartRun(uint64_t run);
  // The main run's samples as rows; while a ghost runs (ghost_active) they also wait for its.
  void AppendMain(const std::vector<PlotSample>& samples, bool ghost_active);
  // Their step sizes, errors and counts into `history` (samples of earlier runs too: the
  // counts are the scene's).
  void AppendStepSizes(const std::vector<PlotSample>& samples, StepSizeHistory* history);
  // The ghost's samples, each against the main run at its time (the ghost lags: main samples
  // wait for it; one ahead of the main run waits for it), as rows of ghost − main into
  // ghost_plots. A ghost sample older than every main sample kept makes no row.
  void AppendGhost(const std::vector<GhostSample>& samples, PlotData* ghost_plots);
  // No ghost: nothing to wait for.
  void ForgetGhost() {
    waiting_.clear();
    ghost_waiting_.clear();
  }

 private:
  PlotData plots_;
  uint64_t run_ = 0;
  std::deque<PlotSample> waiting_;
  std::deque<GhostSample> ghost_waiting_;
  // False while `g` is ahead of the newest main sample (it waits); else its row, if any.
  bool Pair(const GhostSample& g, PlotData* ghost_plots);
};

}  // namespace contactlab
