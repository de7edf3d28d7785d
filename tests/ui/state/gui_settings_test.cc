// The GUI settings file keeps the output folder chosen in the window, and a settings file
// without one leaves it to --output-dir or the default ("").
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

}  // namespace
}  // namespace contactlab
