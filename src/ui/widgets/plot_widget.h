// A small time-series plot drawn with Dear ImGui's ImDrawList (Dear ImGui 1.86 has no ImPlot):
// several series of a PlotData, legend with the newest values, axis ticks at nice numbers,
// auto-fit, hover read-out of every series at the cursor's time. The time window, pause and CSV
// export are shared by the plots of a panel (PlotTimeWindow + PlotToolbar).
#pragma once

#include <imgui.h>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ui/widgets/plot_data.h"

namespace contactlab {

// Per-plot view state.
struct PlotViewState {
  bool auto_fit = true;  // fit the y axis to the visible data every frame
  double y_min = 0, y_max = 1;
  // Where the plot was last drawn (ImGui screen coordinates): the PNG export reads it back.
  float rect_x0 = 0, rect_y0 = 0, rect_x1 = 0, rect_y1 = 0;
};

// The visible time window, shared by a panel's plots.
struct PlotTimeWindow {
  double span_s = 5.0;
  bool paused = false;  // the window stops scrolling (data keeps arriving)
  double paused_end_s = 0;
  // The time of the step the timeline shows (a recorded one, scrubbed back to): the plots show
  // the history up to it, with a cursor there, whatever the pause says. nullopt: the live head.
  std::optional<double> cursor_s;
  // t1 of the window [t1 − span_s, t1] for the given data: the newest span_s seconds (the
  // oldest span_s while the data is shorter than the window, so that a new run grows from the
  // left), or the span_s seconds up to the cursor.
  double End(const PlotData& data) const {
    const double end = cursor_s ? *cursor_s : paused ? paused_end_s : data.newest_time();
    return std::max(end, data.oldest_time() + span_s);
  }
  // The newest time drawn: the window's end, or the cursor when it lies before that end (rows
  // after the step shown are not drawn).
  double LastShown(const PlotData& data) const {
    return cursor_s ? std::min(*cursor_s, End(data)) : End(data);
  }
};

// Drops the points of a screen polyline (x not decreasing, as a plot's) that lie within
// tolerance_px of the line the kept points draw: what a settled, flat signal draws is a few
// segments instead of two points per pixel column. Greedy, one pass: from the last kept point
// each point allows a wedge of directions (its distance d allows ± asin(tolerance / d)); a
// point outside the running intersection of the wedges ends the run at the point before it.
void SimplifyPolyline(std::vector<ImVec2>* points, float tolerance_px);

// Colour of the i-th series of a plot.
ImU32 PlotSeriesColor(int i);

// One plot of `series` (indices into data) over the time window, `height` pixels tall and as
// wide as the content region. `title` heads the legend in the top-left corner. line_widths:
// series k's line width [px] (1 without one): a wide line drawn first stays visible under a
// narrow one that follows it exactly (a reference and a fit to it).
void PlotWidget(const char* id, const char* title, const PlotData& data,
                std::span<const int> series, const PlotTimeWindow& window, float height,
                PlotViewState* view, std::span<const float> line_widths = {});

// Pause / window span / CSV export controls. `csv_path` is an editable buffer; returns true when
// the user asked to export (the caller writes PlotCsv of the visible window to csv_path, or to
// a time-stamped name in the output folder when it is empty).
// reserve_right_px: room left after the Export CSV button for the caller's controls.
bool PlotToolbar(const PlotData& data, PlotTimeWindow* window, char* csv_path, size_t csv_path_size,
                 float reserve_right_px = 0.0f);

}  // namespace contactlab
