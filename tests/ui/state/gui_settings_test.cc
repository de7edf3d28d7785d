// The GUI settings file keeps the output folder chosen in the window, and a settings file
// without one leaves it to --output-dir or the default (""); it keeps the contact views.
#include "ui/state/gui_settings.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace contactlab {
namespace {

namespace fs = std::filesystem;

TEST(GuiSettings, TheOutputFolderChosenInTheWindowIsKept) {
  const fs::path dir =
      fs::temp_directory_path() / ("contactlab_gui_settings_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  GuiSettings chosen;
  chosen.output_dir = "/data/my contactlab files";
  ASSERT_TRUE(SaveGuiSettings(dir.string(), chosen));
  EXPECT_EQ(LoadGuiSettings(dir.string(), GuiSettings{}).output_dir, chosen.output_dir);

  ASSERT_TRUE(SaveGuiSettings(dir.string(), GuiSettings{}));
  std::ifstream in(dir / "settings.txt");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("output_dir"), std::string::npos) << text;  // none chosen: none written
  EXPECT_EQ(LoadGuiSettings(dir.string(), GuiSettings{}).output_dir, "");
  fs::remove_all(dir);
}

TEST(GuiSettings, TheContactViewsAreKept) {
  const fs::path dir =
      fs::temp_directory_path() / ("contactlab_gui_views_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  GuiSettings chosen;
  RenderLayers& l = chosen.layers;
  l.slip_arrows = l.patch_wireframe = true;
  l.pressure_auto = false;
  l.pressure_min_Pa = 2e3f;
  l.pressure_max_Pa = 5e4f;
  l.vector_scaling = VectorScaling::kFixed;
  l.fixed_arrow_length_px = 25.0f;
  l.force_threshold_N = 0.5f;
  l.traction_threshold_Pa = 100.0f;
  l.slip_threshold_m_per_s = 2e-3f;
  l.slip_scale_s = 0.25f;
  l.traction_scale_m_per_Pa = 1e-9f;  // the slider's least: kept, not rounded to 0
  ASSERT_TRUE(SaveGuiSettings(dir.string(), chosen));
  const RenderLayers r = LoadGuiSettings(dir.string(), GuiSettings{}).layers;
  EXPECT_TRUE(r.slip_arrows && r.patch_wireframe);
  EXPECT_FALSE(r.pressure_auto);
  EXPECT_EQ(r.pressure_min_Pa, 2e3f);
  EXPECT_EQ(r.pressure_max_Pa, 5e4f);
  EXPECT_EQ(r.vector_scaling, VectorScaling::kFixed);
  EXPECT_EQ(r.fixed_arrow_length_px, 25.0f);
  EXPECT_EQ(r.force_threshold_N, 0.5f);
  EXPECT_EQ(r.traction_threshold_Pa, 100.0f);
  EXPECT_EQ(r.slip_threshold_m_per_s, 2e-3f);
  EXPECT_EQ(r.slip_scale_s, 0.25f);
  EXPECT_EQ(r.traction_scale_m_per_Pa, 1e-9f);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace contactlab
