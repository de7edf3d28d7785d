// SceneSession: a scene posted by name, path or drop, an error for a file that is none, and the
// UI's per-scene state made afresh at the first snapshot of a new scene — without a window or a
// sim thread (snapshots filled from a World; the commands returned, not posted).
#include "ui/scene_session.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <variant>

#include "io/scene_loader.h"
#include "test_support/pile_scene.h"
#include "ui/view/camera_controller.h"

namespace contactlab {
namespace {

std::shared_ptr<const Snapshot> SnapshotOf(const SceneSpec& scene, uint64_t generation) {
  World world(scene);
  auto s = std::make_shared<Snapshot>();
  FillSnapshot(world, generation, 0, s.get());
  return s;
}

SceneDefaults MarkedDefaults() {
  SceneDefaults d;
  d.contact_settings.dt_s = 0.123;  // no scene has this
  return d;
}

TEST(SceneSession, TheFirstSceneStartsWithTheNameAndValuesItWasGiven) {
  SceneSession session("my pile", MarkedDefaults(), "");
  UiState ui;
  ui.posted_settings = ContactSettings{};
  const auto snapshot = SnapshotOf(testing::PileScene(2, 1e-3), 0);
  EXPECT_TRUE(session.IsNew(*snapshot));
  const std::optional<Command> select = session.OnNewScene(*snapshot, 1.0f, &ui);
  EXPECT_FALSE(session.IsNew(*snapshot));
  EXPECT_EQ(ui.current_scene, "my pile");
  EXPECT_EQ(ui.defaults.contact_settings.dt_s, 0.123);
  EXPECT_FALSE(ui.posted_settings.has_value());
  // The plot body is the scene's first dynamic body, and the sim thread is told so.
  EXPECT_EQ(ui.plot_body, DefaultPlotBody(*snapshot->scene));
  ASSERT_TRUE(select.has_value());
  ASSERT_TRUE(std::holds_alternative<command::SelectPlotBody>(*select));
  EXPECT_EQ(std::get<command::SelectPlotBody>(*select).body, ui.plot_body);
  EXPECT_TRUE(ui.auto_frame);  // framed on the bodies
  EXPECT_TRUE(ui.errors.empty());
}

TEST(SceneSession, ALoadedSceneIsShownUnderItsNameOnceItsSnapshotArrives) {
  SceneSession session("first", MarkedDefaults(), "");
  UiState ui;
  session.OnNewScene(*SnapshotOf(testing::PileScene(1, 1e-3), 0), 1.0f, &ui);

  const std::optional<Command> load = session.Load("incline", &ui);
  ASSERT_TRUE(load.has_value());
  ASSERT_TRUE(std::holds_alternative<command::LoadScene>(*load));
  const SceneSpec& incline = std::get<command::LoadScene>(*load).scene;
  EXPECT_EQ(ui.status, "loading incline");
  EXPECT_EQ(ui.current_scene, "first") << "until the sim thread has it";

  session.Posted(7);
  session.CheckLoad(6, &ui);
  EXPECT_EQ(ui.status, "loading incline") << "not handled yet";

  const auto snapshot = SnapshotOf(incline, 1);
  ASSERT_TRUE(session.IsNew(*snapshot));
  session.OnNewScene(*snapshot, 1.0f, &ui);
  EXPECT_EQ(ui.current_scene, "incline");
  EXPECT_EQ(ui.defaults.contact_settings.dt_s, incline.contact_settings.dt_s);
  // In: the status line says so (it said "loading incline" for as long as the scene was shown).
  EXPECT_EQ(ui.status, "loaded incline");
  session.CheckLoad(7, &ui);
  EXPECT_EQ(ui.status, "loaded incline");
}

// The sim thread's World may still reject a scene that parsed ("scene 'x' rejected: ..."): once
// it has handled the load without a new scene, the status line stops saying "loading".
TEST(SceneSession, ALoadTheSimThreadRejectedEndsWithItsErrorInTheStatusLine) {
  SceneSession session("first", MarkedDefaults(), "");
  UiState ui;
  session.OnNewScene(*SnapshotOf(testing::PileScene(1, 1e-3), 0), 1.0f, &ui);
  ASSERT_TRUE(session.Load("incline", &ui).has_value());
  session.Posted(3);
  session.CheckLoad(2, &ui);
  EXPECT_EQ(ui.status, "loading incline");
  AddError("scene 'incline' rejected: too many bodies", &ui);
  session.CheckLoad(3, &ui);
  EXPECT_EQ(ui.status, "could not load incline: scene 'incline' rejected: too many bodies");
  EXPECT_EQ(ui.current_scene, "first");
  // The next scene to arrive is not taken for the rejected one.
  session.OnNewScene(*SnapshotOf(testing::PileScene(2, 1e-3), 1), 1.0f, &ui);
  EXPECT_EQ(ui.current_scene, "first");
  EXPECT_EQ(ui.status, "could not load incline: scene 'incline' rejected: too many bodies");
}

TEST(SceneSession, AFileThatIsNoSceneIsAnErrorAndTheSceneStays) {
  SceneSession session("first", MarkedDefaults(), "");
  UiState ui;
  EXPECT_FALSE(session.Load("/no/such/scene.yaml", &ui).has_value());
  ASSERT_EQ(ui.errors.size(), 1u);
  EXPECT_EQ(ui.status, "could not load /no/such/scene.yaml: " + ui.errors.back());
  const std::string text = ::testing::TempDir() + "/scene_session_notes.txt";
  std::ofstream(text) << "not a scene\n";
  EXPECT_FALSE(session.Drop({text}, &ui).has_value());
  EXPECT_EQ(ui.errors.size(), 2u);
  EXPECT_NE(ui.errors.back().find("scene_session_notes.txt"), std::string::npos)
      << ui.errors.back();
  EXPECT_FALSE(session.Drop({}, &ui).has_value());
  EXPECT_EQ(ui.errors.size(), 2u) << "nothing dropped, nothing wrong";
  // The first scene still arrives under its own name.
  session.OnNewScene(*SnapshotOf(testing::PileScene(1, 1e-3), 0), 1.0f, &ui);
  EXPECT_EQ(ui.current_scene, "first");
}

TEST(SceneSession, ADroppedSceneFileLoadsUnderItsPath) {
  SceneSession session("first", MarkedDefaults(), "");
  UiState ui;
  const std::string path = ResolveScenePath("falling_sphere");
  const std::optional<Command> load = session.Drop({path, "/ignored.urdf"}, &ui);
  ASSERT_TRUE(load.has_value());
  session.OnNewScene(*SnapshotOf(std::get<command::LoadScene>(*load).scene, 1), 1.0f, &ui);
  EXPECT_EQ(ui.current_scene, path);
}

TEST(SceneSession, TheRestoredCameraShowsTheFirstSceneOnly) {
  SceneSession session("first", MarkedDefaults(), "");
  UiState ui;
  Camera saved;
  saved.distance_m = 7.5f;
  saved.yaw_rad = 1.25f;
  session.RestoreCamera(saved);
  session.OnNewScene(*SnapshotOf(testing::PileScene(1, 1e-3), 0), 1.0f, &ui);
  EXPECT_EQ(ui.camera.distance_m, 7.5f);
  EXPECT_EQ(ui.camera.yaw_rad, 1.25f);
  EXPECT_FALSE(ui.auto_frame) << "as the user last looked at it";

  session.OnNewScene(*SnapshotOf(testing::PileScene(1, 1e-3), 1), 1.0f, &ui);
  EXPECT_TRUE(ui.auto_frame);
  EXPECT_NE(ui.camera.distance_m, 7.5f) << "framed on the new scene";
}

TEST(SceneSession, AFollowingCameraFollowsTheNewPlotBody) {
  SceneSession session("first", MarkedDefaults(), "");
  UiState ui;
  ui.camera.follow_body = 5;
  session.OnNewScene(*SnapshotOf(testing::PileScene(3, 1e-3), 0), 1.0f, &ui);
  EXPECT_EQ(ui.camera.follow_body, ui.plot_body);
  EXPECT_GE(ui.plot_body, 1);
}

}  // namespace
}  // namespace contactlab
