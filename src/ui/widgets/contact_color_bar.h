// The colour bar of the contact colour modes (gliding offset, slip speed: RenderLayers::
// contact_colors), with the automatic top of its scale; drawn like the pressure bar, above it
// when both show.
#pragma once

#include <string>

#include "app/runtime/snapshot.h"
#include "render/contact_colors.h"
#include "render/render_layers.h"
#include "ui/widgets/pressure_color_bar.h"

namespace contactlab {

// "0", "0.31 mm", "12 µm", "35 mm/s", "0.25 m/s": two significant digits in µm below a scale
// of 0.1 mm, mm below 0.1 m, else m (per second for kSlip); `scale` is the top of the range, so
// that every label of one bar shares its unit. Below 1e-9 (a nanometre) "0".
std::string FormatContactValue(double value, double scale, ContactColorMode mode);

// The bar's window: where the pressure bar goes, or just above it when that one shows too.
ColorBarRect ContactColorBarRect(float scene_right, float scene_bottom, bool above_pressure_bar);

// Sets layers->contact_color_max from the snapshot (AutoContactColorTop) and, in a colour mode
// other than kState with contact points shown, draws the bar (0 / middle / top labels). Call
// between ImGui::NewFrame and ImGui::Render.
void ContactColorBar(const Snapshot& snapshot, float scene_right, float scene_bottom,
                     RenderLayers* layers);

}  // namespace contactlab
