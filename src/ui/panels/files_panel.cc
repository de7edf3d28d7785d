#include "ui/panels/files_panel.h"

#include <imgui.h>

#include "ui/widgets/widgets.h"

namespace contactlab {

void FilesPanel(FilesState* files, UiActions* actions) {
  ImGui::TextColored(kDimColor, "saves to");
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(files->output_dir.c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "recordings, screenshots and exports saved without a path, under time-stamped names");
  }
  ImGui::SetNextItemWidth(-80);
  ImGui::InputTextWithHint("##output_dir", "another folder", files->output_dir_field,
                           sizeof files->output_dir_field);
  ImGui::SameLine();
  ImGui::BeginDisabled(files->output_dir_field[0] == '\0');
  if (ImGui::Button("Use", ImVec2(-1, 0))) actions->set_output_dir = files->output_dir_field;
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("save into this folder from now on (created if missing; remembered)");
  }
  if (ImGui::Button("Screenshot (F12)")) actions->save_screenshot = true;
}

}  // namespace contactlab
