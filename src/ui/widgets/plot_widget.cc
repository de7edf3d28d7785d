// PlotWidget (plot_widget.h): the y range (auto-fit, zoom) and the layout first, then one
// function per layer in drawing order: axes, series, frame, legend, hover read-out.
#include "ui/widgets/plot_widget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace contactlab {

ImU32 PlotSeriesColor(int i) {
  static constexpr ImU32 kPalette[] = {IM_COL32(230, 70, 60, 255),   IM_COL32(240, 200, 40, 255),
                                       IM_COL32(70, 160, 245, 255),  IM_COL32(80, 210, 110, 255),
                                       IM_COL32(200, 110, 230, 255), IM_COL32(240, 140, 40, 255),
                                       IM_COL32(150, 220, 230, 255), IM_COL32(220, 220, 220, 255)};
  return kPalette[static_cast<size_t>(i) % (sizeof kPalette / sizeof kPalette[0])];
}

void SimplifyPolyline(std::vector<ImVec2>* points, float tolerance_px) {
  std::vector<ImVec2>& p = *points;
  if (p.size() < 3) return;
  size_t kept = 1;  // p[0] stays
  ImVec2 anchor = p[0];
  float lo = -INFINITY, hi = INFINITY;  // directions from the anchor every skipped point allows
  // Narrows the wedge to `q`'s directions; false (and no change) when `q` lies outside it.
  const auto admit = [&](const ImVec2& q) {
    const float dx = q.x - anchor.x, dy = q.y - anchor.y;
    const float d = std::hypot(dx, dy);
    if (d <= tolerance_px) return true;
    const float direction = std::atan2(dy, dx);
    if (direction < lo || direction > hi) return false;
    const float half = std::asin(tolerance_px / d);
    lo = std::max(lo, direction - half);
    hi = std::min(hi, direction + half);
    return true;
  };
  for (size_t j = 1; j < p.size(); ++j) {
    if (admit(p[j])) continue;
    anchor = p[j - 1];  // kept <= j - 1: writing p[kept] never overwrites a point not yet read
    p[kept++] = anchor;
    lo = -INFINITY;
    hi = INFINITY;
    admit(p[j]);
  }
  p[kept++] = p.back();
  p.resize(kept);
}

namespace {

constexpr float kMinLeftMargin = 30.0f;  // y tick labels (grows to the widest label)
constexpr float kBottomMargin = 16.0f;   // x tick labels
constexpr ImU32 kFrameColor = IM_COL32(110, 110, 120, 255);
constexpr ImU32 kGridColor = IM_COL32(70, 70, 80, 140);
constexpr ImU32 kBackground = IM_COL32(20, 22, 28, 230);
constexpr ImU32 kTextColor = IM_COL32(210, 210, 215, 255);
constexpr ImU32 kCursorColor = IM_COL32(0, 230, 255, 255);  // the timeline's step
constexpr float kLineTolerancePx = 0.25f;  // a series' drawn line is this close to every point

// What a plot shows this frame: rows [first, last) of the data over the time window [t0, t1],
// values [y_lo, y_hi].
struct PlotView {
  double t0 = 0, t1 = 0;
  size_t first = 0, last = 0;
  double y_lo = 0, y_hi = 1;
};

// Where a plot lies on screen: the widget's top-left corner `origin`, the data rectangle
// [p0, p1] (pixels, y down) of plot_w × plot_h, and the map from (t, value) into it.
struct PlotArea {
  ImVec2 origin, p0, p1;
  float plot_w = 0, plot_h = 0;
  PlotView view;
  float ToX(double t) const {
    return p0.x + static_cast<float>((t - view.t0) / (view.t1 - view.t0)) * plot_w;
  }
  float ToY(double v) const {
    return p1.y - static_cast<float>((v - view.y_lo) / (view.y_hi - view.y_lo)) * plot_h;
  }
};

// The y ticks with their labels: laid out before the plot, since the widest label sets the
// left margin.
struct YTicks {
  Ticks ticks;
  std::vector<std::string> labels;
  float label_w = 0;  // the widest label [px]
};

// Interaction with the y range: double-click turns auto-fit back on, auto-fit follows the
// visible data, the mouse wheel zooms about the centre (and stops auto-fit).
void UpdateYRange(const PlotData& data, std::span<const int> series, size_t first, size_t last,
                  bool hovered, PlotViewState* view) {
  if (hovered && ImGui::IsMouseDoubleClicked(0)) view->auto_fit = true;
  if (view->auto_fit) {
    if (const auto mm = data.MinMax(series, first, last)) {
      std::tie(view->y_min, view->y_max) = NiceRange(mm->first, mm->second, 5);
    }
  }
  if (hovered && ImGui::GetIO().MouseWheel != 0) {
    const double c = 0.5 * (view->y_min + view->y_max);
    const double half =
        0.5 * (view->y_max - view->y_min) * std::pow(0.9, ImGui::GetIO().MouseWheel);
    view->y_min = c - half;
    view->y_max = c + half;
    view->auto_fit = false;
  }
}

YTicks MakeYTicks(double y_lo, double y_hi, float plot_h, float font) {
  YTicks y;
  y.ticks = NiceTicks(y_lo, y_hi, std::clamp(static_cast<int>(plot_h / (font * 1.8f)), 2, 8));
  for (const double v : y.ticks.values) {
    y.labels.push_back(FormatTick(v, y.ticks.step));
    y.label_w = std::max(y.label_w, ImGui::CalcTextSize(y.labels.back().c_str()).x);
  }
  return y;
}

// Grid lines and tick labels: y to the left of the plot, x (time) below it.
void DrawAxes(ImDrawList* draw, const PlotArea& a, const YTicks& y, float font) {
  for (size_t i = 0; i < y.ticks.values.size(); ++i) {
    const float py = a.ToY(y.ticks.values[i]);
    draw->AddLine(ImVec2(a.p0.x, py), ImVec2(a.p1.x, py), kGridColor);
    const std::string& label = y.labels[i];
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    draw->AddText(
        ImVec2(a.p0.x - size.x - 4, std::clamp(py - size.y * 0.5f, a.origin.y, a.p1.y - size.y)),
        kTextColor, label.c_str());
  }
  const Ticks xt = NiceTicks(a.view.t0, a.view.t1,
                             std::clamp(static_cast<int>(a.plot_w / (font * 4.5f)), 2, 10));
  for (const double t : xt.values) {
    const float px = a.ToX(t);
    draw->AddLine(ImVec2(px, a.p0.y), ImVec2(px, a.p1.y), kGridColor);
    const std::string label = FormatTick(t, xt.step);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    draw->AddText(ImVec2(std::clamp(px - size.x * 0.5f, a.p0.x, a.p1.x - size.x), a.p1.y + 1),
                  kTextColor, label.c_str());
  }
}

// Each series as a polyline, decimated to two points per pixel column and simplified to a
// quarter pixel; non-finite values break the line.
void DrawSeries(ImDrawList* draw, const PlotArea& a, const PlotData& data,
                std::span<const int> series, std::span<const float> line_widths) {
  draw->PushClipRect(a.p0, a.p1, true);
  std::vector<ImVec2> points;
  for (size_t k = 0; k < series.size(); ++k) {
    const auto samples = Decimate(data, series[k], a.view.first, a.view.last, a.view.t0, a.view.t1,
                                  std::max(1, static_cast<int>(a.plot_w)));
    points.clear();
    auto flush = [&] {
      SimplifyPolyline(&points, kLineTolerancePx);
      if (points.size() >= 2) {
        draw->AddPolyline(points.data(), static_cast<int>(points.size()),
                          PlotSeriesColor(static_cast<int>(k)), 0,
                          k < line_widths.size() ? line_widths[k] : 1.0f);
      }
      points.clear();
    };
    for (const auto& [t, v] : samples) {
      if (!std::isfinite(v)) {
        flush();
        continue;
      }
      points.emplace_back(a.ToX(t), a.ToY(v));
    }
    flush();
  }
  draw->PopClipRect();
}

// The title, then each series with its newest value, over a translucent box in the top-left
// corner.
void DrawLegend(ImDrawList* draw, const PlotArea& a, const char* title, const PlotData& data,
                std::span<const int> series, float font) {
  std::vector<std::string> lines;
  float legend_w = ImGui::CalcTextSize(title).x;
  for (size_t k = 0; k < series.size(); ++k) {
    char text[160];
    if (a.view.last > a.view.first) {
      std::snprintf(text, sizeof text, "%s  %.4g", data.name(series[k]).c_str(),
                    data.value(series[k], a.view.last - 1));
    } else {
      std::snprintf(text, sizeof text, "%s", data.name(series[k]).c_str());
    }
    lines.emplace_back(text);
    legend_w = std::max(legend_w, ImGui::CalcTextSize(text).x + 12);
  }
  const float line_h = font + 1;
  const ImVec2 l0(a.p0.x + 2, a.p0.y + 2);
  const ImVec2 l1(std::min(a.p1.x - 2, l0.x + legend_w + 8),
                  std::min(a.p1.y - 2, l0.y + line_h * (lines.size() + 1) + 2));
  draw->PushClipRect(a.p0, a.p1, true);
  draw->AddRectFilled(l0, l1, IM_COL32(20, 22, 28, 170));
  draw->AddText(ImVec2(l0.x + 4, l0.y + 1), IM_COL32(160, 160, 170, 255), title);
  float y = l0.y + 1 + line_h;
  for (size_t k = 0; k < lines.size(); ++k) {
    const ImU32 color = PlotSeriesColor(static_cast<int>(k));
    draw->AddRectFilled(ImVec2(l0.x + 4, y + 3), ImVec2(l0.x + 12, y + font - 3), color);
    draw->AddText(ImVec2(l0.x + 16, y), kTextColor, lines[k].c_str());
    y += line_h;
  }
  draw->PopClipRect();
}

// The timeline's step (PlotTimeWindow::cursor_s): a line at its time, labelled with it at the
// bottom (the legend holds the top-left corner).
void DrawCursor(ImDrawList* draw, const PlotArea& a, double t) {
  if (!(t >= a.view.t0 && t <= a.view.t1)) return;
  const float x = a.ToX(t);
  draw->AddLine(ImVec2(x, a.p0.y), ImVec2(x, a.p1.y), kCursorColor, 2.0f);
  char label[32];
  std::snprintf(label, sizeof label, "t = %.3f s", t);
  const ImVec2 size = ImGui::CalcTextSize(label);
  draw->AddText(ImVec2(std::clamp(x + 4, a.p0.x, a.p1.x - size.x), a.p1.y - size.y - 2),
                kCursorColor, label);
}

// A cursor line at the mouse and a tooltip with every series' value at that time.
void DrawHoverReadout(ImDrawList* draw, const PlotArea& a, const PlotData& data,
                      std::span<const int> series) {
  const float mx = ImGui::GetIO().MousePos.x;
  if (!(mx >= a.p0.x && mx <= a.p1.x)) return;
  const double t = a.view.t0 + (mx - a.p0.x) / a.plot_w * (a.view.t1 - a.view.t0);
  draw->AddLine(ImVec2(mx, a.p0.y), ImVec2(mx, a.p1.y), IM_COL32(255, 255, 255, 120));
  ImGui::BeginTooltip();
  ImGui::Text("t = %.4f s", t);
  for (size_t k = 0; k < series.size(); ++k) {
    const auto v = data.ValueAt(series[k], t);
    ImGui::PushStyleColor(ImGuiCol_Text, PlotSeriesColor(static_cast<int>(k)));
    if (v) {
      ImGui::Text("%s = %.6g", data.name(series[k]).c_str(), *v);
    } else {
      ImGui::Text("%s = -", data.name(series[k]).c_str());
    }
    ImGui::PopStyleColor();
  }
  ImGui::TextDisabled("wheel: zoom y, double-click: auto-fit");
  ImGui::EndTooltip();
}

}  // namespace

void PlotWidget(const char* id, const char* title, const PlotData& data,
                std::span<const int> series, const PlotTimeWindow& window, float height,
                PlotViewState* view, std::span<const float> line_widths) {
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, kMinLeftMargin + 60.0f);
  ImGui::InvisibleButton("plot", ImVec2(width, height));
  view->rect_x0 = origin.x, view->rect_y0 = origin.y;
  view->rect_x1 = origin.x + width, view->rect_y1 = origin.y + height;
  const bool hovered = ImGui::IsItemHovered();
  const float font = ImGui::GetFontSize();
  const float plot_h = height - kBottomMargin;

  PlotView shown;
  shown.t1 = window.End(data);
  shown.t0 = shown.t1 - window.span_s;
  std::tie(shown.first, shown.last) = data.Range(shown.t0, window.LastShown(data));
  UpdateYRange(data, series, shown.first, shown.last, hovered, view);
  shown.y_lo = view->y_min;
  shown.y_hi = view->y_max > view->y_min ? view->y_max : shown.y_lo + 1;

  const YTicks y_ticks = MakeYTicks(shown.y_lo, shown.y_hi, plot_h, font);
  const float left = std::min(std::max(kMinLeftMargin, y_ticks.label_w + 6), width * 0.4f);
  PlotArea area;
  area.origin = origin;
  area.p0 = ImVec2(origin.x + left, origin.y);
  area.p1 = ImVec2(origin.x + width, origin.y + plot_h);
  area.plot_w = area.p1.x - area.p0.x;
  area.plot_h = plot_h;
  area.view = shown;

  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(area.p0, area.p1, kBackground);
  DrawAxes(draw, area, y_ticks, font);
  DrawSeries(draw, area, data, series, line_widths);
  draw->AddRect(area.p0, area.p1, kFrameColor);
  if (window.cursor_s) DrawCursor(draw, area, *window.cursor_s);
  DrawLegend(draw, area, title, data, series, font);
  if (hovered && data.size() > 0) DrawHoverReadout(draw, area, data, series);
  ImGui::PopID();
}

bool PlotToolbar(const PlotData& data, PlotTimeWindow* window, char* csv_path, size_t csv_path_size,
                 float reserve_right_px) {
  bool export_requested = false;
  if (ImGui::Button(window->paused ? "Resume plots" : "Pause plots")) {
    window->paused = !window->paused;
    window->paused_end_s = data.newest_time();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  float span = static_cast<float>(window->span_s);
  if (ImGui::SliderFloat("window [s]", &span, 0.1f, 60.0f, "%.1f", ImGuiSliderFlags_Logarithmic)) {
    window->span_s = std::max(0.01f, span);
  }
  if (window->paused) {
    // Scroll through the retained data while paused.
    const double lo = std::min(data.oldest_time() + window->span_s, data.newest_time());
    const double hi = data.newest_time();
    if (hi > lo) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(140);
      float end = static_cast<float>(std::clamp(window->paused_end_s, lo, hi));
      if (ImGui::SliderFloat("end [s]", &end, static_cast<float>(lo), static_cast<float>(hi),
                             "%.3f")) {
        window->paused_end_s = end;
      }
    }
  }
  ImGui::SetNextItemWidth(
      std::max(80.0f, ImGui::GetContentRegionAvail().x - 120.0f - reserve_right_px));
  ImGui::InputTextWithHint("##csv", "(time-stamped name)", csv_path, csv_path_size);
  ImGui::SameLine();
  if (ImGui::Button("Export CSV")) export_requested = true;
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Write the visible window (every series) to this file, or to a time-stamped name in "
        "the output folder: t,<series>");
  }
  return export_requested;
}

}  // namespace contactlab
