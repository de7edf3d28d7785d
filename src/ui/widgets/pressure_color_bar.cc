#include "ui/widgets/pressure_color_bar.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "render/color_map.h"
#include "render/patch_layer.h"
#include "render/render_layers.h"
#include "render/rgb8.h"

namespace contactlab {
namespace {

constexpr float kMargin = 10.0f;
constexpr float kWindowW = 220.0f, kWindowH = 64.0f;
constexpr int kSegments = 32;  // linear pieces of the gradient (the map's knots)

ImU32 ToImColor(Rgb8 c) { return IM_COL32(c.r, c.g, c.b, 255); }

}  // namespace

void AutoPressureRange::Update(const Snapshot& snapshot, float dt_s, RenderLayers* layers) {
  if (!layers->pressure_auto) return;
  const bool fresh =
      !started || snapshot.scene_generation != scene_generation || snapshot.run != run;
  started = true;
  scene_generation = snapshot.scene_generation;
  run = snapshot.run;
  layers->pressure_min_Pa = 0.0f;
  if (fresh) layers->pressure_max_Pa = 0.0f;
  const float top = snapshot.hydroelastic.max_pressure_Pa;
  if (snapshot.hydroelastic.empty() || !(top > 0) || !std::isfinite(top)) return;
  float& current = layers->pressure_max_Pa;
  if (!(current > 0) || !std::isfinite(current) || top >= current) {
    current = top;
    return;
  }
  const float dt = std::isfinite(dt_s) ? std::max(dt_s, 0.0f) : 0.0f;
  current += (top - current) * (1.0f - std::exp(-dt / kDecay_s));
}

std::string FormatPressure(float pressure_Pa, float scale_Pa) {
  if (!std::isfinite(pressure_Pa)) return "-";
  if (pressure_Pa == 0.0f) return "0";
  const float s = std::isfinite(scale_Pa) && scale_Pa > 0 ? scale_Pa : std::abs(pressure_Pa);
  const char* unit = "Pa";
  double value = pressure_Pa;
  if (s >= 1e9f) {
    unit = "GPa", value *= 1e-9;
  } else if (s >= 1e6f) {
    unit = "MPa", value *= 1e-6;
  } else if (s >= 1e3f) {
    unit = "kPa", value *= 1e-3;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %s", value, unit);
  return text;
}

ColorBarRect PressureColorBarRect(float scene_right, float scene_bottom) {
  const float x1 = scene_right - kMargin, y1 = scene_bottom - kMargin;
  return {x1 - kWindowW, y1 - kWindowH, x1, y1};
}

void PressureColorBar(const Snapshot& snapshot, const RenderLayers& layers, float scene_right,
                      float scene_bottom) {
  if (!layers.contact_patches || snapshot.hydroelastic.empty()) return;
  // The range the renderer uses this frame (the same fallback when the layers' is unusable).
  const PressureRange range = EffectivePressureRange(layers, snapshot.hydroelastic);
  // Labels: bottom, middle and top of the range, in the top's unit.
  const float top = range.max_Pa;
  const std::string labels[3] = {FormatPressure(range.min_Pa, top),
                                 FormatPressure(0.5f * (range.min_Pa + top), top),
                                 FormatPressure(top, top)};
  ColorMapBar("##pressure_color_bar", PressureColorBarRect(scene_right, scene_bottom),
              layers.pressure_auto ? "contact pressure (auto)" : "contact pressure", labels);
}

void ColorMapBar(const char* id, const ColorBarRect& r, const std::string& title,
                 const std::string (&labels)[3]) {
  ImGui::SetNextWindowPos(ImVec2(r.x0, r.y0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.x1 - r.x0, r.y1 - r.y0), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.75f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                      ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                      ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (ImGui::Begin(id, nullptr, kFlags)) {
    ImGui::TextUnformatted(title.c_str());
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    constexpr float kBarH = 12.0f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (int i = 0; i < kSegments; ++i) {
      const float t0 = static_cast<float>(i) / kSegments,
                  t1 = static_cast<float>(i + 1) / kSegments;
      const ImU32 c0 = ToImColor(PressureColorMap8(t0)), c1 = ToImColor(PressureColorMap8(t1));
      draw->AddRectFilledMultiColor(ImVec2(p0.x + t0 * w, p0.y),
                                    ImVec2(p0.x + t1 * w, p0.y + kBarH), c0, c1, c1, c0);
    }
    ImGui::Dummy(ImVec2(w, kBarH));
    const float y = ImGui::GetCursorScreenPos().y;
    for (int i = 0; i < 3; ++i) {
      const float label_w = ImGui::CalcTextSize(labels[i].c_str()).x;
      const float x =
          std::clamp(p0.x + 0.5f * i * w - 0.5f * i * label_w, p0.x, p0.x + w - label_w);
      draw->AddText(ImVec2(x, y), ImGui::GetColorU32(ImGuiCol_Text), labels[i].c_str());
    }
    ImGui::Dummy(ImVec2(w, ImGui::GetTextLineHeight()));
  }
  ImGui::End();
}

}  // namespace contactlab
