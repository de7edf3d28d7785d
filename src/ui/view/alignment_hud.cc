#include "ui/view/alignment_hud.h"

#include <imgui.h>

#include <numbers>

namespace contactlab {

void AlignmentHud(const Snapshot& snapshot, bool shown, float x, float y) {
  if (!shown || !snapshot.alignment.active) return;
  const PegAlignment& a = snapshot.alignment.alignment;
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowBgAlpha(0.55f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration |
                                      ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##alignment_hud", nullptr, kFlags)) {
    if (a.height_above_hole_m > 0) {
      ImGui::Text("above the hole  %6.1f mm", 1e3 * a.height_above_hole_m);
    } else {
      ImGui::Text("insertion depth %6.1f mm", 1e3 * a.insertion_depth_m);
    }
    const ImVec4 offset_color =
        a.axis_in_footprint ? ImVec4(0.3f, 0.95f, 0.4f, 1) : ImVec4(1.0f, 0.55f, 0.2f, 1);
    ImGui::TextColored(offset_color, "lateral offset %6.2f mm", 1e3 * a.lateral_offset_m);
    ImGui::Text("tilt           %6.2f deg", a.tilt_rad * 180.0 / std::numbers::pi);
    if (a.inserted) {
      ImGui::TextColored(ImVec4(0.3f, 0.95f, 0.4f, 1), "inserted");
    } else {
      ImGui::TextDisabled("not inserted");
    }
  }
  ImGui::End();
}

}  // namespace contactlab
