#include "ui/panels/shortcuts.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

namespace contactlab {

namespace {
constexpr Shortcut kShortcuts[] = {
    {"Space or Enter", "pause / resume the simulation (robot scenes: Enter)"},
    {"S or .", "one step, pausing first (robot scenes: .); forward through the timeline"},
    {",", "one step back through the timeline (pauses)"},
    {"R", "reset to the scene's initial state (the task)"},
    {"F", "follow the plot body with the camera (toggle)"},
    {"1 2 3 4", "camera: front, side, top, iso"},
    {"0", "frame the whole scene"},
    {"P", "pause / resume the plots"},
    {"C", "contact points layer (toggle)"},
    {"N", "force arrows layers (toggle)"},
    {"G", "grid (toggle)"},
    {"Tab", "show / hide the panels"},
    {"H or F1", "this help"},
    {"Esc", "dismiss error messages, close help"},
    {"Ctrl+Q", "quit"},
    {"F12", "save a screenshot (contactlab_DATE_TIME.png in the output folder)"},
    {"Left drag", "orbit"},
    {"Right / middle drag", "pan"},
    {"Wheel", "zoom (over a plot: zoom its y axis)"},
    {"Double-click", "select a body (Inspect window, plot body)"},
    {"Click a contact point", "pin its read-out in the Contacts panel"},
    {"Ctrl + left drag", "pull a body toward the mouse with a spring"},
};

bool Pressed(int key) { return ImGui::IsKeyPressed(key, false); }
}  // namespace

std::span<const Shortcut> Shortcuts() { return kShortcuts; }

void ToggleFollow(UiState* ui) {
  ui->camera.follow_body = ui->camera.follow_body >= 0 ? -1 : ui->plot_body;
  if (ui->camera.follow_body >= 0) ui->views.main = -1;  // following is the free camera's
}

void HandleShortcuts(const Snapshot& snapshot, UiState* ui, UiActions* actions) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.KeyCtrl && Pressed(GLFW_KEY_Q)) actions->quit = true;
  if (Pressed(GLFW_KEY_F12)) actions->save_screenshot = true;
  if (Pressed(GLFW_KEY_ESCAPE)) {
    ui->errors.clear();
    ui->show_help = false;
  }
  if (io.WantCaptureKeyboard || io.KeyCtrl || io.KeyAlt || io.KeySuper) return;
  // In a scene with a robot arm, Space and S belong to the teleoperation keys (grip, move back:
  // input/keyboard_device.h); Enter and '.' work everywhere.
  const bool teleop = snapshot.teleop.active;
  if ((!teleop && Pressed(GLFW_KEY_SPACE)) || Pressed(GLFW_KEY_ENTER) ||
      Pressed(GLFW_KEY_KP_ENTER)) {
    if (snapshot.paused) {
      actions->commands.push_back(command::Resume{});
    } else {
      actions->commands.push_back(command::Pause{});
    }
  }
  // '.' steps forward: through the timeline while a recorded step is shown, else one new step;
  // ',' steps back through the timeline (pausing the run).
  if (Pressed(GLFW_KEY_PERIOD) && snapshot.timeline.viewing) {
    actions->commands.push_back(command::StepTimeline{+1});
  } else if ((!teleop && Pressed(GLFW_KEY_S)) || Pressed(GLFW_KEY_PERIOD)) {
    if (!snapshot.paused) actions->commands.push_back(command::Pause{});
    actions->commands.push_back(command::StepOnce{});
  }
  if (Pressed(GLFW_KEY_COMMA)) actions->commands.push_back(command::StepTimeline{-1});
  if (Pressed(GLFW_KEY_R)) actions->commands.push_back(command::Reset{});
  if (Pressed(GLFW_KEY_F)) ToggleFollow(ui);
  if (Pressed(GLFW_KEY_1)) actions->camera_preset = CameraPreset::kFront;
  if (Pressed(GLFW_KEY_2)) actions->camera_preset = CameraPreset::kSide;
  if (Pressed(GLFW_KEY_3)) actions->camera_preset = CameraPreset::kTop;
  if (Pressed(GLFW_KEY_4)) actions->camera_preset = CameraPreset::kIso;
  if (Pressed(GLFW_KEY_0)) actions->frame_scene = true;
  if (Pressed(GLFW_KEY_P)) {
    ui->plot_window.paused = !ui->plot_window.paused;
    ui->plot_window.paused_end_s = snapshot.time_s;
  }
  if (Pressed(GLFW_KEY_C)) ui->layers.contact_points = !ui->layers.contact_points;
  if (Pressed(GLFW_KEY_N)) {
    const bool on = !(ui->layers.normal_forces || ui->layers.friction_forces);
    ui->layers.normal_forces = ui->layers.friction_forces = on;
  }
  if (Pressed(GLFW_KEY_G)) ui->layers.grid = !ui->layers.grid;
  if (Pressed(GLFW_KEY_TAB)) ui->show_panels = !ui->show_panels;
  if (Pressed(GLFW_KEY_H) || Pressed(GLFW_KEY_F1)) ui->show_help = !ui->show_help;
}

}  // namespace contactlab
