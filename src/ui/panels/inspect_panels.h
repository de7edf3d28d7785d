// The panels of visual debugging (docs/architecture.md, Visual debugging): the selected body
// (double-click picks it), the ghost run with its difference plots, and the timeline with its
// scrub slider and branch button.
#pragma once

#include <vector>

#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/widgets/plot_data.h"
#include "ui/widgets/plot_widget.h"

namespace contactlab {

enum GhostSeries {
  kGhostPositionDifference,  // |p_ghost − p_main| of the selected body [m]
  kGhostNormalForceDifference,
  kGhostSlipSpeedDifference,
  kNumGhostSeries
};

struct InspectState {
  int selected_body = -1;       // scene body picked by double-click (−1: none)
  int ghost_approximation = 0;  // index into the ghost panel's list
  bool ghost_friction_override = false;
  float ghost_friction = 0.5f;
  PlotData ghost_plots{
      {"position_difference_m", "normal_force_difference_N", "slip_speed_difference_m_per_s"},
      1 << 15};
  PlotTimeWindow ghost_window;
  PlotViewState ghost_views[2];
};

void SelectedBodyPanel(const Snapshot& snapshot, const InspectState& state);
void GhostPanel(const Snapshot& snapshot, InspectState* state, UiActions* actions);
void TimelinePanel(const Snapshot& snapshot, UiActions* actions);

// The Inspect window with the three panels above, in the top right corner of a display
// display_w wide, folded until the user opens it (the scene stays in view).
void InspectWindow(const Snapshot& snapshot, float display_w, InspectState* state,
                   UiActions* actions);

}  // namespace contactlab
