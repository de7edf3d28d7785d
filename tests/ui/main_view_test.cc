// The main view's camera without a window: the part of the window the panels leave, the easing
// towards the bodies (a long frame takes no longer step than 0.1 s), a scene camera's view, and
// the mouse taking the camera from it without a jump.
#include "ui/main_view.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support/pile_scene.h"
#include "ui/panels/panels.h"

namespace contactlab {
namespace {

Snapshot PileSnapshot(SceneSpec scene = testing::PileScene(2, 1e-3)) {
  World world(scene);
  Snapshot s;
  FillSnapshot(world, 0, 0, &s);
  return s;
}

MainViewFrame Frame(float period_s, bool panels_shown = true) {
  MainViewFrame f;
  f.display = Eigen::Vector2f(1280, 720);
  f.period_s = period_s;
  f.free_view_fraction = FreeViewFraction(1280, 720, panels_shown);
  return f;
}

TEST(MainView, TheFreeFractionIsWhatThePanelsLeaveOfTheHeight) {
  EXPECT_EQ(FreeViewFraction(1280, 720, false), 1.0f);
  EXPECT_EQ(FreeViewFraction(0, 720, true), 1.0f);            // minimized
  EXPECT_FLOAT_EQ(FreeViewFraction(600, 800, false), 0.75f);  // narrower than high
  const PanelLayout l = ComputePanelLayout(1280, 720, true);
  ASSERT_GT(l.plots_h, 0);
  EXPECT_FLOAT_EQ(FreeViewFraction(1280, 720, true),
                  std::min((720 - l.plots_h) / 720, (1280 - l.sidebar_w) / 720));
  EXPECT_LT(FreeViewFraction(1280, 720, true), 1.0f);
}

// Distance of the orbit camera's target from where the framing puts it.
float EaseOnce(float period_s) {
  const Snapshot s = PileSnapshot();
  UiState ui;
  ui.camera.target = Eigen::Vector3f(3, 3, 3);
  Camera framed = ui.camera;
  FrameScene(s, Frame(0).free_view_fraction, &framed);
  const float before = (ui.camera.target - framed.target).norm();
  MainViewCamera(s, Frame(period_s), &ui);
  return (ui.camera.target - framed.target).norm() / before;
}

TEST(MainView, AutoFramingEasesTowardsTheBodiesAndALongFrameIsNoJump) {
  const float short_frame = EaseOnce(0.016f);
  EXPECT_LT(short_frame, 1.0f);
  EXPECT_GT(short_frame, 0.9f);
  const float tenth = EaseOnce(0.1f), stall = EaseOnce(5.0f);
  EXPECT_LT(tenth, short_frame);
  EXPECT_EQ(stall, tenth) << "a stall of 5 s takes a step of 0.1 s";
  EXPECT_GT(stall, 0.0f);
}

TEST(MainView, WithoutAutoFramingTheCameraStaysAndIsShiftedOutOfThePanels) {
  const Snapshot s = PileSnapshot();
  UiState ui;
  ui.auto_frame = false;
  const Camera before = ui.camera;
  const Camera shown = MainViewCamera(s, Frame(0.5f), &ui);
  EXPECT_EQ(ui.camera.target, before.target);
  // Drawn panned, so that the target shows in the middle of what the sidebar and the plots
  // leave; with the panels hidden, as it is.
  EXPECT_GT((shown.target - before.target).norm(), 0.01f);
  ui.show_panels = false;
  EXPECT_EQ(MainViewCamera(s, Frame(0.5f, false), &ui).target, before.target);
  EXPECT_EQ(ui.camera.target, before.target);
}

SceneSpec PileWithCamera() {
  SceneSpec scene = testing::PileScene(2, 1e-3);
  CameraSpec c;
  c.name = "task";
  c.X_PC = Eigen::Isometry3d(Eigen::Translation3d(1, -1, 1));
  c.X_PC.linear() = Eigen::AngleAxisd(2.0, Eigen::Vector3d(1, 1, 0).normalized()).matrix();
  scene.cameras.push_back(c);
  return scene;
}

TEST(MainView, ASceneCamerasViewIsShownUntilTheMouseMovesTheCamera) {
  const Snapshot s = PileSnapshot(PileWithCamera());
  UiState ui;
  ui.views.main = 0;
  const Camera scene_view = MainViewCamera(s, Frame(0.016f), &ui);
  ASSERT_TRUE(scene_view.X_WC.has_value());

  MouseInput still;
  still.left = true;  // a button held without motion: nothing taken
  MoveMainViewCamera(still, s, Frame(0.016f), &ui);
  EXPECT_EQ(ui.views.main, 0);
  EXPECT_TRUE(ui.auto_frame);

  MouseInput drag = still;
  drag.dx = 1;  // orbits by a pixel: from the scene camera's view on
  MoveMainViewCamera(drag, s, Frame(0.016f), &ui);
  EXPECT_EQ(ui.views.main, -1) << "the free camera now";
  EXPECT_FALSE(ui.auto_frame);
  const Camera free_view = MainViewCamera(s, Frame(0.016f), &ui);
  EXPECT_FALSE(free_view.X_WC.has_value());
  // Looking about where the scene camera looked (a pixel's orbit away): no jump.
  const Eigen::Vector3f forward = (ui.camera.target - ui.camera.Eye()).normalized();
  EXPECT_GT(forward.dot(scene_view.X_WC->linear().col(2)), std::cos(0.01f));
}

}  // namespace
}  // namespace contactlab
