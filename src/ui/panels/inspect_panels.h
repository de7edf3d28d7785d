// The panels of visual debugging (docs/architecture.md, Visual debugging): the selected body
// (double-click picks it), the ghost run with its difference plots, and the timeline with its
// scrub slider and branch button.
#pragma once

#include <optional>
#include <vector>

#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/view/camera_views.h"
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
  // 0: the main run's integrator; else 1 + an index into kIntegratorLabels (θ weights and
  // accuracy: the main run's, integrator_panel.h's IntegratorChoice).
  int ghost_integrator = 0;
  bool ghost_friction_override = false;
  float ghost_friction = 0.5f;
  PlotData ghost_plots{
      {"position_difference_m", "normal_force_difference_N", "slip_speed_difference_m_per_s"},
      1 << 15};
  PlotTimeWindow ghost_window;
  PlotViewState ghost_views[2];
  bool folded = true;  // last frame: only its title bar showed (and it was placed)
};

void SelectedBodyPanel(const Snapshot& snapshot, const InspectState& state);
void GhostPanel(const Snapshot& snapshot, InspectState* state, UiActions* actions);
void TimelinePanel(const Snapshot& snapshot, UiActions* actions);

// Where the Inspect window goes in a window of display_w × display_h whose plots take plots_h
// at the bottom (pixels, y down): in the right-hand column, under the camera inset (at the top
// without one) and as wide as it (320 to 420 pixels; 400 without one), down to the plots. The
// main view puts what it looks at in the middle of the part the panels leave, the hand and
// the hole in peg_in_hole: this keeps off it and off the inset, which it covered.
struct InspectPlacement {
  float x = 0, y = 0, w = 0, h = 0;
};
InspectPlacement PlaceInspectWindow(float display_w, float display_h, float plots_h,
                                    const std::optional<InsetRect>& inset);

// The Inspect window with the three panels above, folded until the user opens it (the scene
// stays in view). Folded, its title bar follows `place` (a resized window, another inset);
// opened, it unfolds there to place's size, and the user may move or resize it.
void InspectWindow(const Snapshot& snapshot, const InspectPlacement& place, InspectState* state,
                   UiActions* actions);

}  // namespace contactlab
