// The plot drawn on the CPU into an RGBA image, then written by WritePng. Curves are anti-aliased
// strokes: a pixel's coverage comes from its distance to the segments, the largest of a series'
// segments, so that the overlapping segments of a dense series do not darken its edges. Text is
// stb_easy_font's quads at 2×.
#include "io/line_plot.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "io/png_file.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

namespace contactlab {

namespace {

using Rgb = std::array<uint8_t, 3>;

constexpr Rgb kTextColor{30, 30, 30};
constexpr Rgb kFrameColor{70, 70, 70};
constexpr Rgb kGridColor{228, 228, 228};

constexpr int kFontScale = 2;  // pixels per stb_easy_font unit: capitals 7 units high
constexpr int kCapHeightPx = 7 * kFontScale;
constexpr int kTextRowPx = 22;  // a line of text, descenders (9 units) and a gap
constexpr int kPadPx = 12;      // between the image's edges and its content
constexpr int kGapPx = 6;       // between a label and what it labels
constexpr int kTitleBandPx = 40;
constexpr int kTickPx = 5;                                       // outside the frame
constexpr int kBelowFramePx = kTickPx + 4 + 2 * kTextRowPx + 6;  // tick labels, x label, gap
constexpr int kRightMarginPx = 28;  // room for the last x tick label's right half
constexpr int kMinFrameHeightPx = 60;
constexpr int kMinFrameWidthPx = 100;
constexpr int kMinWidthPx = 300;
constexpr int kMaxSidePx = 16384;  // well below where width × height × 4 overflows an int
constexpr double kStrokeWidthPx = 2.5;
constexpr double kDashPx = 10, kDashGapPx = 6;
constexpr int kLegendSamplePx = 30;
constexpr int kLegendGapPx = 24;       // between two entries of a legend row
constexpr double kRangeMargin = 0.04;  // of the data's extent, either side of it

struct Point {
  double x, y;
};

// [x0, x1) × [y0, y1), in pixels.
struct Rect {
  int x0, y0, x1, y1;
};

class Canvas {
 public:
  Canvas(int width, int height)
      : width_(width), height_(height), rgba_(static_cast<size_t>(width) * height * 4, 255) {}
  int width() const { return width_; }
  const std::vector<uint8_t>& rgba() const { return rgba_; }

  // Colour c over pixel (x, y) by its coverage in [0, 1]; nothing outside the image.
  void Blend(int x, int y, Rgb c, double coverage) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    uint8_t* pixel = &rgba_[4 * (static_cast<size_t>(y) * width_ + x)];
    for (int k = 0; k < 3; ++k) {
      pixel[k] = static_cast<uint8_t>(std::lround(pixel[k] + (c[k] - pixel[k]) * coverage));
    }
  }
  void Fill(Rect r, Rgb c) {
    for (int y = r.y0; y < r.y1; ++y) {
      for (int x = r.x0; x < r.x1; ++x) Blend(x, y, c, 1);
    }
  }

 private:
  int width_, height_;
  std::vector<uint8_t> rgba_;
};

// The text as stb_easy_font can draw it: its tables hold printable ASCII only.
std::string FontText(std::string_view text) {
  std::string font_text(text);
  for (char& c : font_text) {
    if (c < 32 || c > 126) c = '?';
  }
  return font_text;
}

int TextWidthPx(std::string_view text) {
  std::string font_text = FontText(text);
  return stb_easy_font_width(font_text.data()) * kFontScale;
}

// The text, cut to end in "..." if it is wider than max_width_px: a long title or label stays
// clear of its neighbours and in the image.
std::string Fitted(std::string_view text, int max_width_px) {
  if (TextWidthPx(text) <= max_width_px) return std::string(text);
  std::string cut(text);
  while (!cut.empty() && TextWidthPx(cut + "...") > max_width_px) cut.pop_back();
  return cut + "...";
}

enum class Direction { kRightward, kUpward };

// Text from (x, y), its top left corner; upward text is turned a quarter to the left, so that it
// reads from (x, y) up with its top to the left.
void DrawText(Canvas* canvas, int x, int y, std::string_view text,
              Direction direction = Direction::kRightward) {
  std::string font_text = FontText(text);
  std::vector<char> quads(font_text.size() * 1024);  // stb_easy_font needs ~270 bytes a character
  const int count = stb_easy_font_print(0, 0, font_text.data(), nullptr, quads.data(),
                                        static_cast<int>(quads.size()));
  for (int q = 0; q < count; ++q) {
    float top_left[2], bottom_right[2];  // a quad's vertices 0 and 2, 16 bytes each
    std::memcpy(top_left, &quads[64 * q], sizeof top_left);
    std::memcpy(bottom_right, &quads[64 * q + 32], sizeof bottom_right);
    const int u0 = std::lround(top_left[0] * kFontScale),
              v0 = std::lround(top_left[1] * kFontScale);
    const int u1 = std::lround(bottom_right[0] * kFontScale),
              v1 = std::lround(bottom_right[1] * kFontScale);
    canvas->Fill(direction == Direction::kRightward ? Rect{x + u0, y + v0, x + u1, y + v1}
                                                    : Rect{x + v0, y - u1, x + v1, y - u0},
                 kTextColor);
  }
}

// The coverage of the pixels of a clipping rectangle by strokes, the largest of any at each
// pixel, then painted in one colour.
class StrokeMask {
 public:
  explicit StrokeMask(Rect clip)
      : clip_(clip),
        width_(std::max(0, clip.x1 - clip.x0)),
        coverage_(static_cast<size_t>(width_) * std::max(0, clip.y1 - clip.y0), 0.0f) {}

  // A segment kStrokeWidthPx wide with round ends (a dot if a == b), in pixel coordinates.
  void Segment(Point a, Point b) {
    const double r = kStrokeWidthPx / 2;
    const int x0 = std::max(clip_.x0, static_cast<int>(std::floor(std::min(a.x, b.x) - r)));
    const int x1 = std::min(clip_.x1, static_cast<int>(std::ceil(std::max(a.x, b.x) + r)));
    const int y0 = std::max(clip_.y0, static_cast<int>(std::floor(std::min(a.y, b.y) - r)));
    const int y1 = std::min(clip_.y1, static_cast<int>(std::ceil(std::max(a.y, b.y) + r)));
    const double dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy;
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        const double px = x + 0.5 - a.x, py = y + 0.5 - a.y;  // from a to the pixel's centre
        const double t = length2 > 0 ? std::clamp((px * dx + py * dy) / length2, 0.0, 1.0) : 0;
        const double distance = std::hypot(px - t * dx, py - t * dy);
        float& c = coverage_[static_cast<size_t>(y - clip_.y0) * width_ + (x - clip_.x0)];
        c = std::max(c, static_cast<float>(std::clamp(r + 0.5 - distance, 0.0, 1.0)));
      }
    }
  }

  void Paint(Canvas* canvas, Rgb c) const {
    for (size_t i = 0; i < coverage_.size(); ++i) {
      if (coverage_[i] <= 0) continue;
      canvas->Blend(clip_.x0 + static_cast<int>(i % width_),
                    clip_.y0 + static_cast<int>(i / width_), c, coverage_[i]);
    }
  }

 private:
  Rect clip_;
  int width_;
  std::vector<float> coverage_;
};

Point Lerp(Point a, Point b, double t) { return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)}; }

// The dashes of segment a → b, the pattern starting *arc_px before a (then advanced past b), so
// that it runs on across the vertices of a polyline.
void AddDashes(Point a, Point b, double* arc_px, StrokeMask* mask) {
  const double length = std::hypot(b.x - a.x, b.y - a.y), period = kDashPx + kDashGapPx;
  const double s0 = *arc_px, s1 = s0 + length;
  for (double k = std::floor(s0 / period); k * period < s1; ++k) {
    const double on0 = std::max(s0, k * period), on1 = std::min(s1, k * period + kDashPx);
    if (on0 < on1) mask->Segment(Lerp(a, b, (on0 - s0) / length), Lerp(a, b, (on1 - s0) / length));
  }
  *arc_px = s1;
}

// The polyline through the points, broken at each non-finite one: a point alone is a dot.
void AddPolyline(const std::vector<Point>& points, bool dashed, StrokeMask* mask) {
  double arc_px = 0;
  const Point* previous = nullptr;
  for (const Point& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
      previous = nullptr;
    } else if (previous == nullptr) {
      mask->Segment(p, p);
      arc_px = 0;
      previous = &p;
    } else {
      if (dashed) {
        AddDashes(*previous, p, &arc_px, mask);
      } else {
        mask->Segment(*previous, p);
      }
      previous = &p;
    }
  }
}

// An axis: the range it shows and its ticks, labelled.
struct Axis {
  double lo = 0, hi = 1;
  AxisTicks ticks;
  std::vector<std::string> labels;
};

// A tick's value with as many decimals as the step has (none for 1, 2, 5, 10…), so that the
// labels of an axis line up; in scientific notation, with as many digits as tell the ticks apart,
// beyond what fits.
std::string TickLabel(double value, const AxisTicks& ticks) {
  if (std::abs(value) < ticks.step * 1e-6) value = 0;  // not "-0.0" or "1e-17" from rounding
  const auto exponent = [](double v) { return static_cast<int>(std::floor(std::log10(v) + 1e-9)); };
  const int step_exponent = exponent(ticks.step);
  const double largest = std::max(std::abs(ticks.values.front()), std::abs(ticks.values.back()));
  if (step_exponent < -6 || largest >= 1e7) {
    return value == 0 ? "0" : fmt::format("{:.{}e}", value, exponent(largest) - step_exponent);
  }
  return fmt::format("{:.{}f}", value, std::max(0, -step_exponent));
}

void SetTicks(Axis* axis, int max_ticks) {
  axis->ticks = LinePlotTicks(axis->lo, axis->hi, max_ticks);
  axis->labels.clear();
  for (double v : axis->ticks.values) axis->labels.push_back(TickLabel(v, axis->ticks));
}

int WidestPx(const std::vector<std::string>& texts) {
  int widest = 0;
  for (const std::string& text : texts) widest = std::max(widest, TextWidthPx(text));
  return widest;
}

// The range an axis shows: the finite points' extent along x (or y) with a margin either side,
// widened about a flat extent (one value) and [0, 1] without finite points.
Axis AutoRange(const PlotPanel& panel, bool along_y) {
  double lo = INFINITY, hi = -INFINITY;
  for (const PlotSeries& s : panel.series) {
    for (size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      lo = std::min(lo, along_y ? s.y[i] : s.x[i]);
      hi = std::max(hi, along_y ? s.y[i] : s.x[i]);
    }
  }
  if (lo > hi) return Axis{};
  if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi))) {
    const double half = lo == 0 ? 1 : 0.1 * std::abs(lo);
    lo -= half;
    hi += half;
  }
  const double margin = kRangeMargin * (hi - lo);
  Axis axis;
  axis.lo = lo - margin;
  axis.hi = hi + margin;
  return axis;
}

double PixelX(const Axis& axis, Rect frame, double x) {
  return frame.x0 + (x - axis.lo) / (axis.hi - axis.lo) * (frame.x1 - frame.x0);
}
double PixelY(const Axis& axis, Rect frame, double y) {
  return frame.y1 - (y - axis.lo) / (axis.hi - axis.lo) * (frame.y1 - frame.y0);
}

struct LegendEntry {
  const PlotSeries* series;
  std::string label;  // fitted to a row
  int x, row;         // its left edge, and its row of the panel's header
};

int EntryWidthPx(const std::string& label) { return kLegendSamplePx + kGapPx + TextWidthPx(label); }

// The labelled series' entries in rows right-aligned to `right`, the first row beside the
// panel's title (which ends at title_end), the next rows below it.
std::vector<LegendEntry> LayoutLegend(const PlotPanel& panel, int title_end, int right) {
  std::vector<LegendEntry> entries;
  size_t row_start = 0;
  int row = 0, row_width = 0;
  const auto close_row = [&] {
    for (int x = right - row_width; row_start < entries.size(); ++row_start) {
      entries[row_start].x = x;
      x += EntryWidthPx(entries[row_start].label) + kLegendGapPx;
    }
  };
  for (const PlotSeries& s : panel.series) {
    if (s.label.empty()) continue;
    std::string label = Fitted(s.label, right - kPadPx - EntryWidthPx(""));
    const int width = EntryWidthPx(label);
    const int room = right - (row == 0 ? title_end : kPadPx);
    if (row_width > 0 && row_width + kLegendGapPx + width > room) {
      close_row();
      ++row;
      row_width = 0;
    } else if (row_width == 0 && row == 0 && width > room) {
      ++row;  // not over the title
    }
    row_width += (row_width > 0 ? kLegendGapPx : 0) + width;
    entries.push_back({&s, std::move(label), 0, row});
  }
  close_row();
  return entries;
}

// Where a panel's parts go, in the image's pixels.
struct PanelLayout {
  int top = 0;        // the panel's first row
  std::string title;  // fitted to the header
  std::vector<LegendEntry> legend;
  Rect frame{};  // the curves' area, inside the frame's lines
  Axis x, y;
};

// The panel's rows: the header (title and legend), the frame, the x axis's labels. The columns
// (frame.x0 and x1) are the plot's, set by LayoutPanels.
PanelLayout LayoutRows(const PlotPanel& panel, int top, int height_px, int right) {
  PanelLayout layout;
  layout.top = top;
  layout.title = Fitted(panel.title, right - kPadPx);
  const int title_end =
      layout.title.empty() ? kPadPx : kPadPx + TextWidthPx(layout.title) + 2 * kGapPx;
  layout.legend = LayoutLegend(panel, title_end, right);
  const int header_rows = layout.legend.empty() ? 1 : layout.legend.back().row + 1;
  layout.frame.y0 = top + kGapPx + header_rows * kTextRowPx + kGapPx;
  layout.frame.y1 = top + height_px - kBelowFramePx;
  if (layout.frame.y1 - layout.frame.y0 < kMinFrameHeightPx) {
    throw std::invalid_argument(fmt::format(
        "line plot: panel '{}' is {} px high, too little for its axes under {} rows of title and "
        "legend",
        panel.title, height_px, header_rows));
  }
  layout.x = AutoRange(panel, false);
  layout.y = AutoRange(panel, true);
  SetTicks(&layout.y, std::max(4, (layout.frame.y1 - layout.frame.y0) / 36));
  return layout;
}

// As many x ticks as have room for their labels.
void SetXTicks(Axis* axis, int frame_width_px) {
  for (int max_ticks = std::max(4, frame_width_px / 80); max_ticks >= 4; --max_ticks) {
    SetTicks(axis, max_ticks);
    const double spacing_px = frame_width_px * axis->ticks.step / (axis->hi - axis->lo);
    if (spacing_px >= WidestPx(axis->labels) + 2 * kGapPx) return;
  }
}

// Every panel's layout: the frames share their columns, left of them room for the widest y tick
// labels and, if any panel has one, a y axis label.
std::vector<PanelLayout> LayoutPanels(const LinePlot& plot) {
  const int right = plot.width_px - kRightMarginPx;
  std::vector<PanelLayout> layouts;
  int widest_y_label = 0;
  bool y_axis_labels = false;
  for (const PlotPanel& panel : plot.panels) {
    const int top = (plot.title.empty() ? 0 : kTitleBandPx) +
                    static_cast<int>(layouts.size()) * plot.panel_height_px;
    layouts.push_back(LayoutRows(panel, top, plot.panel_height_px, right));
    widest_y_label = std::max(widest_y_label, WidestPx(layouts.back().y.labels));
    y_axis_labels = y_axis_labels || !panel.y_label.empty();
  }
  const int left =
      kPadPx + (y_axis_labels ? kTextRowPx : 0) + kGapPx + widest_y_label + kGapPx + kTickPx;
  if (right - left < kMinFrameWidthPx) {
    throw std::invalid_argument(
        fmt::format("line plot: {} px is too narrow for its axes and their labels", plot.width_px));
  }
  for (PanelLayout& layout : layouts) {
    layout.frame.x0 = left;
    layout.frame.x1 = right;
    SetXTicks(&layout.x, right - left);
  }
  return layouts;
}

// Grid lines, tick marks and tick labels of both axes.
void DrawTicks(Canvas* canvas, const PanelLayout& layout) {
  const Rect f = layout.frame;
  for (size_t i = 0; i < layout.x.ticks.values.size(); ++i) {
    const int x = static_cast<int>(std::floor(PixelX(layout.x, f, layout.x.ticks.values[i])));
    canvas->Fill({x, f.y0, x + 1, f.y1}, kGridColor);
    canvas->Fill({x, f.y1 + 1, x + 1, f.y1 + 1 + kTickPx}, kFrameColor);
    const int width = TextWidthPx(layout.x.labels[i]);
    DrawText(canvas, std::clamp(x - width / 2, 0, canvas->width() - width), f.y1 + kTickPx + 4,
             layout.x.labels[i]);
  }
  for (size_t i = 0; i < layout.y.ticks.values.size(); ++i) {
    const int y = static_cast<int>(std::floor(PixelY(layout.y, f, layout.y.ticks.values[i])));
    canvas->Fill({f.x0, y, f.x1, y + 1}, kGridColor);
    canvas->Fill({f.x0 - 1 - kTickPx, y, f.x0 - 1, y + 1}, kFrameColor);
    DrawText(canvas, f.x0 - 1 - kTickPx - kGapPx - TextWidthPx(layout.y.labels[i]),
             y - kCapHeightPx / 2, layout.y.labels[i]);
  }
}

void DrawFrame(Canvas* canvas, Rect f) {
  canvas->Fill({f.x0 - 1, f.y0 - 1, f.x1 + 1, f.y0}, kFrameColor);
  canvas->Fill({f.x0 - 1, f.y1, f.x1 + 1, f.y1 + 1}, kFrameColor);
  canvas->Fill({f.x0 - 1, f.y0, f.x0, f.y1}, kFrameColor);
  canvas->Fill({f.x1, f.y0, f.x1 + 1, f.y1}, kFrameColor);
}

void DrawCurve(Canvas* canvas, const PlotSeries& s, const PanelLayout& layout) {
  std::vector<Point> points(s.x.size());
  for (size_t i = 0; i < s.x.size(); ++i) {
    points[i] = {PixelX(layout.x, layout.frame, s.x[i]), PixelY(layout.y, layout.frame, s.y[i])};
  }
  StrokeMask mask(layout.frame);
  AddPolyline(points, s.dashed, &mask);
  mask.Paint(canvas, s.rgb);
}

// The panel's title, its legend beside or under it, and the axes' labels.
void DrawLabels(Canvas* canvas, const PlotPanel& panel, const PanelLayout& layout) {
  const int header_top = layout.top + kGapPx;
  DrawText(canvas, kPadPx, header_top, layout.title);
  for (const LegendEntry& entry : layout.legend) {
    const int row_top = header_top + entry.row * kTextRowPx;
    const double sample_y = row_top + kCapHeightPx / 2.0;
    StrokeMask mask({entry.x, row_top, entry.x + kLegendSamplePx, row_top + kCapHeightPx});
    AddPolyline({{entry.x + 2.0, sample_y}, {entry.x + kLegendSamplePx - 2.0, sample_y}},
                entry.series->dashed, &mask);
    mask.Paint(canvas, entry.series->rgb);
    DrawText(canvas, entry.x + kLegendSamplePx + kGapPx, row_top, entry.label);
  }
  const Rect f = layout.frame;
  const std::string x_label = Fitted(panel.x_label, f.x1 - f.x0);
  const std::string y_label = Fitted(panel.y_label, f.y1 - f.y0);
  DrawText(canvas, (f.x0 + f.x1 - TextWidthPx(x_label)) / 2, f.y1 + kTickPx + 4 + kTextRowPx,
           x_label);
  DrawText(canvas, kPadPx, (f.y0 + f.y1 + TextWidthPx(y_label)) / 2, y_label, Direction::kUpward);
}

// In 64 bits: a plot's height is checked before it is drawn.
int64_t HeightPx(const LinePlot& plot) {
  return (plot.title.empty() ? 0 : kTitleBandPx) +
         static_cast<int64_t>(plot.panels.size()) * plot.panel_height_px;
}

void Validate(const LinePlot& plot) {
  if (plot.panels.empty()) {
    throw std::invalid_argument("line plot '" + plot.title + "' has no panels");
  }
  for (const PlotPanel& panel : plot.panels) {
    for (const PlotSeries& s : panel.series) {
      if (s.x.empty() || s.x.size() != s.y.size()) {
        throw std::invalid_argument(fmt::format(
            "line plot: series '{}' of panel '{}' has {} x and {} y values (as many of each, one "
            "at least)",
            s.label, panel.title, s.x.size(), s.y.size()));
      }
    }
  }
  if (plot.width_px < kMinWidthPx || plot.width_px > kMaxSidePx || plot.panel_height_px <= 0 ||
      HeightPx(plot) > kMaxSidePx) {
    throw std::invalid_argument(fmt::format(
        "line plot: {} px wide and {} px a panel is outside [{}, {}] px wide, {} px high",
        plot.width_px, plot.panel_height_px, kMinWidthPx, kMaxSidePx, kMaxSidePx));
  }
}

}  // namespace

AxisTicks LinePlotTicks(double lo, double hi, int max_ticks) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi)) {
    throw std::invalid_argument(fmt::format("LinePlotTicks: [{}, {}] is not a finite range", lo, hi));
  }
  max_ticks = std::max(max_ticks, 4);
  // Upwards from a step too small to fit, the first with few enough multiples in [lo, hi]. Every
  // step of (hi - lo) / (max_ticks - 1) or more fits, 20 × decade among them; the first nice one
  // is less than hi - lo (at most 2.5 × (hi - lo) / 3), which leaves one tick at least.
  const double decade = std::pow(10.0, std::floor(std::log10((hi - lo) / max_ticks)));
  const auto first = [&](double step) { return std::ceil(lo / step - 1e-9); };
  const auto last = [&](double step) { return std::floor(hi / step + 1e-9); };
  AxisTicks ticks;
  for (double m : {1.0, 2.0, 5.0, 10.0, 20.0}) {
    ticks.step = m * decade;
    if (last(ticks.step) - first(ticks.step) + 1 <= max_ticks) break;
  }
  for (double n = first(ticks.step); n <= last(ticks.step); ++n) {
    ticks.values.push_back(n * ticks.step);
  }
  return ticks;
}

int LinePlotHeightPx(const LinePlot& plot) { return static_cast<int>(HeightPx(plot)); }

void WriteLinePlotPng(const LinePlot& plot, const std::string& path) {
  Validate(plot);
  const std::vector<PanelLayout> layouts = LayoutPanels(plot);
  Canvas canvas(plot.width_px, LinePlotHeightPx(plot));
  const std::string title = Fitted(plot.title, plot.width_px - 2 * kPadPx);
  DrawText(&canvas, (plot.width_px - TextWidthPx(title)) / 2, kPadPx, title);
  for (size_t i = 0; i < layouts.size(); ++i) {
    DrawTicks(&canvas, layouts[i]);
    for (const PlotSeries& s : plot.panels[i].series) DrawCurve(&canvas, s, layouts[i]);
    DrawFrame(&canvas, layouts[i].frame);
    DrawLabels(&canvas, plot.panels[i], layouts[i]);
  }
  WritePng(path, canvas.width(), LinePlotHeightPx(plot), canvas.rgba());
}

}  // namespace contactlab
