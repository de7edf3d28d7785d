#include "ui/widgets/widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/solver/contact_constraint_factory.h"

namespace contactlab {
namespace {

// The row's slider: over decades (LogSlider) or linear in the value.
bool SliderDouble(const char* label, double* value, double min, double max, const char* format,
                  bool logarithmic, double* edit_buffer) {
  if (logarithmic) return LogSlider(label, value, min, max, edit_buffer);
  return ImGui::SliderScalar(label, ImGuiDataType_Double, value, &min, &max, format);
}

}  // namespace

const char* ApproximationLabel(ContactApproximation a) {
  for (size_t i = 0; i < std::size(kApproximationChoices); ++i) {
    if (kApproximationChoices[i] == a) return kApproximationLabels[i];
  }
  return ContactApproximationName(a);
}

float ComboWidthFor(const char* preview) {
  return ImGui::CalcTextSize(preview).x + 2 * ImGui::GetStyle().FramePadding.x +
         ImGui::GetFrameHeight();
}

bool LogSlider(const char* id, double* value, double min, double max, double* edit_buffer) {
  // ImGuiSliderFlags_Logarithmic in Dear ImGui 1.86 derives its "zero" from the display
  // format's precision (10 for "%e" formats), which breaks ranges like 1e-6..1e-1; slide over
  // the exponent instead and show the value itself.
  ImGui::PushID(id);
  const float lo = static_cast<float>(std::log10(min)), hi = static_cast<float>(std::log10(max));
  float exponent = *value > 0 ? static_cast<float>(std::log10(*value)) : lo;
  char text[48];
  std::snprintf(text, sizeof text, "%.4g", *value);
  bool changed = false;
  if (ImGui::SliderFloat("##log", &exponent, lo, hi, text, ImGuiSliderFlags_NoInput)) {
    *value = std::pow(10.0, static_cast<double>(exponent));
    changed = true;
  }
  const bool open_editor =
      ImGui::IsItemClicked(ImGuiMouseButton_Right) ||
      (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("right-click or double-click to type a value");
  if (open_editor) ImGui::OpenPopup("edit");
  if (ImGui::BeginPopup("edit")) {
    double& typed = *edit_buffer;
    if (ImGui::IsWindowAppearing()) {
      typed = *value;
      ImGui::SetKeyboardFocusHere();
    }
    ImGui::SetNextItemWidth(140);
    if (ImGui::InputDouble("##typed", &typed, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue)) {
      *value = typed;
      changed = true;
      ImGui::CloseCurrentPopup();
    }
    ImGui::TextDisabled("Enter to apply");
    ImGui::EndPopup();
  }
  ImGui::PopID();
  return changed;
}

void ParameterTooltip(const char* help, const char* unused_reason) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(help);
  if (unused_reason[0] != '\0') {
    ImGui::TextColored(kWarnColor, "not used now: %s", unused_reason);
  }
  ImGui::EndTooltip();
}

bool ParameterRow(const char* label, const char* id, double* value, double scene_value, double min,
                  double max, const char* format, bool logarithmic, bool overridden, bool* reset,
                  double* edit_buffer) {
  ImGui::PushID(id);
  ImGui::TextUnformatted(label);
  const float reset_w = ImGui::CalcTextSize("reset").x + ImGui::GetStyle().FramePadding.x * 2;
  ImGui::SetNextItemWidth(std::max(
      60.0f, ImGui::GetContentRegionAvail().x - reset_w - ImGui::GetStyle().ItemSpacing.x));
  const bool changed = SliderDouble("##v", value, min, max, format, logarithmic, edit_buffer);
  ImGui::SameLine();
  const bool differs =
      overridden || (!(std::abs(*value - scene_value) <= 1e-12 * std::abs(scene_value)) &&
                     !(std::isinf(*value) && *value == scene_value));
  *reset = false;
  if (!differs) ImGui::BeginDisabled();
  if (ImGui::SmallButton("reset")) *reset = true;
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    char tip[96];
    std::snprintf(tip, sizeof tip, "scene value: %.6g", scene_value);
    ImGui::SetTooltip("%s", tip);
  }
  if (!differs) ImGui::EndDisabled();
  ImGui::PopID();
  return changed;
}

}  // namespace contactlab
