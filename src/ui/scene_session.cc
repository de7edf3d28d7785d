#include "ui/scene_session.h"

#include <exception>
#include <utility>

#include "io/dropped_file.h"
#include "io/scene_loader.h"
#include "ui/panels/panels.h"
#include "ui/view/camera_controller.h"
#include "ui/view/camera_views.h"
#include "ui/view/contact_picking.h"

namespace contactlab {

SceneSession::SceneSession(std::string name, const SceneDefaults& defaults, std::string camera)
    : camera_(std::move(camera)), pending_defaults_(defaults), pending_name_(std::move(name)) {}

namespace {

// The current scene stays; the banner and the status line say why.
void LoadFailed(const std::string& name, const std::string& error, UiState* ui) {
  AddError(error, ui);
  ui->status = "could not load " + name + ": " + error;
}

}  // namespace

std::optional<Command> SceneSession::Load(const std::string& name_or_path, UiState* ui) {
  try {
    return Load(LoadSceneFile(ResolveScenePath(name_or_path)), name_or_path, ui);
  } catch (const std::exception& e) {
    LoadFailed(name_or_path, e.what(), ui);
    return std::nullopt;
  }
}

std::optional<Command> SceneSession::Drop(const std::vector<std::string>& paths, UiState* ui) {
  if (paths.empty()) return std::nullopt;
  try {
    return Load(LoadDroppedFile(paths.front()), paths.front(), ui);
  } catch (const std::exception& e) {
    LoadFailed(paths.front(), e.what(), ui);
    return std::nullopt;
  }
}

Command SceneSession::Load(SceneSpec scene, const std::string& name, UiState* ui) {
  pending_defaults_ = ComputeSceneDefaults(scene);
  pending_name_ = name;
  ui->status = "loading " + name;
  loading_ = true;
  load_number_.reset();
  return command::LoadScene{std::move(scene)};
}

void SceneSession::CheckLoad(uint64_t processed, UiState* ui) {
  if (!loading_ || !load_number_ || processed < *load_number_) return;
  // Handled without a new scene (OnNewScene would have ended the load): the sim thread's World
  // rejected it, and its error is the newest in the banner.
  loading_ = false;
  pending_defaults_.reset();
  ui->status = "could not load " + pending_name_ +
               (ui->errors.empty() ? std::string() : ": " + ui->errors.back());
}

std::optional<Command> SceneSession::OnNewScene(const Snapshot& snapshot, float free_view_fraction,
                                                UiState* ui) {
  generation_ = snapshot.scene_generation;
  if (loading_) ui->status = "loaded " + pending_name_;
  loading_ = false;
  if (pending_defaults_) {
    ui->defaults = *pending_defaults_;
    ui->current_scene = pending_name_;
    pending_defaults_.reset();
  } else if (snapshot.scene) {
    ui->defaults = ComputeSceneDefaults(*snapshot.scene);
  }
  ui->posted_settings.reset();
  Unpin(&ui->contacts.pinned);  // body indices of another scene
  Unpin(&ui->contacts.click_candidate);
  TrackConvergence(snapshot, ui);  // a new scene is a new run
  std::optional<Command> select;
  if (snapshot.scene) {
    ui->plot_body = DefaultPlotBody(*snapshot.scene);
    select = command::SelectPlotBody{ui->plot_body};
  }
  if (ui->camera.follow_body >= 0) ui->camera.follow_body = ui->plot_body;
  if (snapshot.scene) ui->views = DefaultCameraViews(*snapshot.scene, camera_);
  PlaceCamera(snapshot, free_view_fraction, ui);
  return select;
}

void SceneSession::PlaceCamera(const Snapshot& snapshot, float free_view_fraction, UiState* ui) {
  if (restored_camera_) {  // the first scene, as the user last looked at it
    ui->camera = *restored_camera_;
    ui->auto_frame = false;
    restored_camera_.reset();
  } else {
    FrameScene(snapshot, free_view_fraction, &ui->camera);
    ui->auto_frame = true;
  }
}

}  // namespace contactlab
