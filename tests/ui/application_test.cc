// The application shell in-process (hidden window, under Xvfb; skipped without a display): the
// render loop never waits for the solver.
#include "ui/application.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "app/teleop/perturbation.h"
#include "input/keyboard_device.h"
#include "io/scene_loader.h"
#include "render/camera.h"
#include "test_support/display.h"
#include "ui/panels/panels.h"
#include "ui/panels/slip_meter_panel.h"
#include "ui/state/auto_quality.h"
#include "ui/state/gui_settings.h"
#include "ui/view/camera_views.h"

namespace contactlab {
namespace {

ApplicationOptions SmallHiddenWindow(const std::string& scene) {
  ApplicationOptions o;
  o.scene = o.scene_defaults = LoadSceneFile(ResolveScenePath(scene));
  o.scene_name = scene;
  o.width = 640;
  o.height = 480;
  o.visible = false;
  o.vsync = false;
  // These tests time the render loop itself while ctest runs others beside it; the lowered
  // render priority (a deployment choice, measured with --gui-stats) would make them measure
  // the machine's load instead.
  o.render_thread_nice = 0;
  o.input = "keyboard";
  return o;
}

// Counted in frames and steps, not in milliseconds: the first step takes a minute, and the
// window draws its frames meanwhile. A loop that waited for the solver would draw at most one
// frame before the step ends (and then sim_steps would be ≥ 1); ten frames take seconds even on
// a slow, loaded machine under llvmpipe.
TEST(Application, RendersAtItsOwnRateWhileTheSolverIsSlow) {
  CONTACTLAB_REQUIRE_DISPLAY();
  ApplicationOptions o = SmallHiddenWindow("falling_sphere");
  o.realtime_factor = 1.0;
  o.artificial_step_delay_s = 60.0;  // every step takes ≥ 60 s (Stop wakes it)
  Application app(o);
  ASSERT_EQ(app.render_error(), "");
  const FrameStats s = app.RunFrames(10);
  EXPECT_EQ(s.frames, 10);
  EXPECT_EQ(s.sim_steps, 0u) << "the frames waited for the step (" << s.wall_s << " s)";
  EXPECT_GT(s.mean_work_ms, 0.0);
  EXPECT_LE(s.mean_work_ms, s.mean_frame_ms + 1e-9);
  EXPECT_EQ(s.errors, 0u);
}

TEST(Application, RunFramesAdvancesTheSimulationInRealTime) {
  CONTACTLAB_REQUIRE_DISPLAY();
  ApplicationOptions o = SmallHiddenWindow("falling_sphere");
  o.realtime_factor = 1.0;
  Application app(o);
  const FrameStats s = app.RunFrames(20);
  EXPECT_EQ(s.frames, 20);
  EXPECT_GT(s.sim_steps, 0u);
  // Paced to wall time (δt = 0.5 ms): no more simulated time than wall time, with slack.
  EXPECT_LE(s.sim_time_s, s.wall_s * 1.2 + 0.02);
}

TEST(Application, ScreenshotWithoutRunningIsDeterministicInSteps) {
  CONTACTLAB_REQUIRE_DISPLAY();
  ApplicationOptions o = SmallHiddenWindow("incline");
  o.realtime_factor = 1.0;
  Application app(o);
  const std::string png = ::testing::TempDir() + "/app_incline.png";
  app.Screenshot(6, png);  // 6 frames × 1/60 s = 0.1 s = 100 steps of 1 ms
  const FrameStats s = app.RunFrames(0);
  EXPECT_EQ(s.sim_steps, 0u);
  EXPECT_NEAR(s.sim_time_s, 0.1, 1e-9);
}

// The Slip meter section shows the held peg's meter, measured on the sim thread: after 6 stepped
// frames (0.1 s, 100 steps of 1 ms) the peg is held by both fingers since the first step and has
// crept in the hand.
TEST(ApplicationSlipMeter, ThePanelShowsTheHeldPegInTheHand) {
  CONTACTLAB_REQUIRE_DISPLAY();
  Application app(SmallHiddenWindow("peg_in_hole"));
  app.RunSteppedFrames(6);
  const std::shared_ptr<const Snapshot> s = app.LatestSnapshot();
  EXPECT_NEAR(s->time_s, 0.1, 1e-9);
  ASSERT_TRUE(s->slip_meter.active);
  const SlipReading& r = s->slip_meter.reading;
  EXPECT_EQ(r.body, s->scene->FindBody("peg"));
  EXPECT_EQ(r.hand, s->scene->FindBody("panda_hand"));
  EXPECT_TRUE(r.held);
  EXPECT_GT(r.creep_path_m, 0);
  const std::vector<std::string> lines = SlipMeterLines(*s);
  ASSERT_GE(lines.size(), 6u);
  EXPECT_EQ(lines[0], "peg in panda_hand");
  EXPECT_EQ(lines[1], "held by 2 hand bodies since t = 0.001 s");
  EXPECT_EQ(lines[2].rfind("slip ", 0), 0u) << lines[2];
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// Driven in stepped frames (60 a simulated second): what happens depends on the frame count
// alone. The sphere is dropped straight down (the scene's sphere rolls away at 1.43 m/s), so that
// it rests where it is grabbed.
TEST(ApplicationPicking, DoubleClickSelectsABodyAndCtrlDragPullsIt) {
  CONTACTLAB_REQUIRE_DISPLAY();
  ApplicationOptions o = SmallHiddenWindow("falling_sphere");
  o.realtime_factor = 1.0;
  for (SceneBody& b : o.scene.bodies) {
    if (b.initial_velocity.size() > 0) b.initial_velocity.setZero();
  }
  Application app(o);
  app.RunSteppedFrames(90);  // 1.5 s: the sphere has landed and rests
  ASSERT_LT(app.LatestSnapshot()
                ->body_poses[app.LatestSnapshot()->scene->FindBody("sphere")]
                .translation()
                .head<2>()
                .norm(),
            1e-6)
      << "dropped straight down";
  const std::shared_ptr<const Snapshot> s = app.LatestSnapshot();
  const int sphere = s->scene->FindBody("sphere");
  ASSERT_GE(sphere, 0);
  const Eigen::Vector3d p0 = s->body_poses[sphere].translation();
  std::optional<Eigen::Vector2f> at = app.ProjectToWindow(p0);
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(app.selected_body(), -1);
  PointerInput pointer{at->x(), at->y(), false, true, false};  // a double-click on its centre
  app.SetSyntheticPointer(pointer);
  app.RunSteppedFrames(2);
  EXPECT_EQ(app.selected_body(), sphere);

  // Ctrl+drag: press on the sphere, then move the pointer 200 pixels up and hold. (The
  // selection stopped the camera's auto-framing: the view holds still from here on.)
  at = app.ProjectToWindow(app.LatestSnapshot()->body_poses[sphere].translation());
  ASSERT_TRUE(at.has_value());
  pointer = {at->x(), at->y(), true, false, true};
  app.SetSyntheticPointer(pointer);
  app.RunSteppedFrames(2);
  pointer.y -= 200;
  app.SetSyntheticPointer(pointer);
  app.RunSteppedFrames(90);  // 1.5 s: ten periods of the 5 Hz spring
  const std::shared_ptr<const Snapshot> pulled = app.LatestSnapshot();
  EXPECT_EQ(pulled->perturbation.body, sphere);
  const Eigen::Vector3d p1 = pulled->body_poses[sphere].translation();
  // It hangs from the spring at the pointer, sagging by g/ω² (critically damped, settled).
  const Eigen::Vector3d target_W = pulled->perturbation.target_W;
  const double w = 2 * M_PI * kPerturbationFrequency_Hz;
  EXPECT_GT(target_W.z() - p0.z(), 0.03);
  EXPECT_NEAR((pulled->perturbation.p_WQ - target_W).norm(), 9.81 / (w * w), 3e-3);
  // Off the floor (resting, it would not move a micrometre); the grabbed point, on its
  // surface, is what hangs at the pointer, the centre below or beside it.
  EXPECT_GT(p1.z() - p0.z(), 5e-3) << "the sphere follows the pointer up";
  // The spring's target is where the pointer is.
  const std::optional<Eigen::Vector2f> target = app.ProjectToWindow(pulled->perturbation.target_W);
  ASSERT_TRUE(target.has_value());
  EXPECT_NEAR(target->y(), pointer.y, 2.0);
  // Released: the spring goes.
  pointer.left_down = false;
  app.SetSyntheticPointer(pointer);
  app.RunSteppedFrames(3);
  EXPECT_EQ(app.LatestSnapshot()->perturbation.body, -1);
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// A double-click or a Ctrl+press on the camera inset is on its picture: the body the main view
// shows behind it is neither selected nor grabbed. The scene: falling_sphere dropped straight
// down, with a main camera that shows it under the inset (top right) and an inset camera.
TEST(ApplicationPicking, ClicksOnTheCameraInsetDoNotPickTheBodyBehindIt) {
  CONTACTLAB_REQUIRE_DISPLAY();
  const std::string path = ::testing::TempDir() + "/falling_sphere_inset.yaml";
  {
    std::ofstream out(path);
    out << std::ifstream(ResolveScenePath("falling_sphere")).rdbuf()
        << "cameras:\n"
           "  - {name: task, position: [-0.08, -0.5, 0.1], look_at: [-0.08, 0, 0]}\n"
           "  - {name: wrist, position: [0.3, 0, 0.3], look_at: [0, 0, 0]}\n";
  }
  ApplicationOptions o = SmallHiddenWindow("falling_sphere");
  o.scene = o.scene_defaults = LoadSceneFile(path);
  for (SceneBody& b : o.scene.bodies) {
    if (b.initial_velocity.size() > 0) b.initial_velocity.setZero();
  }
  Application app(o);
  app.RunSteppedFrames(30);  // 0.5 s: landed and resting
  const std::shared_ptr<const Snapshot> s = app.LatestSnapshot();
  const int sphere = s->scene->FindBody("sphere");
  const std::optional<Eigen::Vector2f> at =
      app.ProjectToWindow(s->body_poses[sphere].translation());
  ASSERT_TRUE(at.has_value());
  const InsetRect inset = ComputeInsetRect(640, 480, CameraViews{}.inset_height_fraction);
  ASSERT_GT(at->x(), inset.x + 10);
  ASSERT_LT(at->y(), inset.y + inset.h - 10) << "the sphere is behind the inset";
  app.SetSyntheticPointer(PointerInput{at->x(), at->y(), false, true, false});  // double-click
  app.RunSteppedFrames(2);
  EXPECT_EQ(app.selected_body(), -1);
  app.SetSyntheticPointer(PointerInput{at->x(), at->y(), true, false, true});  // Ctrl+press
  app.RunSteppedFrames(3);
  EXPECT_EQ(app.LatestSnapshot()->perturbation.body, -1);
  EXPECT_EQ(app.selected_body(), -1);
  std::remove(path.c_str());
}

// The Inspect window, opened in peg_in_hole's default view, covers neither the camera inset nor
// what the view is of (the hand with the peg, the hole), nor the plots: it covered the inset.
TEST(ApplicationInspect, OpenedItLeavesTheInsetAndTheViewsSubjectInSight) {
  CONTACTLAB_REQUIRE_DISPLAY();
  ApplicationOptions o = SmallHiddenWindow("peg_in_hole");
  o.width = 1280;
  o.height = 720;
  Application app(o);
  app.RunSteppedFrames(2);
  ImGui::SetWindowCollapsed("Inspect", false);  // as a click on its title bar
  app.RunSteppedFrames(2);
  const ImGuiWindow* window = ImGui::FindWindowByName("Inspect");
  ASSERT_NE(window, nullptr);
  ASSERT_FALSE(window->Collapsed);
  const ImRect inspect = window->Rect();
  const InsetRect inset = ComputeInsetRect(1280, 720, CameraViews{}.inset_height_fraction);
  EXPECT_FALSE(inspect.Overlaps(ImRect(inset.x, inset.y, inset.x + inset.w, inset.y + inset.h)))
      << "inspect " << inspect.Min.x << "," << inspect.Min.y << " .. " << inspect.Max.x << ","
      << inspect.Max.y;
  EXPECT_LE(inspect.Max.y, 720 - ComputePanelLayout(1280, 720, true).plots_h) << "over the plots";
  const std::shared_ptr<const Snapshot> s = app.LatestSnapshot();
  const std::pair<const char*, Eigen::Vector3d> subject[] = {
      {"peg", s->body_poses[s->scene->FindBody("peg")].translation()},
      {"hand", s->teleop.tcp_W.translation()},
      {"hole", s->body_poses[s->scene->FindBody("block")].translation()}};
  for (const auto& [name, p_W] : subject) {
    const std::optional<Eigen::Vector2f> at = app.ProjectToWindow(p_W);
    ASSERT_TRUE(at.has_value()) << name;
    EXPECT_FALSE(inspect.Contains(ImVec2(at->x(), at->y())))
        << name << " at " << at->x() << "," << at->y();
  }
}

TEST(ApplicationDrop, ADroppedSceneLoadsAndAnythingElseKeepsTheScene) {
  CONTACTLAB_REQUIRE_DISPLAY();
  ApplicationOptions o = SmallHiddenWindow("falling_sphere");
  Application app(o);
  app.RunFrames(2);
  app.DropFiles({ResolveScenePath("conveyor")});
  FrameStats s;
  for (int i = 0; i < 1000 && app.LatestSnapshot()->scene->name != "conveyor"; ++i) {
    s = app.RunSteppedFrames(1);
  }
  EXPECT_EQ(app.LatestSnapshot()->scene->name, "conveyor");
  EXPECT_EQ(s.errors, 0u);
  const std::string text = "/tmp/contactlab_dropped.txt";
  std::ofstream(text) << "hello\n";
  app.DropFiles({text});
  s = app.RunFrames(3);
  EXPECT_EQ(s.errors, 1u);  // the red banner
  EXPECT_EQ(app.LatestSnapshot()->scene->name, "conveyor");
  std::remove(text.c_str());
}

// The status line follows a load as the sidebar shows it: "loading NAME" while the sim thread
// has it, "loaded NAME" once its first snapshot is shown (it said "loading" for good), the error
// for a file that is no scene.
TEST(ApplicationDrop, TheStatusLineSaysWhenTheSceneHasLoaded) {
  CONTACTLAB_REQUIRE_DISPLAY();
  Application app(SmallHiddenWindow("falling_sphere"));
  app.RunFrames(1);
  const std::string path = ResolveScenePath("incline");
  app.DropFiles({path});
  EXPECT_EQ(app.status_line(), "loading " + path);
  // Free-running frames: a stepped run's step count would not survive the new scene's reset.
  for (int i = 0; i < 1000 && app.status_line() == "loading " + path; ++i) app.RunFrames(1);
  EXPECT_EQ(app.LatestSnapshot()->scene->name, "incline");
  EXPECT_EQ(app.status_line(), "loaded " + path);
  app.DropFiles({"/no/such/scene.yaml"});
  EXPECT_EQ(app.status_line().rfind("could not load /no/such/scene.yaml: ", 0), 0u)
      << app.status_line();
}

// Key taps shorter than a frame (press and release between two frames) are not lost: '+' twice
// raises the keyboard's speed twice (x2), and a Space tap toggles the grip, which releases the
// scene's grip latch once the sim steps (Enter resumes it).
TEST(ApplicationKeys, TapsWithinOneFrameReachTheKeyboard) {
  CONTACTLAB_REQUIRE_DISPLAY();
  Application app(SmallHiddenWindow("peg_in_hole"));
  app.RunFrames(2);
  ASSERT_TRUE(app.LatestSnapshot()->teleop.grip_latched);
  for (int i = 0; i < 2; ++i) {
    app.SendKey(GLFW_KEY_EQUAL, GLFW_PRESS);
    app.SendKey(GLFW_KEY_EQUAL, GLFW_RELEASE);
  }
  app.SendKey(GLFW_KEY_SPACE, GLFW_PRESS);
  app.SendKey(GLFW_KEY_SPACE, GLFW_RELEASE);
  app.RunFrames(1);
  app.SendKey(GLFW_KEY_ENTER, GLFW_PRESS);
  app.RunFrames(1);
  app.SendKey(GLFW_KEY_ENTER, GLFW_RELEASE);
  for (int i = 0; i < 200 && app.LatestSnapshot()->teleop.grip_latched; ++i) {
    app.RunSteppedFrames(1);
  }
  const std::shared_ptr<const Snapshot> s = app.LatestSnapshot();
  EXPECT_FALSE(s->teleop.grip_latched);
  EXPECT_EQ(s->teleop.grip, 0.0);  // the toggle from the scene's closed grip: open
  EXPECT_NE(s->teleop.device_status.find("speed x2.00"), std::string::npos)
      << s->teleop.device_status;
}

// A motion key's tap within one frame (press and release delivered by one event poll, as at a
// few frames a second) moves the arm's target one jog step, 1 mm, through the window's
// callbacks, the frame's hand-over and the sim thread's polls; at 60 frames a second as at 3.
TEST(ApplicationKeys, AMotionKeyTapWithinAFrameMovesOneJogStep) {
  CONTACTLAB_REQUIRE_DISPLAY();
  for (const double frame_period_s : {1.0 / 60.0, 1.0 / 3.0}) {
    Application app(SmallHiddenWindow("peg_in_hole"));
    app.RunSteppedFrames(2, frame_period_s);
    const Eigen::Vector3d p0 = app.LatestSnapshot()->teleop.target_tcp_W.translation();
    app.SendKey(GLFW_KEY_E, GLFW_PRESS);  // +z
    app.SendKey(GLFW_KEY_E, GLFW_RELEASE);
    app.RunSteppedFrames(3, frame_period_s);  // the step takes 5 ms at twice the speed
    const Eigen::Vector3d moved = app.LatestSnapshot()->teleop.target_tcp_W.translation() - p0;
    EXPECT_NEAR(moved.z(), KeyboardConfig{}.jog_step_m, 1e-9) << "frame period " << frame_period_s;
    EXPECT_NEAR(moved.head<2>().norm(), 0.0, 1e-12);
  }
}

// What a tap of F12 left: the files in the output folder and in the working directory, and the
// toasts shown after it.
struct F12Result {
  std::vector<std::filesystem::path> saved, in_working_dir;
  bool empty_before = false;  // the output folder had no file before the tap
  std::vector<std::string> toasts;
  std::string output_dir;  // the application's
};

// Runs `warm_up_frames` frames of an application whose user data folder (XDG_DATA_HOME) and
// working directory are fresh folders of `dir`, taps F12 (press, a frame, release, two frames)
// and returns what the tap left. `options.output_dir` empty: the default folder under
// XDG_DATA_HOME.
F12Result TapF12(const ApplicationOptions& options, int warm_up_frames,
                 const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  fs::remove_all(dir);
  fs::create_directories(dir / "cwd");
  const fs::path previous = fs::current_path();
  fs::current_path(dir / "cwd");
  const char* old_data_home = std::getenv("XDG_DATA_HOME");
  const std::string saved_data_home = old_data_home ? old_data_home : "";
  setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);
  F12Result r;
  {
    Application app(options);
    r.output_dir = app.output_dir();
    app.RunFrames(warm_up_frames);
    r.empty_before = !fs::exists(r.output_dir) || fs::is_empty(r.output_dir);
    // From the tap on, frames of a stepped clock: the toasts' age is these frames' 1/60 s
    // each, however long the machine takes to draw them.
    app.SendKey(GLFW_KEY_F12, GLFW_PRESS);
    app.RunSteppedFrames(1);
    app.SendKey(GLFW_KEY_F12, GLFW_RELEASE);
    app.RunSteppedFrames(2);
    r.toasts = app.ToastTexts();
  }
  old_data_home ? setenv("XDG_DATA_HOME", saved_data_home.c_str(), 1) : unsetenv("XDG_DATA_HOME");
  fs::current_path(previous);
  if (fs::exists(r.output_dir)) {
    for (const auto& e : fs::directory_iterator(r.output_dir)) r.saved.push_back(e.path());
  }
  for (const auto& e : fs::directory_iterator(dir / "cwd")) r.in_working_dir.push_back(e.path());
  return r;
}

// F12 saves the next frame as contactlab_DATE_TIME.png in the output folder, by default
// $XDG_DATA_HOME/contactlab (created by this first save), never in the working directory; a
// toast in the window names the file (issue 35, item 5).
TEST(ApplicationScreenshotKey, F12SavesTheWindowAsATimestampedPngInTheOutputFolder) {
  CONTACTLAB_REQUIRE_DISPLAY();
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "contactlab_f12_test";
  const F12Result r = TapF12(SmallHiddenWindow("falling_sphere"), 2, dir);
  EXPECT_EQ(r.output_dir, (dir / "data" / "contactlab").string());
  EXPECT_TRUE(r.empty_before);
  EXPECT_TRUE(r.in_working_dir.empty());
  ASSERT_EQ(r.saved.size(), 1u);  // one press, one file
  const fs::path png = r.saved[0];
  const std::string name = png.filename().string();
  EXPECT_EQ(name.rfind("contactlab_", 0), 0u) << name;
  EXPECT_EQ(png.extension(), ".png");
  EXPECT_EQ(r.toasts, std::vector<std::string>{"saved " + png.string()});
  // The PNG header's IHDR: the window's framebuffer size, 640 x 480.
  std::ifstream in(png, std::ios::binary);
  unsigned char header[24] = {};
  in.read(reinterpret_cast<char*>(header), sizeof header);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(header) + 1, 3), "PNG");
  auto be32 = [&](int i) {
    return (header[i] << 24) | (header[i + 1] << 16) | (header[i + 2] << 8) | header[i + 3];
  };
  EXPECT_EQ(be32(16), 640);
  EXPECT_EQ(be32(20), 480);
  fs::remove_all(dir);
}

// --output-dir's folder (ApplicationOptions::output_dir) takes F12's file; one that cannot be
// written is an error toast, and nothing is saved anywhere.
TEST(ApplicationScreenshotKey, F12SavesIntoTheOutputFolderGivenOrSaysWhyNot) {
  CONTACTLAB_REQUIRE_DISPLAY();
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "contactlab_f12_given_test";
  ApplicationOptions options = SmallHiddenWindow("falling_sphere");
  options.output_dir = (dir / "given").string();
  const F12Result given = TapF12(options, 2, dir);
  ASSERT_EQ(given.saved.size(), 1u);
  EXPECT_EQ(given.saved[0].parent_path(), dir / "given");
  EXPECT_FALSE(fs::exists(dir / "data"));

  options.output_dir = "/proc/contactlab_out";
  const F12Result refused = TapF12(options, 2, dir);
  EXPECT_TRUE(refused.saved.empty());
  EXPECT_TRUE(refused.in_working_dir.empty());
  ASSERT_EQ(refused.toasts.size(), 1u);
  EXPECT_EQ(refused.toasts[0].rfind("screenshot not saved: /proc/contactlab_out", 0), 0u)
      << refused.toasts[0];
  fs::remove_all(dir);
}

// At the render quality's last level the panels are built a few times a second and blended
// from their layer in between (ui/panel_refresh.h): they are still on screen (the sidebar's
// dark window, not the scene behind it), and a key tap still acts in the frame after it.
TEST(ApplicationScreenshotKey, SlowedPanelsShowAndAnswerTheKeyAtOnce) {
  CONTACTLAB_REQUIRE_DISPLAY();
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "contactlab_slowed_panels_test";
  ApplicationOptions options = SmallHiddenWindow("falling_sphere");
  options.quality_level = AutoQuality(options.msaa_samples).num_levels() - 1;
  ASSERT_GT(AutoQuality(options.msaa_samples).quality(options.quality_level).panel_refresh_hz, 0);
  // Past the first frames, which build.
  const std::vector<fs::path> pngs = TapF12(options, 12, dir).saved;
  ASSERT_EQ(pngs.size(), 1u);
  int w = 0, h = 0, channels = 0;
  unsigned char* rgb = stbi_load(pngs[0].string().c_str(), &w, &h, &channels, 3);
  ASSERT_NE(rgb, nullptr);
  ASSERT_EQ(w, 640);
  // The sidebar (the left 200 px below its title) is Dear ImGui's window background: nearly
  // black over the light scene.
  int dark = 0, total = 0;
  for (int y = 40; y < h - 40; ++y) {
    for (int x = 5; x < 200; ++x, ++total) {
      const unsigned char* p = &rgb[3 * (static_cast<size_t>(y) * w + x)];
      dark += p[0] < 40 && p[1] < 40 && p[2] < 40;
    }
  }
  stbi_image_free(rgb);
  EXPECT_GT(dark, total / 3) << dark << " of " << total;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

// The automatic render quality in frames of a known period (ui/state/auto_quality.h): at 10 frames
// a second (below kLowFps) it steps down one level per second of frames, so 100 frames reach the
// last level (panels at 5 Hz) whatever this machine's real frame rate; a fixed level stays.
TEST(ApplicationQuality, SlowFramesLowerTheRenderQualityAndAFixedLevelKeepsIt) {
  CONTACTLAB_REQUIRE_DISPLAY();
  constexpr double kSlowFramePeriod_s = 0.1;
  ApplicationOptions o = SmallHiddenWindow("falling_sphere");
  const int last = AutoQuality(o.msaa_samples).num_levels() - 1;
  {
    Application app(o);
    FrameStats s = app.RunSteppedFrames(5, kSlowFramePeriod_s);
    EXPECT_EQ(s.quality_level, 0) << "within the first second of frames";
    s = app.RunSteppedFrames(95, kSlowFramePeriod_s);
    EXPECT_EQ(s.quality_level, last);
    EXPECT_EQ(s.errors, 0u);
  }
  o.auto_quality = false;
  Application fixed(o);
  EXPECT_EQ(fixed.RunSteppedFrames(100, kSlowFramePeriod_s).quality_level, 0);
}

// The 3-D view drawn at half the window's resolution (the render quality's 50 % level) and scaled
// up fills the view as at full resolution: block by block the same picture, only softer; the
// panels over it stay sharp; and a body is seen where picking projects it, and selected there.
TEST(ApplicationQuality, AHalfResolution3DViewFillsTheViewAndIsPickedWhereItIsSeen) {
  CONTACTLAB_REQUIRE_DISPLAY();
  ApplicationOptions o = SmallHiddenWindow("falling_sphere");
  o.width = 960;
  o.height = 600;
  for (SceneBody& b : o.scene.bodies) {  // straight down: it rests where it is clicked
    if (b.initial_velocity.size() > 0) b.initial_velocity.setZero();
  }
  const AutoQuality ladder(o.msaa_samples);
  int half = 0;
  while (half < ladder.num_levels() && ladder.quality(half).scene_scale != 0.5f) ++half;
  ASSERT_LT(half, ladder.num_levels());
  RenderQuality same_at_full = ladder.quality(half);
  same_at_full.scene_scale = 1.0f;
  ASSERT_EQ(ladder.quality(half - 2), same_at_full) << "the level with all else the same";

  struct Shot {
    std::vector<unsigned char> rgb;
    Eigen::Vector2f sphere_px;
  };
  const auto shoot = [&](int level) {
    ApplicationOptions lo = o;
    lo.quality_level = level;
    Application app(lo);
    const std::string png = ::testing::TempDir() + "/scaled_view_" + std::to_string(level) + ".png";
    app.Screenshot(60, png);  // 1 s: the sphere has landed
    int w = 0, h = 0, channels = 0;
    unsigned char* data = stbi_load(png.c_str(), &w, &h, &channels, 3);
    EXPECT_TRUE(data != nullptr && w == o.width && h == o.height);
    Shot shot;
    if (data) shot.rgb.assign(data, data + static_cast<size_t>(w) * h * 3);
    stbi_image_free(data);
    const std::shared_ptr<const Snapshot> s = app.LatestSnapshot();
    const int sphere = s->scene->FindBody("sphere");
    shot.sphere_px = app.ProjectToWindow(s->body_poses[sphere].translation()).value();
    if (ladder.quality(level).scene_scale < 1.0f) {  // a double-click there selects it
      app.SetSyntheticPointer(PointerInput{shot.sphere_px.x(), shot.sphere_px.y(), false, true});
      app.RunSteppedFrames(2);
      EXPECT_EQ(app.selected_body(), sphere);
    }
    return shot;
  };
  const Shot full = shoot(half - 2), scaled = shoot(half);
  ASSERT_EQ(full.rgb.size(), scaled.rgb.size());
  ASSERT_FALSE(full.rgb.empty());

  // The scene's part of the window, in 8 × 6 blocks: each block's mean colour.
  const PanelLayout layout = ComputePanelLayout(o.width, o.height, true);
  const int x0 = static_cast<int>(layout.sidebar_w) + 2, x1 = o.width;
  const int y0 = 0, y1 = o.height - static_cast<int>(layout.plots_h) - 2;
  constexpr int kCols = 8, kRows = 6;
  const auto block_means = [&](const std::vector<unsigned char>& rgb) {
    std::vector<Eigen::Vector3d> means;
    for (int by = 0; by < kRows; ++by) {
      for (int bx = 0; bx < kCols; ++bx) {
        Eigen::Vector3d sum = Eigen::Vector3d::Zero();
        int n = 0;
        for (int y = y0 + by * (y1 - y0) / kRows; y < y0 + (by + 1) * (y1 - y0) / kRows; ++y) {
          for (int x = x0 + bx * (x1 - x0) / kCols; x < x0 + (bx + 1) * (x1 - x0) / kCols; ++x) {
            const unsigned char* p = &rgb[3 * (static_cast<size_t>(y) * o.width + x)];
            sum += Eigen::Vector3d(p[0], p[1], p[2]);
            ++n;
          }
        }
        means.push_back(sum / n);
      }
    }
    return means;
  };
  const std::vector<Eigen::Vector3d> a = block_means(full.rgb), b = block_means(scaled.rgb);
  double spread = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_LT((a[i] - b[i]).cwiseAbs().maxCoeff(), 12.0)
        << "block " << i % kCols << ", " << i / kCols << ": " << a[i].transpose() << " at full, "
        << b[i].transpose() << " at 50 %";
    spread = std::max(spread, (a[i] - a[0]).cwiseAbs().maxCoeff());
  }
  EXPECT_GT(spread, 20.0) << "blocks unlike each other: a picture to get wrong";
  // Softer, so not the same pixels: the scale took effect.
  int differing = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const size_t i = 3 * (static_cast<size_t>(y) * o.width + x);
      differing += std::abs(full.rgb[i] - scaled.rgb[i]) > 8;
    }
  }
  EXPECT_GT(differing, (x1 - x0) * (y1 - y0) / 200);
  // Where picking projects the sphere, the picture shows it (coloured; floor and sky are grey).
  EXPECT_LT((full.sphere_px - scaled.sphere_px).norm(), 1.0f);
  const int px = static_cast<int>(scaled.sphere_px.x()),
            py = static_cast<int>(scaled.sphere_px.y());
  const unsigned char* p = &scaled.rgb[3 * (static_cast<size_t>(py) * o.width + px)];
  EXPECT_GT(std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}), 30)
      << int(p[0]) << "," << int(p[1]) << "," << int(p[2]) << " at " << px << ", " << py;
}

TEST(ApplicationSettings, LayersCameraAndWindowSizePersistBetweenRuns) {
  CONTACTLAB_REQUIRE_DISPLAY();
  const std::string dir = "/tmp/contactlab_settings_test";
  std::filesystem::remove_all(dir);
  GuiSettings saved;
  saved.width = 700;
  saved.height = 500;
  saved.layers.grid = false;
  saved.layers.force_scale_m_per_N = 0.05f;
  saved.scene = "falling_sphere";
  saved.camera = Camera{};
  saved.camera->distance_m = 3.5f;
  saved.camera->yaw_rad = 1.25f;
  ASSERT_TRUE(SaveGuiSettings(dir, saved));
  {
    ApplicationOptions o = SmallHiddenWindow("falling_sphere");
    o.settings_dir = dir;
    o.window_size_from_settings = true;
    Application app(o);
    app.RunFrames(3);
  }  // saves on the way out: what it restored, and its window
  const GuiSettings again = LoadGuiSettings(dir, GuiSettings{});
  EXPECT_EQ(again.width, 700);
  EXPECT_EQ(again.height, 500);
  EXPECT_FALSE(again.layers.grid);
  EXPECT_FLOAT_EQ(again.layers.force_scale_m_per_N, 0.05f);
  ASSERT_TRUE(again.camera.has_value());
  EXPECT_FLOAT_EQ(again.camera->distance_m, 3.5f);  // the restored view, not re-framed
  EXPECT_FLOAT_EQ(again.camera->yaw_rad, 1.25f);
  EXPECT_TRUE(std::filesystem::exists(dir + "/imgui.ini"));

  // A damaged file: the bad lines are skipped, the rest applies.
  std::ofstream(dir + "/settings.txt") << "layer.grid = maybe\nnonsense\nlayer.shadows = 0\n";
  const GuiSettings damaged = LoadGuiSettings(dir, GuiSettings{});
  EXPECT_TRUE(damaged.layers.grid);
  EXPECT_FALSE(damaged.layers.shadows);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace contactlab
