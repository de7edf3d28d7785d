// What the panels and shortcuts ask the application to do this frame: commands for the sim
// thread, plus requests only the application can carry out (loading a scene file, writing the
// plot CSV, rebuilding the renderer, moving the camera).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/runtime/sim_runtime.h"
#include "ui/state/calibration_state.h"
#include "ui/view/camera_controller.h"

namespace contactlab {

struct UiActions {
  std::vector<Command> commands;  // posted to the SimRuntime in order
  // The Calibrate window's button (ui/calibration_session.h carries it out, before `commands`
  // are posted: Accept and Undo add theirs).
  std::optional<CalibrationRequest> calibrate;
  std::optional<std::string> load_scene;  // built-in name or path
  bool export_csv = false;       // write the visible plot window to csv_path (or the output folder)
  bool export_contacts = false;  // write the shown step's contacts (exports.h)
  bool export_plot_png = false;  // read back the chosen plot's pixels (exports.h)
  bool reload_shaders = false;
  // F12: the next frame as a time-stamped PNG in the output folder (io/output_folder.h).
  bool save_screenshot = false;
  std::optional<std::string> set_output_dir;  // the Files panel: save into this folder
  std::optional<CameraPreset> camera_preset;
  bool frame_scene = false;  // aim the camera at the whole scene
  bool quit = false;
};

}  // namespace contactlab
