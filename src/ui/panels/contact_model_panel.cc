#include "ui/panels/contact_model_panel.h"

#include <imgui.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "engine/solver/contact_constraint_factory.h"
#include "ui/panels/stiffness_readout.h"
#include "ui/widgets/widgets.h"

namespace contactlab {
namespace {

// A pair property's row: what it is, its range and where a change goes. Reset clears the
// override (ContactOverrides::clear), so that every pair has its own scene value again (pairs
// combine per-geometry values; the row shows a representative one, SceneDefaults::contact).
struct PairPropertyRow {
  ContactParameter parameter;
  const char* help;  // unit and what it does physically, one line
  const char* label;
  const char* id;
  std::optional<double> ContactSettings::*setting;
  std::optional<double> ContactOverrides::*change;
  bool ContactOverrides::Clear::*clear;
  double ContactProperties::*scene_value;
  double min, max;
  const char* format;
  bool logarithmic;
};

using Clear = ContactOverrides::Clear;
const PairPropertyRow kPairPropertyRows[] = {
    {ContactParameter::kStiffness,
     "k [N/m]: point-contact stiffness, normal force per metre of penetration", "stiffness k [N/m]",
     "k", &ContactSettings::stiffness_N_per_m, &ContactOverrides::stiffness_N_per_m,
     &Clear::stiffness, &ContactProperties::stiffness_N_per_m, 1e2, 1e9, "%.3e", true},
    {ContactParameter::kHuntCrossley,
     "d [s/m]: Hunt & Crossley dissipation, force k*x*(1 + d*v) - bounces lose energy with d",
     "Hunt-Crossley d [s/m]", "d", &ContactSettings::hunt_crossley_s_per_m,
     &ContactOverrides::hunt_crossley_s_per_m, &Clear::hunt_crossley,
     &ContactProperties::hunt_crossley_s_per_m, 1e-2, 1e4, "%.4g", true},
    {ContactParameter::kRelaxationTime,
     "tau_d [s]: SAP's dissipation time scale; it also adds mu*tau_d*|v_t| to the gliding",
     "SAP relaxation time [s]", "tau", &ContactSettings::relaxation_time_s,
     &ContactOverrides::relaxation_time_s, &Clear::relaxation_time,
     &ContactProperties::relaxation_time_s, 1e-6, 1.0, "%.3e", true},
    {ContactParameter::kFriction,
     "mu [-]: Coulomb friction coefficient, the ratio of friction to normal force when sliding",
     "friction mu", "mu", &ContactSettings::friction, &ContactOverrides::friction, &Clear::friction,
     &ContactProperties::friction, 0.0, 3.0, "%.3f", false},
    // docs/contact-model.md §8: a pair's ε is the larger of its geometries'; Newton's law acts
    // above an approach speed of 0.1 m/s (RigidContactStage::kRestitutionThreshold_m_per_s).
    {ContactParameter::kRestitution,
     "eps [-]: Newton's restitution coefficient, rebound over approach normal speed (0: no "
     "bounce, 1: elastic; approaches slower than 0.1 m/s do not bounce)",
     "restitution eps", "eps", &ContactSettings::restitution, &ContactOverrides::restitution,
     &Clear::restitution, &ContactProperties::restitution, 0.0, 1.0, "%.3f", false},
};

void ApproximationCombo(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  const ContactApproximation current = ShownContactSettings(snapshot, ui).approximation;
  int index = static_cast<int>(
      std::find(std::begin(kApproximationChoices), std::end(kApproximationChoices), current) -
      std::begin(kApproximationChoices));
  ImGui::TextUnformatted("approximation");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::Combo("##approximation", &index, kApproximationLabels,
                   static_cast<int>(std::size(kApproximationLabels)))) {
    ContactOverrides o;
    o.approximation = kApproximationChoices[index];
    PostContactChange(o, snapshot, ui, actions);
  }
}

void PairPropertySlider(const PairPropertyRow& row, const Snapshot& snapshot, UiState* ui,
                        UiActions* actions) {
  const std::optional<double> in_force = ShownContactSettings(snapshot, ui).*row.setting;
  const double scene_value = ui->defaults.contact.*row.scene_value;
  double value = in_force.value_or(scene_value);
  bool reset = false;
  const char* unused =
      UnusedParameterReason(ShownContactSettings(snapshot, ui).approximation, row.parameter);
  ImGui::BeginGroup();
  ImGui::BeginDisabled(unused[0] != '\0');
  const bool changed =
      ParameterRow(row.label, row.id, &value, scene_value, row.min, row.max, row.format,
                   row.logarithmic, in_force.has_value(), &reset, &ui->edit_value);
  ImGui::EndDisabled();
  ImGui::EndGroup();
  ParameterTooltip(row.help, unused);
  ContactOverrides o;
  if (reset) {
    o.clear.*row.clear = true;
    PostContactChange(o, snapshot, ui, actions);
  } else if (changed) {
    o.*row.change = value;
    PostContactChange(o, snapshot, ui, actions);
  }
}

void StictionToleranceRow(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  const double scene_vs = ui->defaults.contact_settings.stiction_tolerance_m_per_s;
  double vs = ShownContactSettings(snapshot, ui).stiction_tolerance_m_per_s;
  bool reset = false;
  const char* unused = UnusedParameterReason(ShownContactSettings(snapshot, ui).approximation,
                                             ContactParameter::kStictionTolerance);
  ImGui::BeginGroup();
  ImGui::BeginDisabled(unused[0] != '\0');
  const bool changed = ParameterRow("stiction tolerance v_s [m/s]", "vs", &vs, scene_vs, 1e-6, 1e-1,
                                    "%.2e", true, false, &reset, &ui->edit_value);
  ImGui::EndDisabled();
  ImGui::EndGroup();
  ParameterTooltip(
      "v_s [m/s]: slip speed below which friction is smoothed (sticks); smaller: stiffer "
      "stiction, harder solves",
      unused);
  if (changed || reset) {
    ContactOverrides o;
    o.stiction_tolerance_m_per_s = reset ? scene_vs : vs;
    PostContactChange(o, snapshot, ui, actions);
  }
}

}  // namespace

const ContactSettings& ShownContactSettings(const Snapshot& snapshot, UiState* ui) {
  if (ui->posted_settings == snapshot.contact_settings) ui->posted_settings.reset();
  return ui->posted_settings ? *ui->posted_settings : snapshot.contact_settings;
}

void PostContactChange(const ContactOverrides& change, const Snapshot& snapshot, UiState* ui,
                       UiActions* actions) {
  ContactSettings shown = ShownContactSettings(snapshot, ui);
  try {
    ApplyOverrides(change, &shown);
    ui->posted_settings = shown;
  } catch (const std::invalid_argument&) {
  }
  actions->commands.push_back(command::SetOverrides{change});
}

void ContactModelPanel(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  ApproximationCombo(snapshot, ui, actions);
  for (const PairPropertyRow& row : kPairPropertyRows) {
    PairPropertySlider(row, snapshot, ui, actions);
    if (row.parameter == ContactParameter::kStiffness) SelectedPairStiffness(*ui);
  }
  StictionToleranceRow(snapshot, ui, actions);
  ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
  ImGui::TextWrapped("applies to every contact pair; right-click: type");  // the sidebar is narrow
  ImGui::PopStyleColor();
  if (ImGui::Button("Calibrate...")) ui->calibration.show = true;
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("fit these values to a log or to this run (the Calibrate window)");
  }
}

void TimeStepRow(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  const double scene_dt = ui->defaults.contact_settings.dt_s;
  double dt = ShownContactSettings(snapshot, ui).dt_s;
  // Under error control δt is the largest step (docs/contact-model.md §1.2).
  const bool dt_max = ShownContactSettings(snapshot, ui).integrator.scheme ==
                      TimeIntegration::Scheme::kErrorControlled;
  bool reset = false;
  ImGui::BeginGroup();
  const bool changed =
      ParameterRow(dt_max ? "largest step dt_max [s]" : "time step dt [s]", "dt", &dt, scene_dt,
                   1e-5, 5e-2, "%.2e", true, false, &reset, &ui->edit_value);
  ImGui::EndGroup();
  ParameterTooltip(dt_max ? "dt_max [s]: error control's largest step; it steps smaller where "
                            "the error estimate asks"
                          : "dt [s]: the time step; the convex approximations glide by "
                            "mu*dt*|v_t| and SAP's near-rigid contact is as stiff as dt allows",
                   "");
  if ((changed && dt > 0) || reset) {
    ContactOverrides o;
    o.dt_s = reset ? scene_dt : dt;
    PostContactChange(o, snapshot, ui, actions);
  }
}

}  // namespace contactlab
