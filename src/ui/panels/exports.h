// The GUI's exports (issue 12, item 6): the contacts of the shown step as CSV (the columns of
// --log-contacts) and one plot of the plots panel as PNG (its pixels read back from the
// framebuffer after the frame is drawn). A failure is a message in the UI, never a crash.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/runtime/snapshot.h"
#include "ui/state/actions.h"
#include "ui/view/contact_inspector_state.h"
#include "ui/widgets/plot_widget.h"

namespace contactlab {

// The path field's value (as typed: relative to the working directory), or a new time-stamped
// name in `output_dir` when it is empty (io/output_folder.h: NewOutputPath); "" with *error set
// when that folder cannot be used.
std::string ExportPath(const char* field, const std::string& output_dir, const std::string& prefix,
                       const std::string& extension, std::string* error);

// The part of an RGBA8 image (rows top to bottom) inside [x0, x1) × [y0, y1), clipped to the
// image; empty (and *w = *h = 0) when nothing is left.
std::vector<uint8_t> CropRgba(const std::vector<uint8_t>& rgba, int width, int height, int x0,
                              int y0, int x1, int y1, int* w, int* h);

// Writes the snapshot's contacts (to the path field, or into output_dir); sets
// state->export_message to the path written or the error (export_failed), logs a success, and
// returns that error ("" on success).
std::string ExportContacts(const Snapshot& snapshot, const std::string& output_dir,
                           ContactInspectorState* state);

// Writes the plot's rectangle (view, ImGui coordinates; `scale`: framebuffer pixels per ImGui
// unit) of the framebuffer image `rgba` as a PNG; message and return as ExportContacts.
std::string ExportPlotPng(const std::vector<uint8_t>& rgba, int fb_w, int fb_h, float scale,
                          const PlotViewState& view, const std::string& output_dir,
                          ContactInspectorState* state);

// ImGui controls: the contacts CSV path and button (Contacts panel); the plot choice, PNG path
// and button (plots panel toolbar). They set the actions' export flags.
void ContactExportControls(const Snapshot& snapshot, ContactInspectorState* state,
                           UiActions* actions);
inline constexpr float kPlotPngControlsWidth = 295.0f;  // their width, spacing included
void PlotPngControls(const char* const* plot_names, int num_plots, ContactInspectorState* state,
                     UiActions* actions);

}  // namespace contactlab
