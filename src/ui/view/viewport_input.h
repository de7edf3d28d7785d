// The pointer over the 3D view (MuJoCo simulate's picking): the pointer read each frame (the
// mouse, or a synthetic pointer that tests and scripted demos set), a double-click that selects
// the body under it, a Ctrl+drag that pulls the body with the mouse spring (command::Perturb,
// docs/architecture.md §4), and the mouse motion left for the camera. What it finds is returned
// as ViewportEvents; the application applies them to the UI and the sim thread. Clicks and
// double-clicks are decided by the button events' stamps, at any frame rate (click_timing.h).
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <span>

#include "app/runtime/sim_runtime.h"
#include "app/runtime/snapshot.h"
#include "ui/view/body_picker.h"
#include "ui/view/camera_controller.h"
#include "ui/view/click_timing.h"

struct ImGuiIO;

namespace contactlab {

// A pointer (mouse) state for one frame, in window pixels (y down): what the application reads
// from the real mouse, or takes from SetSyntheticPointer (tests, scripted demos).
struct PointerInput {
  float x = 0, y = 0;
  bool left_down = false;
  bool double_click = false;  // a left double-click this frame
  bool ctrl = false;
};

// What the pointer did to the view this frame.
struct ViewportEvents {
  int selected_body = -1;  // picked this frame (−1: none): the plot body, shown in Inspect
  bool grabbed = false;    // picked by Ctrl+press: a pull starts (else by a double-click)
  std::optional<command::Perturb> perturb;  // the pull's target this frame, or its release
  bool dragging = false;                    // a pull holds the mouse: the camera stays
};

class ViewportInput {
 public:
  // Used instead of the mouse from the next frame on (nullopt: the mouse again); its
  // double_click counts for one frame.
  void SetSyntheticPointer(std::optional<PointerInput> pointer) { synthetic_ = pointer; }
  bool synthetic() const { return synthetic_.has_value(); }

  // This frame's pointer: the synthetic one, or the mouse unless it is over a panel (Dear
  // ImGui wants it) and no pull holds it. `events`: the frame's mouse-button events, up to the
  // window's event poll `poll` that began at `poll_s` (the event clock); a double-click among
  // them is the pointer's, at its second press. Those over a panel are not the view's.
  PointerInput ReadPointer(const ImGuiIO& io, std::span<const MouseButtonEvent> events = {},
                           int64_t poll = 0, double poll_s = 0);
  // This frame's clicks in the view (ReadPointer decides them): a click pins a contact once it
  // is confirmed single (ui/panels/contact_panel.h).
  const Clicks& clicks() const { return clicks_; }
  // Double-click selects, Ctrl+press grabs, the drag moves the target in the plane through the
  // grabbed point facing the camera, the release lets go. view_projection: the last frame's
  // (what the user clicked on); display: the window's size in pixels.
  ViewportEvents Handle(const PointerInput& pointer, const Snapshot& snapshot,
                        const Eigen::Matrix4f& view_projection, const Eigen::Vector2f& display);

 private:
  BodyPicker picker_;
  ClickTiming click_timing_;
  Clicks clicks_;
  std::optional<PointerInput> synthetic_;
  bool left_was_down_ = false;
  struct Drag {
    int body = -1;  // −1: not dragging
    Eigen::Vector3d p_BoQ_B, plane_p_W, plane_n_W;
  } drag_;
};

// The mouse's motion for the camera this frame: none while Dear ImGui wants the mouse or a pull
// holds it.
std::optional<MouseInput> CameraMouse(const ImGuiIO& io, const ViewportEvents& events);
// Whether the mouse moves the camera (the wheel, or a drag with a button held): the user takes
// the camera from the automatic framing and from a scene camera.
bool MovesCamera(const MouseInput& mouse);

}  // namespace contactlab
