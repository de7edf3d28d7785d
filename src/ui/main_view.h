// The camera of the main view each frame: the free orbit camera (UiState::camera), eased
// towards the framing of the moving bodies while auto_frame holds, following a body, or a scene
// camera (CameraViews::main); in each case shifted so that the centre of attention lies in the
// middle of the part of the window the panels leave free. And the mouse taking that camera.
#pragma once

#include <Eigen/Core>

#include "app/runtime/snapshot.h"
#include "render/camera.h"
#include "ui/state/ui_state.h"
#include "ui/view/camera_controller.h"

namespace contactlab {

// The part of the view's height the panels leave for the scene in a window of width × height
// (FrameScene's view_fraction); 1 for an empty window.
float FreeViewFraction(int width, int height, bool show_panels);

// What the main view needs of the frame: the window's size in pixels, the frame period (the
// easing's step) and FreeViewFraction.
struct MainViewFrame {
  Eigen::Vector2f display = Eigen::Vector2f::Zero();
  float period_s = 0;
  float free_view_fraction = 1;
};

// The camera to draw this frame with. Moves ui->camera: a step of the easing while
// ui->auto_frame holds (and no body is followed), and its target to the followed body.
Camera MainViewCamera(const Snapshot& snapshot, const MainViewFrame& frame, UiState* ui);

// The mouse on the main view's camera (ApplyMouse). A mouse that moves it takes it from the
// automatic framing, and from a scene camera's view on as the free camera (OrbitFrom): no jump.
void MoveMainViewCamera(const MouseInput& mouse, const Snapshot& snapshot,
                        const MainViewFrame& frame, UiState* ui);

}  // namespace contactlab
