#include "ui/panels/hydroelastic_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "ui/panels/contact_model_panel.h"
#include "ui/widgets/widgets.h"

namespace contactlab {

namespace {

// E_h range of the slider [Pa]: from gel-like to stiffer than steel's Young's modulus.
constexpr double kMinModulus_Pa = 1e4, kMaxModulus_Pa = 1e12;
// Resolution slider range [mm]; the runtime has the final word (ValidateHydroelasticChange).
constexpr float kMinResolution_mm = 0.5f, kMaxResolution_mm = 100.0f;

constexpr double kRequestTimeout_s = 10.0;
using PanelState = HydroelasticPanelState;

bool IsCompliant(const GeometrySpec* spec) {
  return spec != nullptr && spec->hydroelastic.model == ContactModel::kHydroelasticCompliant;
}

// The properties in force of geometry g (the scene's, with live changes applied).
const HydroelasticProperties& InForce(const Snapshot& s, int g) {
  return s.geometry_hydroelastic[g];
}

// Resolution in force: the value in force, or the default for 0 (DefaultHydroelasticResolution).
double Resolution(const Snapshot& s, int g) {
  const double h = InForce(s, g).resolution_m;
  return h > 0 ? h : DefaultHydroelasticResolution(s.geometries[g]->shape);
}

void NoteRequest(const UiState& ui, PanelState* st) {
  st->request_time_s = ImGui::GetTime();
  st->errors_at_request = ui.errors.size();
  st->last_error_at_request = ui.errors.empty() ? std::string() : ui.errors.back();
}

bool RejectedSinceRequest(const UiState& ui, const PanelState& st) {
  if (ui.errors.empty()) return false;
  const std::string& last = ui.errors.back();
  const bool changed = ui.errors.size() != st.errors_at_request || last != st.last_error_at_request;
  return changed && last.rfind("hydroelastic change", 0) == 0;
}

std::string GeometryLabel(const Snapshot& s, int g) {
  const GeometrySpec& spec = *s.geometries[g];
  const int b = g < static_cast<int>(s.geometry_body.size()) ? s.geometry_body[g] : -1;
  if (s.scene && b >= 0 && b < static_cast<int>(s.scene->bodies.size())) {
    return s.scene->bodies[b].body.name + "/" + spec.name;
  }
  return spec.name;
}

}  // namespace

bool HasHydroelasticShapes(const Snapshot& snapshot) {
  return std::any_of(snapshot.geometries.begin(), snapshot.geometries.end(), IsCompliant);
}

namespace {

// This frame's compliant shapes into st->compliant; the selection kept only if still one.
void FindCompliantShapes(const Snapshot& snapshot, PanelState* st) {
  if (st->scene_generation != snapshot.scene_generation) {
    *st = PanelState{};
    st->scene_generation = snapshot.scene_generation;
  }
  st->compliant.clear();
  for (size_t g = 0; g < snapshot.geometries.size(); ++g) {
    if (IsCompliant(snapshot.geometries[g])) st->compliant.push_back(static_cast<int>(g));
  }
  if (st->selected >= 0 &&
      std::find(st->compliant.begin(), st->compliant.end(), st->selected) == st->compliant.end()) {
    st->selected = -1;
  }
}

// What is in force per compliant shape, and which one the sliders change.
void ShapeSelector(const Snapshot& snapshot, PanelState* st) {
  // The name on a line of its own (wrapped), the values under it: "panda_leftfinger/collision0:
  // E_h ..." is wider than the sidebar.
  for (int g : st->compliant) {
    ImGui::TextWrapped("%s:", GeometryLabel(snapshot, g).c_str());
    ImGui::Indent();
    ImGui::Text("E_h %.3g Pa, %.2f mm%s", InForce(snapshot, g).modulus_Pa,
                1e3 * Resolution(snapshot, g),
                InForce(snapshot, g).resolution_m > 0 ? "" : " (default)");
    ImGui::Unindent();
  }
  const std::string preview = st->selected < 0 ? std::string("all compliant shapes")
                                               : GeometryLabel(snapshot, st->selected);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##hydro_shape", preview.c_str())) {
    if (ImGui::Selectable("all compliant shapes", st->selected < 0)) st->selected = -1;
    for (int g : st->compliant) {
      ImGui::PushID(g);
      if (ImGui::Selectable(GeometryLabel(snapshot, g).c_str(), st->selected == g)) {
        st->selected = g;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
}

// E_h: logarithmic, posted live (cheap: no re-meshing; the runtime coalesces a drag).
void ModulusSlider(double in_force_Pa, PanelState* st, UiState* ui, UiActions* actions) {
  ImGui::TextUnformatted("hydroelastic modulus E_h [Pa]");
  ImGui::SetNextItemWidth(-1);
  double modulus = st->requested_modulus_Pa.value_or(in_force_Pa);
  if (LogSlider("hydro_modulus", &modulus, kMinModulus_Pa, kMaxModulus_Pa, &ui->edit_value)) {
    st->requested_modulus_Pa = modulus;
    NoteRequest(*ui, st);
    actions->commands.push_back(command::SetHydroelastic{st->selected, modulus, std::nullopt});
  }
}

// Resolution: posted when the slider is released (each value is a new mesh).
void ResolutionSlider(double in_force_m, PanelState* st, const UiState& ui, UiActions* actions) {
  ImGui::TextUnformatted("mesh resolution [mm]");
  ImGui::SetNextItemWidth(-1);
  if (!st->dragging_resolution) {
    st->resolution_mm = static_cast<float>(1e3 * st->requested_resolution_m.value_or(in_force_m));
  }
  ImGui::SliderFloat("##hydro_resolution", &st->resolution_mm, kMinResolution_mm, kMaxResolution_mm,
                     "%.2f mm", ImGuiSliderFlags_Logarithmic);
  st->dragging_resolution = ImGui::IsItemActive();
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    st->requested_resolution_m = 1e-3 * static_cast<double>(st->resolution_mm);
    NoteRequest(ui, st);
    actions->commands.push_back(
        command::SetHydroelastic{st->selected, std::nullopt, st->requested_resolution_m});
  }
}

// A request not yet in force is being built (said so); a rejected or stale one is dropped.
void PendingRequestNote(double modulus_in_force_Pa, double resolution_in_force_m, const UiState& ui,
                        PanelState* st) {
  if (RejectedSinceRequest(ui, *st) || ImGui::GetTime() - st->request_time_s > kRequestTimeout_s) {
    st->requested_modulus_Pa.reset();
    st->requested_resolution_m.reset();
  }
  const bool modulus_pending =
      st->requested_modulus_Pa &&
      std::abs(*st->requested_modulus_Pa - modulus_in_force_Pa) > 1e-9 * modulus_in_force_Pa;
  const bool resolution_pending =
      st->requested_resolution_m &&
      std::abs(*st->requested_resolution_m - resolution_in_force_m) > 1e-9 * resolution_in_force_m;
  if (modulus_pending || resolution_pending) {
    ImGui::TextColored(kDimColor, "building the new %s...",
                       resolution_pending ? "mesh" : "pressure field");
  } else {
    st->requested_modulus_Pa.reset();
    st->requested_resolution_m.reset();
  }
}

}  // namespace

void HydroelasticPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  PanelState& st = ui->hydroelastic;
  FindCompliantShapes(snapshot, &st);
  if (st.compliant.empty()) {
    ImGui::TextColored(kDimColor, "no hydroelastic_compliant shape in this scene");
    return;
  }
  ShapeSelector(snapshot, &st);
  const int shown = st.selected >= 0 ? st.selected : st.compliant[0];
  const double modulus_in_force = InForce(snapshot, shown).modulus_Pa;
  const double resolution_in_force = Resolution(snapshot, shown);
  // The rigid model has no pressure field: every pair is a point contact (docs/contact-model.md
  // §8). The values stay settable for a compliant model chosen later, but not here and now.
  const bool rigid = IsRigidModel(ShownContactSettings(snapshot, ui).approximation);
  ImGui::BeginGroup();
  ImGui::BeginDisabled(rigid);
  ModulusSlider(modulus_in_force, &st, ui, actions);
  ResolutionSlider(resolution_in_force, &st, *ui, actions);
  ImGui::EndDisabled();
  ImGui::EndGroup();
  ParameterTooltip("E_h [Pa] and the tet mesh resolution of the compliant shapes' pressure fields",
                   rigid ? "the rigid model (Drumwright & Shell) makes every pair a point "
                           "contact: no pressure field"
                         : "");
  PendingRequestNote(modulus_in_force, resolution_in_force, *ui, &st);
  ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
  ImGui::TextWrapped("p = E_h * eps; finer meshes cost more per step");
  ImGui::PopStyleColor();
}

}  // namespace contactlab
