#include "ui/view/viewport_input.h"

#include <imgui.h>

namespace contactlab {

PointerInput ViewportInput::ReadPointer(const ImGuiIO& io, std::span<const MouseButtonEvent> events,
                                        int64_t poll, double poll_s) {
  // Over a panel the clicks are the panel's; the timing still runs, to confirm a click.
  const bool over_panel = io.WantCaptureMouse && drag_.body < 0;
  clicks_ =
      click_timing_.Update(over_panel ? std::span<const MouseButtonEvent>{} : events, poll, poll_s);
  if (synthetic_) {
    const PointerInput p = *synthetic_;
    synthetic_->double_click = false;  // one frame
    return p;
  }
  if (over_panel) return PointerInput{};
  PointerInput p{io.MousePos.x, io.MousePos.y, io.MouseDown[0], false, io.KeyCtrl};
  if (clicks_.double_click) {  // where the second press was
    p.double_click = true;
    p.x = clicks_.double_click->x();
    p.y = clicks_.double_click->y();
  }
  return p;
}

ViewportEvents ViewportInput::Handle(const PointerInput& pointer, const Snapshot& snapshot,
                                     const Eigen::Matrix4f& view_projection,
                                     const Eigen::Vector2f& display) {
  ViewportEvents events;
  const bool pressed = pointer.left_down && !left_was_down_;
  left_was_down_ = pointer.left_down;
  if (display.x() <= 0 || display.y() <= 0) return events;
  const Ray ray = ScreenRay(view_projection, {pointer.x, pointer.y}, display);
  if (pointer.double_click && !pointer.ctrl) {
    if (const std::optional<BodyHit> hit = picker_.Pick(snapshot, ray)) {
      events.selected_body = hit->body;
    }
  }
  if (pressed && pointer.ctrl) {
    if (const std::optional<BodyHit> hit = picker_.Pick(snapshot, ray)) {
      drag_ = {hit->body, snapshot.body_poses[hit->body].inverse() * hit->p_W, hit->p_W,
               -ray.direction_W};
      events.selected_body = hit->body;  // its panel shows the pull
      events.grabbed = true;
    }
  }
  if (drag_.body < 0) return events;
  if (!pointer.left_down) {
    events.perturb = command::Perturb{};
    drag_.body = -1;
    return events;
  }
  if (const std::optional<Eigen::Vector3d> target =
          IntersectPlane(ray, drag_.plane_p_W, drag_.plane_n_W)) {
    events.perturb = command::Perturb{drag_.body, drag_.p_BoQ_B, *target};
  }
  events.dragging = true;
  return events;
}

std::optional<MouseInput> CameraMouse(const ImGuiIO& io, const ViewportEvents& events) {
  if (io.WantCaptureMouse || events.dragging) return std::nullopt;
  MouseInput mouse;
  mouse.dx = io.MouseDelta.x;
  mouse.dy = io.MouseDelta.y;
  mouse.left = io.MouseDown[0];
  mouse.right = io.MouseDown[1];
  mouse.middle = io.MouseDown[2];
  mouse.wheel = io.MouseWheel;
  return mouse;
}

bool MovesCamera(const MouseInput& mouse) {
  return mouse.wheel != 0 ||
         ((mouse.left || mouse.right || mouse.middle) && (mouse.dx != 0 || mouse.dy != 0));
}

}  // namespace contactlab
