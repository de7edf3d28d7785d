// Which scene the window shows, and the switch to another: a scene file chosen by name or path
// or dropped on the window is posted to the sim thread (command::LoadScene), and when the sim
// thread's first snapshot of a new scene arrives, the UI's per-scene state starts afresh from
// it: the panels' reset values, the plot body, the camera views and the framing. A file that
// cannot be loaded is an error in the banner, and the scene stays. The status line follows a
// load: "loading NAME" while the sim thread has it, then "loaded NAME" or what went wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "app/runtime/snapshot.h"
#include "render/camera.h"
#include "ui/state/ui_state.h"

namespace contactlab {

class SceneSession {
 public:
  // The first scene, as the sim thread starts with it: its name in the scene picker and the
  // values its file gives (the panels' reset values). camera: --camera (CameraViews).
  SceneSession(std::string name, const SceneDefaults& defaults, std::string camera);

  // The view the user last had of the first scene (the saved settings), instead of framing it.
  void RestoreCamera(const Camera& camera) { restored_camera_ = camera; }

  // The command that loads a scene file (a built-in name or a path) / the first of the files
  // dropped on the window (io/dropped_file.h); nullopt after an error added to ui->errors.
  std::optional<Command> Load(const std::string& name_or_path, UiState* ui);
  std::optional<Command> Drop(const std::vector<std::string>& paths, UiState* ui);
  // The command that loads `scene`, shown as `name` in the scene picker once it is in.
  Command Load(SceneSpec scene, const std::string& name, UiState* ui);
  // The load command returned last was posted as the sim thread's command number `number`
  // (SimRuntime::Post).
  void Posted(uint64_t number) { load_number_ = number; }
  // Once the sim thread has handled `processed` commands (SimRuntime::commands_processed, read
  // before its errors and snapshot were taken) and the load posted is among them, the scene it
  // shows is the new one (OnNewScene has run) or the sim thread rejected it: then the status
  // line says so, with the last error.
  void CheckLoad(uint64_t processed, UiState* ui);

  // Whether the snapshot shows a scene the UI has not started afresh for.
  bool IsNew(const Snapshot& snapshot) const { return snapshot.scene_generation != generation_; }
  // Starts the UI's per-scene state afresh for the snapshot's scene; free_view_fraction: the
  // part of the view's height the panels leave (FrameScene). Returns the command that selects
  // the plot body it chose (nullopt: a snapshot without a scene).
  std::optional<Command> OnNewScene(const Snapshot& snapshot, float free_view_fraction,
                                    UiState* ui);

 private:
  void PlaceCamera(const Snapshot& snapshot, float free_view_fraction, UiState* ui);

  std::string camera_;
  uint64_t generation_ = UINT64_MAX;  // of the scene shown
  // Of the scene last posted, until its first snapshot: the values its file gave (the loaded
  // scene is all the snapshot has, command-line overrides included) and its name.
  std::optional<SceneDefaults> pending_defaults_;
  std::string pending_name_;
  // A load posted (Load) and not yet in or rejected, and its command number once posted.
  bool loading_ = false;
  std::optional<uint64_t> load_number_;
  std::optional<Camera> restored_camera_;
};

}  // namespace contactlab
