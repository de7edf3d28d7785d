// What the GUI remembers between runs (MuJoCo simulate's persisted settings): the window size,
// the panels shown, the visual layers, the camera of the scene last shown and the output folder
// chosen in the window, in a small `key = value` file next to Dear ImGui's own ini (window
// positions) in the user's config directory. A missing or unreadable file is no error (the defaults
// apply, a bad line is logged and skipped); screenshots and timed runs never read it, so they stay
// reproducible.
#pragma once

#include <optional>
#include <string>

#include "render/camera.h"
#include "render/render_layers.h"

namespace contactlab {

struct GuiSettings {
  int width = 0, height = 0;  // the window [pixels]; 0: not recorded
  bool show_panels = true;
  RenderLayers layers;
  std::string scene;  // the scene the camera belongs to
  std::optional<Camera> camera;
  // The output folder chosen in the window (io/output_folder.h); "" none: --output-dir, else
  // DefaultOutputDirectory().
  std::string output_dir;
};

// $XDG_CONFIG_HOME/contactlab, else $HOME/.config/contactlab; "" when neither is set.
std::string DefaultSettingsDirectory();

// Reads `directory`/settings.txt over `defaults` (keys not in the file keep their values).
GuiSettings LoadGuiSettings(const std::string& directory, const GuiSettings& defaults);
// Writes it (creating the directory); false with a logged warning if that fails.
bool SaveGuiSettings(const std::string& directory, const GuiSettings& settings);

}  // namespace contactlab
