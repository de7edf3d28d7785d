// The immediate-mode panels (Dear ImGui): simulation, contact model, solver, plots, visual
// layers, help, and the error banner. They read the newest snapshot, keep their state in
// UiState and express what the user did as UiActions; they never touch the sim thread.
#pragma once

#include <vector>

#include "app/runtime/sim_runtime.h"
#include "app/runtime/snapshot.h"
#include "ui/panels/contact_model_panel.h"
#include "ui/state/actions.h"
#include "ui/state/ui_state.h"
#include "ui/widgets/plot_data.h"

namespace contactlab {

// Where the docked panels go: a sidebar on the left (full height) and the plots along the
// bottom of the rest; zero when the panels are hidden.
struct PanelLayout {
  float sidebar_w = 0, plots_h = 0;
};
PanelLayout ComputePanelLayout(float display_w, float display_h, bool show_panels);

// Lays out and draws every window for a display of the given size (pixels).
void DrawUi(const Snapshot& snapshot, const PlotData& plots, float display_w, float display_h,
            UiState* ui, UiActions* actions);

// While the timeline shows a recorded step, the plots show the history up to its time, with a
// cursor there (PlotTimeWindow::cursor_s); at the live head, the newest samples again.
void FollowTimeline(const Snapshot& snapshot, PlotTimeWindow* window);

// The individual panels (content only; DrawUi places them).
void SimulationPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions);
void SolverPanel(const Snapshot& snapshot, UiState* ui);
void LayersPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions);
void PlotsPanel(const Snapshot& snapshot, const PlotData& plots, UiState* ui, UiActions* actions);
void HelpWindow(UiState* ui);
void ErrorBanner(float display_w, UiState* ui);

// Counts the non-converged steps of the current run (UiState's solver fields) in the plot
// samples, which the runtime streams without loss, one per step. Samples of an earlier run
// are ignored; a newer run starts the count afresh.
void CountConvergence(const std::vector<PlotSample>& samples, UiState* ui);
// Starts the count afresh when the snapshot shows a newer run (a reset while paused has no
// samples yet).
void TrackConvergence(const Snapshot& snapshot, UiState* ui);

}  // namespace contactlab
