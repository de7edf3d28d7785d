// Live hydroelastic parameters in the GUI (issue 5): the hydroelastic modulus E_h and the mesh
// resolution of the scene's compliant shapes (docs/contact-model.md §5), one shape or all of them.
#pragma once

#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/state/ui_state.h"

namespace contactlab {

// Content of a "Hydroelastic" section. Shows each hydroelastic_compliant shape's E_h [Pa] and
// resolution [mm] in force (from the snapshot's scene) and posts command::SetHydroelastic: E_h
// from a logarithmic slider while it is dragged (a modulus change only rescales the pressure
// field), the resolution when its slider is released (the runtime re-meshes on a worker
// thread; the values shown change when the new mesh is in). Rejected values (too fine a mesh,
// coarser than the shape) come back as errors in the banner.
void HydroelasticPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions);

// Whether the snapshot's scene has a hydroelastic_compliant shape (DrawUi shows the section).
bool HasHydroelasticShapes(const Snapshot& snapshot);

}  // namespace contactlab
