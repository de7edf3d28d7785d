// What the contact read-out, the gliding overlay and the GUI's exports keep between frames
// (part of UiState; issue 12, items 1, 5, 6).
#pragma once

#include <string>

#include "ui/view/contact_picking.h"

namespace contactlab {

struct ContactInspectorState {
  int hovered = -1;  // index into the shown snapshot's contacts, this frame
  PinnedContact pinned;
  // The contact a click was on, pinned once the click is confirmed single (not the first of a
  // double-click, ui/view/click_timing.h).
  PinnedContact click_candidate;
  // The gliding overlay over the plot body's pressed contacts (GlidingOverlay).
  bool gliding_overlay = true;
  // Export paths; empty: a time-stamped name in the output folder (io/output_folder.h).
  char contacts_csv_path[512] = "";
  char plot_png_path[512] = "";
  int png_plot = 0;            // which plot of the plots panel the PNG button exports
  std::string export_message;  // the last export's written path or error
  bool export_failed = false;
};

}  // namespace contactlab
