#include "ui/panels/recording_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>

#include "ui/panels/exports.h"

namespace contactlab {

void RecordingPanel(const Snapshot& snapshot, RecordingPanelState* state, UiActions* actions) {
  const RecordingView& r = snapshot.recording;
  ImGui::SetNextItemWidth(-80);
  ImGui::InputTextWithHint("##record_path", "(time-stamped name)", state->record_path,
                           sizeof state->record_path);
  ImGui::SameLine();
  if (r.recording) {
    if (ImGui::Button("Stop", ImVec2(-1, 0))) {
      actions->commands.emplace_back(command::StopRecording{});
    }
    ImGui::Text("recording from the reset: %zu commands", r.rows);
  } else {
    if (ImGui::Button("Record", ImVec2(-1, 0))) {
      const std::string path =
          state->record_path[0] != '\0'
              ? std::string(state->record_path)
              : TimestampedPath("contactlab_teleop", "csv", std::time(nullptr));
      actions->commands.emplace_back(command::StartRecording{path});
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "resets the scene and records every command applied; replay it with "
          "--headless --input replay:FILE");
    }
    if (!r.path.empty()) ImGui::TextDisabled("last recording: %s", r.path.c_str());
  }
  ImGui::SetNextItemWidth(-80);
  ImGui::InputTextWithHint("##replay_path", "replay.csv", state->replay_path,
                           sizeof state->replay_path);
  ImGui::SameLine();
  ImGui::BeginDisabled(state->replay_path[0] == '\0');
  if (ImGui::Button("Play", ImVec2(-1, 0))) {
    actions->commands.emplace_back(command::PlayReplay{state->replay_path});
  }
  ImGui::EndDisabled();
  if (r.replaying) {
    const float progress =
        r.replay_end_s > 0
            ? static_cast<float>(std::clamp(snapshot.time_s / r.replay_end_s, 0.0, 1.0))
            : 1.0f;
    char label[64];
    std::snprintf(label, sizeof label, "replay %.2f / %.2f s", snapshot.time_s, r.replay_end_s);
    ImGui::ProgressBar(progress, ImVec2(-1, 0), label);
  }
}

}  // namespace contactlab
