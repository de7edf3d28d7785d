// Line plots drawn in software to a PNG file: figures for command-line tools, which run without
// a display or OpenGL (e.g. reference and fitted trajectories, before and after a calibration).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace contactlab {

// One curve, y against x point by point. A point with a non-finite x or y breaks the line.
struct PlotSeries {
  std::string label;  // its legend entry; a series without a label has none
  std::array<uint8_t, 3> rgb{};
  std::vector<double> x, y;
  bool dashed = false;
};

// One set of axes, shared by its series and ranged to fit their finite points.
struct PlotPanel {
  std::string title, x_label, y_label;
  std::vector<PlotSeries> series;
};

// Panels stacked top to bottom, each panel_height_px high, under a band for the title if there
// is one: the image is width_px × LinePlotHeightPx. Text is printable ASCII ('?' for other bytes).
struct LinePlot {
  std::string title;
  std::vector<PlotPanel> panels;
  int width_px = 1200;
  int panel_height_px = 320;
};

// The height of the image of `plot`, in pixels.
int LinePlotHeightPx(const LinePlot& plot);

// Writes the plot as a PNG. Throws std::invalid_argument for a plot it cannot draw: no panels, an
// empty series or one with unequal numbers of x and y values, a size too small for the axes and
// their labels; std::runtime_error (one line naming the path) if the file can't be written.
void WriteLinePlotPng(const LinePlot& plot, const std::string& path);

// An axis's ticks: the multiples of a "nice" step (1, 2 or 5 × 10^k) within [lo, hi], the
// smallest such step with at most max_ticks of them (taken as 4 at least, which leaves one tick
// at least). Throws std::invalid_argument unless lo < hi, both finite.
struct AxisTicks {
  double step = 1;
  std::vector<double> values;
};
AxisTicks LinePlotTicks(double lo, double hi, int max_ticks);

}  // namespace contactlab
