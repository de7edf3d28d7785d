#include "ui/panels/stiffness_readout.h"

#include <imgui.h>
#include <spdlog/fmt/fmt.h>

#include "ui/widgets/widgets.h"

namespace contactlab {

const char* StiffnessNote(const ContactResult& c, ContactApproximation model) {
  if (IsRigidModel(model)) return "none: rigid contact";
  if (c.near_rigid) return "capped by the near-rigid rule (dt)";
  const double k = c.requested_stiffness_N_per_m, achieved = c.effective_stiffness_N_per_m;
  if (achieved < k * (1 - 1e-6)) return "softened while sliding (SAP)";
  if (achieved > k * (1 + 1e-6)) return "stiffened while slipping (Similar)";
  return "as requested";
}

std::string StiffnessRatioText(const ContactResult& c) {
  return fmt::format("{:.3g} / {:.3g} N/m", c.effective_stiffness_N_per_m,
                     c.requested_stiffness_N_per_m);
}

void SelectedPairStiffness(const UiState& ui) {
  const PinnedContact& pinned = ui.contacts.pinned;
  if (!pinned.active || IsRigidModel(pinned.model)) return;
  const ContactResult& c = pinned.last;
  ImGui::PushStyleColor(ImGuiCol_Text, c.near_rigid ? kWarnColor : kDimColor);
  ImGui::TextWrapped("selected pair: achieved %.3g of requested %.3g N/m (%s)",
                     c.effective_stiffness_N_per_m, c.requested_stiffness_N_per_m,
                     StiffnessNote(c, pinned.model));
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "the contact pinned in the Contacts panel, this step: SAP is no stiffer than dt\n"
        "resolves (near-rigid rule, R_n >= beta^2 w_n / 4 pi^2); smaller dt, stiffer contact");
  }
}

}  // namespace contactlab
