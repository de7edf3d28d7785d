// The contact read-out (issue 12, item 1): hover a contact point to see its diagnostics in a
// tooltip, click it to pin it in the "Contacts" panel, which also picks the contact colour mode,
// toggles the gliding overlay (item 5) and exports the shown step's contacts (item 6).
#pragma once

#include <string>
#include <vector>

#include "app/runtime/snapshot.h"
#include "render/camera.h"
#include "ui/state/actions.h"
#include "ui/state/ui_state.h"
#include "ui/view/click_timing.h"

namespace contactlab {

// How close [pixels] the mouse must be to a contact point's projection to hover it.
inline constexpr float kContactHoverRadiusPx = 6.0f;

// One row of the read-out: a label and its value with the unit.
struct DiagnosticRow {
  const char* label;
  std::string value;
};

// The read-out's rows after the bodies and the state (docs/contact-model.md §2.5). The distance
// rows of a point contact are its signed distance φ at the start and end of the step; those of
// a hydroelastic face set the penetration its pressure field implies (ContactResult's
// signed_distance_m negated; "n/a" where the field defines none) and its pressure, area and
// face count (§5) — never the solver's φ0 = −p/g labelled a distance. The approximation's
// diagnostics follow (gliding offset, stiffness achieved against requested, stiction
// tolerance), except for a contact of a rigid model (`model`, §8), which has none of them: one
// row says so instead.
std::vector<DiagnosticRow> ContactDiagnosticRows(const ContactResult& c,
                                                 ContactApproximation model);

// A table of every diagnostic of `c`, computed under `model`, bodies by name: the rows above.
void ContactDiagnosticsTable(const Snapshot& snapshot, const ContactResult& c,
                             ContactApproximation model);

// The panel's content (DrawUi places it in the sidebar); first follows the pinned contact into
// the snapshot (FollowPinned), so that the read-out and the ring show this step.
void ContactPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions);

// After the panels, with the camera the scene is drawn with this frame: finds the hovered
// contact (tooltip, ring) unless the mouse is over a window, pins the contact a click was on
// (a press and release without a drag, which orbits the camera, and without Ctrl, which the
// mouse spring takes) once the click is confirmed single — the first click of a double-click
// pins nothing (`clicks`: the view's this frame, ui/view/click_timing.h) — and draws the gliding
// overlay. Between ImGui::NewFrame and ImGui::Render.
void InspectContacts(const Snapshot& snapshot, const Camera& view, const Clicks& clicks,
                     UiState* ui);

}  // namespace contactlab
