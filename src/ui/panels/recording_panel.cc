#include "ui/panels/recording_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

#include "app/runtime/sim_runtime.h"
#include "input/teleop_csv.h"
#include "io/output_folder.h"
#include "ui/widgets/widgets.h"

namespace contactlab {
namespace {

template <size_t N>
void CopyPath(const std::string& path, char (&field)[N]) {
  std::snprintf(field, N, "%s", path.c_str());
}

void RecordControls(const RecordingView& r, RecordingPanelState* state, FilesState* files,
                    UiActions* actions) {
  ImGui::SetNextItemWidth(-80);
  ImGui::InputTextWithHint("##record_path", "(time-stamped name)", state->record_path,
                           sizeof state->record_path);
  ImGui::SameLine();
  if (r.recording) {
    if (ImGui::Button("Stop", ImVec2(-1, 0))) {
      actions->commands.emplace_back(command::StopRecording{});
    }
    ImGui::Text("recording from the reset: %zu commands", r.rows);
    return;
  }
  if (ImGui::Button("Record", ImVec2(-1, 0))) {
    std::string error;
    const std::string path = state->record_path[0] != '\0'
                                 ? std::string(state->record_path)
                                 : NewOutputPath(files->output_dir, "contactlab_teleop", "csv",
                                                 std::time(nullptr), &error);
    if (path.empty()) {
      files->toasts.Push(std::string(kRecordingNotStarted) + error, ToastKind::kError);
    } else {
      actions->commands.emplace_back(command::StartRecording{path});
    }
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "resets the scene and records every command applied (no path: a time-stamped name in "
        "%s); replay it with --headless --input replay:FILE",
        files->output_dir.c_str());
  }
  if (!r.path.empty()) ImGui::TextDisabled("last recording: %s", r.path.c_str());
}

// The recordings of the output folder, newest first; choosing one offers it to Play.
void RecordingChooser(const std::string& output_dir, RecordingPanelState* state) {
  const std::string preview =
      state->recordings.empty()
          ? "(no recordings in the output folder)"
          : "recordings: " + std::to_string(state->recordings.size()) + ", newest first";
  ImGui::SetNextItemWidth(-1);
  const bool open = ImGui::BeginCombo("##recordings", preview.c_str());
  if (open && !state->chooser_open) ListRecordings(output_dir, state);  // as it opens
  state->chooser_open = open;
  if (!open) return;
  for (const std::string& path : state->recordings) {
    const std::string name = std::filesystem::path(path).filename().string();
    if (ImGui::Selectable(name.c_str(), path == state->replay_path)) {
      CopyPath(path, state->replay_path);
      state->message.clear();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", path.c_str());
  }
  ImGui::EndCombo();
}

void PlayControls(const Snapshot& snapshot, const std::string& output_dir,
                  RecordingPanelState* state, UiActions* actions) {
  const RecordingView& r = snapshot.recording;
  ImGui::SetNextItemWidth(-80);
  ImGui::InputTextWithHint("##replay_path", "replay CSV (or choose below)", state->replay_path,
                           sizeof state->replay_path);
  ImGui::SameLine();
  if (ImGui::Button("Play", ImVec2(-1, 0))) {
    if (const std::string path = PlayPath(output_dir, state); !path.empty()) {
      actions->commands.emplace_back(command::PlayReplay{path});
    }
  }
  RecordingChooser(output_dir, state);
  if (!state->message.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kErrorColor, "%s", state->message.c_str());
    ImGui::PopTextWrapPos();
  }
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

}  // namespace

void ListRecordings(const std::string& output_dir, RecordingPanelState* state) {
  state->recordings = ListFilesNewestFirst(output_dir, ".csv", kTeleopCsvHeader);
  state->listed = true;
  if (state->replay_path[0] == '\0' && !state->recordings.empty()) {
    CopyPath(state->recordings.front(), state->replay_path);
  }
}

std::string PlayPath(const std::string& output_dir, RecordingPanelState* state) {
  if (state->replay_path[0] != '\0') {
    state->message.clear();
    return state->replay_path;
  }
  state->message = state->recordings.empty()
                       ? "nothing to play: no recordings in " + output_dir +
                             " yet (Record one), and no path typed"
                       : "nothing to play: choose a recording below or type a path";
  return "";
}

void WatchRecording(const RecordingView& recording, RecordingPanelState* state,
                    ToastQueue* toasts) {
  if (recording.recording) {
    state->was_recording = true;
    return;
  }
  if (!state->was_recording) return;
  state->was_recording = false;
  if (recording.path.empty()) return;  // --record's file: the command line named it
  CopyPath(recording.path, state->replay_path);
  state->message.clear();
  state->listed = false;
  // Not the commands the UI last saw counted: the sim thread may have recorded more before it
  // stopped (it logs the file's count).
  toasts->Push("saved recording " + recording.path);
}

void RecordingPanel(const Snapshot& snapshot, RecordingPanelState* state, FilesState* files,
                    UiActions* actions) {
  if (!state->listed) ListRecordings(files->output_dir, state);
  RecordControls(snapshot.recording, state, files, actions);
  PlayControls(snapshot, files->output_dir, state, actions);
}

}  // namespace contactlab
