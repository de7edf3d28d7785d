// FrameDrawing in a hidden window (under Xvfb; skipped without a display): a renderer that fails
// to build says why and keeps the last good one; the scene drawn sets what picking reads; the
// panels go through the layer only at the quality that slows them.
#include "ui/frame_drawing.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <filesystem>
#include <fstream>

#include "render/shader_directory.h"
#include "test_support/display.h"
#include "test_support/pile_scene.h"
#include "ui/hidden_window.h"
#include "ui/state/auto_quality.h"
#include "ui/window.h"

namespace contactlab {
namespace {

TEST(FrameDrawing, AFailedBuildSaysWhyAndKeepsTheLastGoodRenderer) {
  CONTACTLAB_REQUIRE_DISPLAY();
  Window window(testing::HiddenWindow(), WindowEvents{});
  FrameDrawing missing("/no/such/shaders");
  EXPECT_NE(missing.Build(), "");
  EXPECT_EQ(missing.renderer(), nullptr);
  EXPECT_NE(missing.error(), "");
  EXPECT_TRUE(missing.ReadPixels(8, 8).empty());
  // Without a renderer the frame is cleared, and nothing is wrong with that.
  UiState ui;
  World world(testing::PileScene(1, 1e-3));
  Snapshot snapshot;
  FillSnapshot(world, 0, 0, &snapshot);
  EXPECT_EQ(missing.DrawScene(snapshot, ui.camera, ui, nullptr, 320, 240, 320, 240), "");
  EXPECT_EQ(missing.view_projection(), Eigen::Matrix4f::Identity());

  // Shaders of our own, to break one after the first build (a reload of an edited shader).
  namespace fs = std::filesystem;
  const fs::path shaders = fs::path(::testing::TempDir()) / "frame_drawing_shaders";
  fs::remove_all(shaders);
  fs::copy(ShaderDirectory(), shaders, fs::copy_options::recursive);
  FrameDrawing drawing(shaders.string());
  ASSERT_EQ(drawing.Build(), "");
  Renderer* const good = drawing.renderer();
  ASSERT_NE(good, nullptr);
  EXPECT_EQ(drawing.error(), "");
  EXPECT_EQ(drawing.DrawScene(snapshot, ui.camera, ui, nullptr, 320, 240, 320, 240), "");
  EXPECT_NE(drawing.view_projection(), Eigen::Matrix4f::Identity()) << "what picking reads";
  EXPECT_EQ(drawing.ReadPixels(320, 240).size(), 320u * 240u * 4u);

  std::ofstream(shaders / "layer.frag") << "#version 330 core\nthis does not compile\n";
  const std::string error = drawing.Build();
  EXPECT_NE(error.find("layer.frag"), std::string::npos) << error;
  EXPECT_EQ(drawing.error(), error);
  EXPECT_EQ(drawing.renderer(), good) << "the last good renderer stays";
  EXPECT_EQ(drawing.DrawScene(snapshot, ui.camera, ui, nullptr, 320, 240, 320, 240), "");
}

TEST(FrameDrawing, ThePanelsGoThroughTheLayerOnlyWhenTheQualitySlowsThem) {
  CONTACTLAB_REQUIRE_DISPLAY();
  Window window(testing::HiddenWindow(), WindowEvents{});
  FrameDrawing drawing(ShaderDirectory());
  ASSERT_EQ(drawing.Build(), "");
  const AutoQuality ladder(4);
  const RenderQuality& best = ladder.quality(0);
  const RenderQuality& slowest = ladder.quality(ladder.num_levels() - 1);
  EXPECT_FALSE(drawing.PanelsLayered(best));
  EXPECT_TRUE(drawing.PanelsLayered(slowest));
  EXPECT_FALSE(drawing.LayerIsCurrent(slowest)) << "nothing drawn into it yet";

  int fb_w = 0, fb_h = 0;
  window.FramebufferSize(&fb_w, &fb_h);
  window.BeginImGuiFrame();
  ImGui::Begin("a panel");
  ImGui::Text("text");
  ImGui::End();
  EXPECT_EQ(drawing.DrawPanels(true, slowest, fb_w, fb_h), "");
  EXPECT_TRUE(drawing.LayerIsCurrent(slowest));
  // Frames between builds blend the layer; the best quality draws them straight again.
  EXPECT_EQ(drawing.DrawPanels(false, slowest, fb_w, fb_h), "");
  EXPECT_TRUE(drawing.LayerIsCurrent(slowest));
  window.BeginImGuiFrame();
  EXPECT_EQ(drawing.DrawPanels(true, best, fb_w, fb_h), "");
  EXPECT_FALSE(drawing.LayerIsCurrent(slowest)) << "the last frame drew them directly";
}

}  // namespace
}  // namespace contactlab
