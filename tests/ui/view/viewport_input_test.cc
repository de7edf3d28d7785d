// ViewportInput: a double-click selects the body under the pointer, Ctrl+press grabs it and the
// drag moves the mouse spring's target in the plane through the grabbed point, the release lets
// go; the pointer is the synthetic one or the mouse unless a panel has it; the camera gets the
// mouse unless a panel or a pull has it. No window: a snapshot, a camera and Dear ImGui's IO.
#include "ui/view/viewport_input.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include "render/camera.h"
#include "render/view_projection.h"
#include "test_support/pile_scene.h"
#include "ui/view/contact_picking.h"

namespace contactlab {
namespace {

// The floor and a sphere of radius 5 cm (body 1), seen from 1 m in a view of 800 × 600.
struct SphereView {
  SphereView() {
    World world(testing::PileScene(1, 1e-3));
    FillSnapshot(world, 0, 0, &snapshot);
    centre = snapshot.body_poses[1].translation();
    Camera camera;
    camera.target = centre.cast<float>();
    camera.distance_m = 1.0f;
    view_projection = ViewProjection(camera, snapshot, display.x() / display.y());
    centre_px = *ProjectToScreen(view_projection, centre, display);
  }
  ViewportEvents Handle(ViewportInput* input, const PointerInput& pointer) const {
    return input->Handle(pointer, snapshot, view_projection, display);
  }
  Snapshot snapshot;
  Eigen::Vector3d centre;
  Eigen::Vector2f display{800, 600};
  Eigen::Matrix4f view_projection;
  Eigen::Vector2f centre_px;
};

TEST(ViewportInput, ADoubleClickSelectsTheBodyUnderThePointerAndNothingElse) {
  const SphereView v;
  ViewportInput input;
  const ViewportEvents hit =
      v.Handle(&input, {v.centre_px.x(), v.centre_px.y(), true, true, false});
  EXPECT_EQ(hit.selected_body, 1);
  EXPECT_FALSE(hit.grabbed);
  EXPECT_FALSE(hit.perturb.has_value());
  EXPECT_FALSE(hit.dragging);
  // Beside the sphere only the static floor: nothing selected.
  const ViewportEvents miss = v.Handle(&input, {20, 580, false, true, false});
  EXPECT_EQ(miss.selected_body, -1);
  // A double-click with Ctrl held is a press that grabs, not a selection by double-click.
  ViewportInput ctrl;
  EXPECT_TRUE(v.Handle(&ctrl, {v.centre_px.x(), v.centre_px.y(), true, true, true}).grabbed);
}

TEST(ViewportInput, CtrlDragPullsTheGrabbedPointAndTheReleaseLetsGo) {
  const SphereView v;
  ViewportInput input;
  const PointerInput press{v.centre_px.x(), v.centre_px.y(), true, false, true};
  const ViewportEvents grab = v.Handle(&input, press);
  EXPECT_EQ(grab.selected_body, 1);
  EXPECT_TRUE(grab.grabbed);
  EXPECT_TRUE(grab.dragging);
  ASSERT_TRUE(grab.perturb.has_value());
  EXPECT_EQ(grab.perturb->body, 1);
  // The sphere's near surface, 5 cm from its centre towards the camera; the target is there.
  const Eigen::Vector3d p_W = v.snapshot.body_poses[1] * grab.perturb->p_BoQ_B;
  EXPECT_NEAR((p_W - v.centre).norm(), 0.05, 5e-4);
  EXPECT_LT((grab.perturb->target_W - p_W).norm(), 1e-9);

  // Held and moved 100 px to the right: the target follows in the plane facing the camera.
  PointerInput moved = press;
  moved.x += 100;
  const ViewportEvents drag = v.Handle(&input, moved);
  EXPECT_EQ(drag.selected_body, -1) << "picked once, at the press";
  EXPECT_TRUE(drag.dragging);
  ASSERT_TRUE(drag.perturb.has_value());
  EXPECT_EQ(drag.perturb->body, 1);
  EXPECT_EQ(drag.perturb->p_BoQ_B, grab.perturb->p_BoQ_B);
  const std::optional<Eigen::Vector2f> target_px =
      ProjectToScreen(v.view_projection, drag.perturb->target_W, v.display);
  ASSERT_TRUE(target_px.has_value());
  EXPECT_NEAR(target_px->x(), moved.x, 0.01);
  EXPECT_NEAR(target_px->y(), moved.y, 0.01);

  // Released: a Perturb for no body; then nothing more.
  moved.left_down = false;
  const ViewportEvents release = v.Handle(&input, moved);
  EXPECT_FALSE(release.dragging);
  ASSERT_TRUE(release.perturb.has_value());
  EXPECT_EQ(release.perturb->body, -1);
  EXPECT_FALSE(v.Handle(&input, moved).perturb.has_value());
}

TEST(ViewportInput, OnlyAPressGrabsNotAButtonHeldSinceBefore) {
  const SphereView v;
  ViewportInput input;
  PointerInput held{20, 580, true, false, false};  // pressed over the floor, without Ctrl
  EXPECT_FALSE(v.Handle(&input, held).dragging);
  held.x = v.centre_px.x();  // dragged over the sphere, Ctrl pressed on the way
  held.y = v.centre_px.y();
  held.ctrl = true;
  const ViewportEvents events = v.Handle(&input, held);
  EXPECT_FALSE(events.dragging);
  EXPECT_FALSE(events.perturb.has_value());
  EXPECT_EQ(events.selected_body, -1);
}

TEST(ViewportInput, ThePointerIsTheSyntheticOneOrTheMouseWhenNoPanelHasIt) {
  ImGuiIO io;
  io.MousePos = ImVec2(10, 20);
  io.MouseDown[0] = true;
  io.MouseDoubleClicked[0] = true;
  io.KeyCtrl = true;
  ViewportInput input;
  EXPECT_FALSE(input.synthetic());
  PointerInput mouse = input.ReadPointer(io);
  EXPECT_EQ(mouse.x, 10);
  EXPECT_EQ(mouse.y, 20);
  EXPECT_TRUE(mouse.left_down && mouse.double_click && mouse.ctrl);
  io.WantCaptureMouse = true;  // over a panel
  mouse = input.ReadPointer(io);
  EXPECT_FALSE(mouse.left_down || mouse.double_click || mouse.ctrl);

  input.SetSyntheticPointer(PointerInput{5, 6, false, true, false});
  EXPECT_TRUE(input.synthetic());
  EXPECT_TRUE(input.ReadPointer(io).double_click);
  const PointerInput next = input.ReadPointer(io);
  EXPECT_FALSE(next.double_click) << "a double-click counts for one frame";
  EXPECT_EQ(next.x, 5);
  input.SetSyntheticPointer(std::nullopt);
  EXPECT_FALSE(input.synthetic());
}

TEST(ViewportInput, APullKeepsTheMouseOverAPanel) {
  const SphereView v;
  ViewportInput input;
  ImGuiIO io;
  io.MousePos = ImVec2(v.centre_px.x(), v.centre_px.y());
  io.MouseDown[0] = true;
  io.KeyCtrl = true;
  ASSERT_TRUE(v.Handle(&input, input.ReadPointer(io)).dragging);
  io.WantCaptureMouse = true;  // the drag crosses a panel
  const PointerInput pointer = input.ReadPointer(io);
  EXPECT_TRUE(pointer.left_down);
  EXPECT_TRUE(v.Handle(&input, pointer).dragging);
}

TEST(ViewportInput, TheCameraGetsTheMouseUnlessAPanelOrAPullHasIt) {
  ImGuiIO io;
  io.MouseDelta = ImVec2(3, -2);
  io.MouseDown[1] = true;
  io.MouseWheel = 0;
  const std::optional<MouseInput> mouse = CameraMouse(io, ViewportEvents{});
  ASSERT_TRUE(mouse.has_value());
  EXPECT_EQ(mouse->dx, 3);
  EXPECT_EQ(mouse->dy, -2);
  EXPECT_TRUE(mouse->right);
  EXPECT_FALSE(mouse->left || mouse->middle);
  EXPECT_TRUE(MovesCamera(*mouse));
  ViewportEvents pulling;
  pulling.dragging = true;
  EXPECT_FALSE(CameraMouse(io, pulling).has_value());
  io.WantCaptureMouse = true;
  EXPECT_FALSE(CameraMouse(io, ViewportEvents{}).has_value());

  MouseInput still;
  still.left = true;  // a button held without motion
  EXPECT_FALSE(MovesCamera(still));
  MouseInput hover;
  hover.dx = 5;  // motion without a button
  EXPECT_FALSE(MovesCamera(hover));
  MouseInput wheel;
  wheel.wheel = -1;
  EXPECT_TRUE(MovesCamera(wheel));
}

}  // namespace
}  // namespace contactlab
