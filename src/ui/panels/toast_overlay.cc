#include "ui/panels/toast_overlay.h"

#include <imgui.h>

#include <algorithm>

#include "ui/widgets/widgets.h"

namespace contactlab {

void ToastOverlay(const ToastQueue& toasts, float x, float y_bottom) {
  if (toasts.toasts().empty()) return;
  float opacity = 0;
  for (const Toast& t : toasts.toasts()) opacity = std::max(opacity, ToastQueue::Opacity(t));
  ImGui::SetNextWindowPos(ImVec2(x, y_bottom), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.8f * opacity);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration |
                                      ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("##toasts", nullptr, kFlags)) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 45.0f);  // long paths wrap
    for (const Toast& t : toasts.toasts()) {
      ImVec4 color = t.kind == ToastKind::kError ? kErrorColor : kGoodColor;
      color.w = ToastQueue::Opacity(t);
      ImGui::TextColored(color, "%s", t.text.c_str());
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace contactlab
