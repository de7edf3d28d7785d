#include "ui/main_view.h"

#include <algorithm>

#include "ui/panels/panels.h"
#include "ui/view/camera_views.h"
#include "ui/view/viewport_input.h"

namespace contactlab {

float FreeViewFraction(int width, int height, bool show_panels) {
  if (width <= 0 || height <= 0) return 1.0f;
  const float w = static_cast<float>(width), h = static_cast<float>(height);
  const PanelLayout l = ComputePanelLayout(w, h, show_panels);
  return std::min((h - l.plots_h) / h, (w - l.sidebar_w) / h);
}

Camera MainViewCamera(const Snapshot& snapshot, const MainViewFrame& frame, UiState* ui) {
  if (ui->auto_frame && ui->camera.follow_body < 0) {
    // Long frames (a stall, a scene load) take at most a 0.1 s step: no jump.
    constexpr float kAutoFrameTimeConstant_s = 0.6f;
    EaseTowardsFraming(snapshot, frame.free_view_fraction, std::min(frame.period_s, 0.1f),
                       kAutoFrameTimeConstant_s, &ui->camera);
  }
  UpdateFollow(snapshot, &ui->camera);  // so that unfollowing keeps the view
  // The scene's centre of attention in the middle of the area the panels leave free.
  const float w = frame.display.x(), h = frame.display.y();
  const PanelLayout layout = ComputePanelLayout(w, h, ui->show_panels);
  const float aspect = h > 0 ? w / h : 1.0f;
  const float shift_x = w > 0 ? 0.5f * layout.sidebar_w / w : 0;
  const float shift_y = h > 0 ? -0.5f * layout.plots_h / h : 0;
  if (auto scene_camera = MainSceneCamera(snapshot, ui->views, shift_x, shift_y)) {
    return *scene_camera;
  }
  return ShiftedCamera(ui->camera, snapshot, shift_x, shift_y, aspect);
}

void MoveMainViewCamera(const MouseInput& mouse, const Snapshot& snapshot,
                        const MainViewFrame& frame, UiState* ui) {
  if (MovesCamera(mouse)) {
    ui->auto_frame = false;     // the user has taken the camera
    if (ui->views.main >= 0) {  // from a scene camera's view on, as the free camera
      ui->camera = OrbitFrom(MainViewCamera(snapshot, frame, ui));
      ui->views.main = -1;
    }
  }
  ApplyMouse(mouse, static_cast<int>(frame.display.x()), static_cast<int>(frame.display.y()),
             &ui->camera);
}

}  // namespace contactlab
