#include "ui/panels/contact_view_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "ui/widgets/widgets.h"

namespace contactlab {
namespace {

// A logarithmic slider with its label after it on the same line (the slider leaves the label
// its width).
void ScaleSlider(const char* label, float* value, double min, double max, UiState* ui) {
  double v = *value;
  ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x -
                                              ImGui::CalcTextSize(label).x -
                                              ImGui::GetStyle().ItemSpacing.x));
  if (LogSlider(label, &v, min, max, &ui->edit_value) && v > 0) *value = static_cast<float>(v);
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
}

// A number field (typed; Enter or leaving it applies), kept at or above 0.
void NonNegativeField(const char* label, float* value) {
  ImGui::SetNextItemWidth(90);
  float v = *value;
  if (ImGui::InputFloat(label, &v, 0.0f, 0.0f, "%.4g") && std::isfinite(v)) {
    *value = std::max(v, 0.0f);
  }
}

void VectorToggles(RenderLayers* l) {
  ImGui::Checkbox("normal forces", &l->normal_forces);
  ImGui::SameLine(200);
  ImGui::Checkbox("friction", &l->friction_forces);
  ImGui::Checkbox("traction", &l->traction_arrows);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("per face of a hydroelastic patch: pressure (normal) and shear, force/area");
  }
  ImGui::SameLine(200);
  ImGui::Checkbox("slip", &l->slip_arrows);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("per pressed contact: the slip velocity of B relative to A (teal)");
  }
}

void ScalingRows(RenderLayers* l, UiState* ui) {
  static constexpr const char* kModes[] = {"linear", "log", "fixed length"};
  int mode = static_cast<int>(l->vector_scaling);
  ImGui::SetNextItemWidth(ComboWidthFor("fixed length"));
  if (ImGui::Combo("arrow scaling", &mode, kModes, static_cast<int>(std::size(kModes)))) {
    l->vector_scaling = static_cast<VectorScaling>(mode);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "linear: length = scale x |v|; log: scale x r x ln(1 + |v|/r), r = 1 N, 1 kPa, 1 cm/s\n"
        "(small vectors as linear, each decade beyond adds the same length); both shortened\n"
        "beyond 7.5%% of the view's height; fixed: every arrow the same length (direction)");
  }
  if (l->vector_scaling == VectorScaling::kFixed) {
    ScaleSlider("length px", &l->fixed_arrow_length_px, 5.0, 400.0, ui);
    return;
  }
  ScaleSlider("force scale m/N", &l->force_scale_m_per_N, 1e-5, 1.0, ui);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "normal forces violet, friction yellow; arrows longer than 7.5%% of the view's\n"
        "height grow ever more slowly beyond it (at most 15%%)");
  }
  if (l->traction_arrows) ScaleSlider("traction m/Pa", &l->traction_scale_m_per_Pa, 1e-9, 1e-2, ui);
  if (l->slip_arrows) ScaleSlider("slip m per m/s", &l->slip_scale_s, 1e-3, 1e2, ui);
}

// Below a threshold a vector is not drawn: the many faint arrows of a patch's rim or of
// sticking contacts (slip below v_s) stay out of the way.
void ThresholdRows(RenderLayers* l) {
  ImGui::TextColored(kDimColor, "hide arrows at or below");
  if (l->normal_forces || l->friction_forces) NonNegativeField("N##force", &l->force_threshold_N);
  if (l->traction_arrows) NonNegativeField("Pa##traction", &l->traction_threshold_Pa);
  if (l->slip_arrows) NonNegativeField("m/s##slip", &l->slip_threshold_m_per_s);
}

// The patches' pressure colours: automatic (AutoPressureRange) or a fixed [min, max], which the
// colour bar's labels then show.
void PatchRows(RenderLayers* l) {
  ImGui::Checkbox("contact patches", &l->contact_patches);
  ImGui::SameLine(200);
  ImGui::Checkbox("wireframe", &l->patch_wireframe);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the contact surface's triangles' edges");
  if (!l->contact_patches) return;
  ImGui::Checkbox("auto pressure", &l->pressure_auto);
  if (l->pressure_auto) return;
  NonNegativeField("min Pa", &l->pressure_min_Pa);
  ImGui::SameLine();
  NonNegativeField("max Pa", &l->pressure_max_Pa);
  if (!(l->pressure_max_Pa > l->pressure_min_Pa)) {
    ImGui::TextColored(kWarnColor, "max <= min: [0, largest pressure] is shown");
  }
}

}  // namespace

void ContactViewPanel(UiState* ui) {
  RenderLayers& l = ui->layers;
  ImGui::TextUnformatted("contact view");
  VectorToggles(&l);
  ScalingRows(&l, ui);
  ThresholdRows(&l);
  ScaleSlider("point size m", &l.contact_point_size_m, 1e-3, 0.05, ui);
  PatchRows(&l);
}

void ApplyContactViewList(std::string_view list, RenderLayers* layers) {
  if (list.empty()) return;
  auto named = [list](std::string_view view) {
    for (size_t start = 0; start <= list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      if (list.substr(start, comma - start) == view) return true;
      start = comma + 1;
    }
    return false;
  };
  layers->normal_forces = layers->friction_forces = named("forces");
  layers->traction_arrows = named("traction");
  layers->slip_arrows = named("slip");
  layers->patch_wireframe = named("wireframe");
}

}  // namespace contactlab
