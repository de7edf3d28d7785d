// The "contact view" part of the Camera and layers panel (issue 36, item 4): which contact
// vectors are drawn (normal and friction forces, hydroelastic traction, slip velocity), how
// their arrows are scaled (linear, log, fixed length; render/vector_scaling.h) and below what
// threshold they are left out, the patches' pressure colour range (automatic or a fixed
// min/max) and their wireframe. docs/architecture.md §5, Contact views.
#pragma once

#include <string_view>

#include "render/render_layers.h"
#include "ui/state/ui_state.h"

namespace contactlab {

void ContactViewPanel(UiState* ui);

// --contact-view: the views a comma-separated list of kContactViews (app/command_line.h) names
// on, the others off ("none": all off); "" leaves the layers as they are.
void ApplyContactViewList(std::string_view list, RenderLayers* layers);

}  // namespace contactlab
