#include "ui/plot_widget.h"

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

namespace {

constexpr float kMinLeftMargin = 30.0f;  // y tick labels (grows to the widest label)
constexpr float kBottomMargin = 16.0f;   // x tick labels
constexpr ImU32 kFrameColor = IM_COL32(110, 110, 120, 255);
constexpr ImU32 kGridColor = IM_COL32(70, 70, 80, 140);
constexpr ImU32 kBackground = IM_COL32(20, 22, 28, 230);
constexpr ImU32 kTextColor = IM_COL32(210, 210, 215, 255);

}  // namespace

void PlotWidget(const char* id, const char* title, const PlotData& data,
                std::span<const int> series, const PlotTimeWindow& window, float height,
                PlotViewState* view) {
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, kMinLeftMargin + 60.0f);
  ImGui::InvisibleButton("plot", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  if (hovered && ImGui::IsMouseDoubleClicked(0)) view->auto_fit = true;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const float plot_h = height - kBottomMargin;

  const double t1 = window.End(data), t0 = t1 - window.span_s;
  const auto [first, last] = data.Range(t0, t1);
  if (view->auto_fit) {
    if (const auto mm = data.MinMax(series, first, last)) {
      std::tie(view->y_min, view->y_max) = NiceRange(mm->first, mm->second, 5);
    }
  }
  // Mouse wheel over the plot zooms the y axis about its centre (and stops auto-fit).
  if (hovered && ImGui::GetIO().MouseWheel != 0) {
    const double c = 0.5 * (view->y_min + view->y_max);
    const double half =
        0.5 * (view->y_max - view->y_min) * std::pow(0.9, ImGui::GetIO().MouseWheel);
    view->y_min = c - half;
    view->y_max = c + half;
    view->auto_fit = false;
  }
  const double y_lo = view->y_min, y_hi = view->y_max > view->y_min ? view->y_max : y_lo + 1;

  // The y ticks first: the widest label sets the left margin.
  const Ticks yt =
      NiceTicks(y_lo, y_hi, std::clamp(static_cast<int>(plot_h / (font * 1.8f)), 2, 8));
  std::vector<std::string> y_labels;
  float label_w = 0;
  for (const double v : yt.values) {
    y_labels.push_back(FormatTick(v, yt.step));
    label_w = std::max(label_w, ImGui::CalcTextSize(y_labels.back().c_str()).x);
  }
  const float left = std::min(std::max(kMinLeftMargin, label_w + 6), width * 0.4f);
  const ImVec2 p0(origin.x + left, origin.y);
  const ImVec2 p1(origin.x + width, origin.y + plot_h);
  const float plot_w = p1.x - p0.x;
  draw->AddRectFilled(p0, p1, kBackground);

  auto to_x = [&](double t) { return p0.x + static_cast<float>((t - t0) / (t1 - t0)) * plot_w; };
  auto to_y = [&](double v) {
    return p1.y - static_cast<float>((v - y_lo) / (y_hi - y_lo)) * plot_h;
  };

  // Grid and tick labels.
  for (size_t i = 0; i < yt.values.size(); ++i) {
    const float y = to_y(yt.values[i]);
    draw->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), kGridColor);
    const std::string& label = y_labels[i];
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    draw->AddText(ImVec2(p0.x - size.x - 4, std::clamp(y - size.y * 0.5f, origin.y, p1.y - size.y)),
                  kTextColor, label.c_str());
  }
  const Ticks xt = NiceTicks(t0, t1, std::clamp(static_cast<int>(plot_w / (font * 4.5f)), 2, 10));
  for (const double t : xt.values) {
    const float x = to_x(t);
    draw->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), kGridColor);
    const std::string label = FormatTick(t, xt.step);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    draw->AddText(ImVec2(std::clamp(x - size.x * 0.5f, p0.x, p1.x - size.x), p1.y + 1), kTextColor,
                  label.c_str());
  }

  // Series, decimated to two points per pixel column.
  draw->PushClipRect(p0, p1, true);
  std::vector<ImVec2> points;
  for (size_t k = 0; k < series.size(); ++k) {
    const auto samples =
        Decimate(data, series[k], first, last, t0, t1, std::max(1, static_cast<int>(plot_w)));
    points.clear();
    auto flush = [&] {
      if (points.size() >= 2) {
        draw->AddPolyline(points.data(), static_cast<int>(points.size()),
                          PlotSeriesColor(static_cast<int>(k)), 0, 1.5f);
      }
      points.clear();
    };
    for (const auto& [t, v] : samples) {
      if (!std::isfinite(v)) {
        flush();
        continue;
      }
      points.emplace_back(to_x(t), to_y(v));
    }
    flush();
  }
  draw->PopClipRect();
  draw->AddRect(p0, p1, kFrameColor);

  // Legend: the title, then each series with its newest value, over a translucent box.
  {
    std::vector<std::string> lines;
    float legend_w = ImGui::CalcTextSize(title).x;
    for (size_t k = 0; k < series.size(); ++k) {
      char text[160];
      if (last > first) {
        std::snprintf(text, sizeof text, "%s  %.4g", data.name(series[k]).c_str(),
                      data.value(series[k], last - 1));
      } else {
        std::snprintf(text, sizeof text, "%s", data.name(series[k]).c_str());
      }
      lines.emplace_back(text);
      legend_w = std::max(legend_w, ImGui::CalcTextSize(text).x + 12);
    }
    const float line_h = font + 1;
    const ImVec2 l0(p0.x + 2, p0.y + 2);
    const ImVec2 l1(std::min(p1.x - 2, l0.x + legend_w + 8),
                    std::min(p1.y - 2, l0.y + line_h * (lines.size() + 1) + 2));
    draw->PushClipRect(p0, p1, true);
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

  // Hover read-out: a cursor line and every series' value at that time.
  if (hovered && data.size() > 0) {
    const float mx = ImGui::GetIO().MousePos.x;
    if (mx >= p0.x && mx <= p1.x) {
      const double t = t0 + (mx - p0.x) / plot_w * (t1 - t0);
      draw->AddLine(ImVec2(mx, p0.y), ImVec2(mx, p1.y), IM_COL32(255, 255, 255, 120));
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
  }
  ImGui::PopID();
}

bool PlotToolbar(const PlotData& data, PlotTimeWindow* window, char* csv_path,
                 size_t csv_path_size) {
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
  ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x - 120.0f));
  ImGui::InputText("##csv", csv_path, csv_path_size);
  ImGui::SameLine();
  if (ImGui::Button("Export CSV")) export_requested = true;
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Write the visible window (every series) to this file: t,<series>");
  }
  return export_requested;
}

}  // namespace contactlab
