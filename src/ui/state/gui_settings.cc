#include "ui/state/gui_settings.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "render/camera.h"
#include "render/render_layers.h"

namespace contactlab {

namespace {

namespace fs = std::filesystem;

// One entry per persisted value: how to write it and to read it back (false: not a value).
struct Field {
  std::function<std::string(const GuiSettings&)> write;
  std::function<bool(const std::string&, GuiSettings*)> read;
};

template <typename T>
bool Parse(const std::string& text, T* value) {
  std::istringstream in(text);
  T v{};
  if (!(in >> v) || !(in >> std::ws).eof()) return false;
  *value = v;
  return true;
}

Field Bool(bool RenderLayers::*member) {
  return {[member](const GuiSettings& s) { return std::string(s.layers.*member ? "1" : "0"); },
          [member](const std::string& t, GuiSettings* s) {
            return (t == "0" || t == "1") && ((s->layers.*member = t == "1"), true);
          }};
}

// The shortest text that reads back as the same float (std::to_string's six decimals would
// lose a traction scale of 1e-9 m/Pa).
Field Float(float RenderLayers::*member) {
  return {
      [member](const GuiSettings& s) { return fmt::format("{}", s.layers.*member); },
      [member](const std::string& t, GuiSettings* s) { return Parse(t, &(s->layers.*member)); }};
}

// The arrows' scaling by name (VectorScalingName).
Field Scaling() {
  return {
      [](const GuiSettings& s) { return std::string(VectorScalingName(s.layers.vector_scaling)); },
      [](const std::string& t, GuiSettings* s) {
        const std::optional<VectorScaling> scaling = ParseVectorScaling(t);
        if (scaling) s->layers.vector_scaling = *scaling;
        return scaling.has_value();
      }};
}

Field CameraFloat(float Camera::*member) {
  return {[member](const GuiSettings& s) {
            return s.camera ? std::to_string(*s.camera.*member) : std::string();
          },
          [member](const std::string& t, GuiSettings* s) {
            if (!s->camera) s->camera = Camera{};
            return Parse(t, &(*s->camera.*member));
          }};
}

const std::map<std::string, Field>& Fields() {
  static const std::map<std::string, Field> fields = {
      {"window_width",
       {[](const GuiSettings& s) { return std::to_string(s.width); },
        [](const std::string& t, GuiSettings* s) { return Parse(t, &s->width); }}},
      {"window_height",
       {[](const GuiSettings& s) { return std::to_string(s.height); },
        [](const std::string& t, GuiSettings* s) { return Parse(t, &s->height); }}},
      {"show_panels",
       {[](const GuiSettings& s) { return std::string(s.show_panels ? "1" : "0"); },
        [](const std::string& t, GuiSettings* s) {
          return (t == "0" || t == "1") && ((s->show_panels = t == "1"), true);
        }}},
      {"output_dir",
       {[](const GuiSettings& s) { return s.output_dir; },
        [](const std::string& t, GuiSettings* s) {
          s->output_dir = t;
          return !t.empty();
        }}},
      {"layer.bodies", Bool(&RenderLayers::bodies)},
      {"layer.grid", Bool(&RenderLayers::grid)},
      {"layer.shadows", Bool(&RenderLayers::shadows)},
      {"layer.contact_points", Bool(&RenderLayers::contact_points)},
      {"layer.normal_forces", Bool(&RenderLayers::normal_forces)},
      {"layer.friction_forces", Bool(&RenderLayers::friction_forces)},
      {"layer.body_frames", Bool(&RenderLayers::body_frames)},
      {"layer.teleop_target", Bool(&RenderLayers::teleop_target)},
      {"layer.visual_geometry", Bool(&RenderLayers::visual_geometry)},
      {"layer.see_through_static", Bool(&RenderLayers::see_through_static)},
      {"layer.contact_patches", Bool(&RenderLayers::contact_patches)},
      {"layer.traction_arrows", Bool(&RenderLayers::traction_arrows)},
      {"layer.ghost", Bool(&RenderLayers::ghost)},
      {"layer.alignment", Bool(&RenderLayers::alignment)},
      {"layer.force_scale_m_per_N", Float(&RenderLayers::force_scale_m_per_N)},
      {"layer.contact_point_size_m", Float(&RenderLayers::contact_point_size_m)},
      {"layer.see_through_alpha", Float(&RenderLayers::see_through_alpha)},
      // The contact views (ui/panels/contact_view_panel.h).
      {"layer.pressure_auto", Bool(&RenderLayers::pressure_auto)},
      {"layer.pressure_min_Pa", Float(&RenderLayers::pressure_min_Pa)},
      {"layer.pressure_max_Pa", Float(&RenderLayers::pressure_max_Pa)},
      {"layer.traction_scale_m_per_Pa", Float(&RenderLayers::traction_scale_m_per_Pa)},
      {"layer.patch_wireframe", Bool(&RenderLayers::patch_wireframe)},
      {"layer.slip_arrows", Bool(&RenderLayers::slip_arrows)},
      {"layer.slip_scale_s", Float(&RenderLayers::slip_scale_s)},
      {"layer.vector_scaling", Scaling()},
      {"layer.fixed_arrow_length_px", Float(&RenderLayers::fixed_arrow_length_px)},
      {"layer.force_threshold_N", Float(&RenderLayers::force_threshold_N)},
      {"layer.traction_threshold_Pa", Float(&RenderLayers::traction_threshold_Pa)},
      {"layer.slip_threshold_m_per_s", Float(&RenderLayers::slip_threshold_m_per_s)},
      {"camera.scene",
       {[](const GuiSettings& s) { return s.camera ? s.scene : std::string(); },
        [](const std::string& t, GuiSettings* s) {
          s->scene = t;
          return !t.empty();
        }}},
      {"camera.distance_m", CameraFloat(&Camera::distance_m)},
      {"camera.yaw_rad", CameraFloat(&Camera::yaw_rad)},
      {"camera.pitch_rad", CameraFloat(&Camera::pitch_rad)},
      {"camera.target_x",
       {[](const GuiSettings& s) { return s.camera ? std::to_string(s.camera->target.x()) : ""; },
        [](const std::string& t, GuiSettings* s) {
          if (!s->camera) s->camera = Camera{};
          return Parse(t, &s->camera->target.x());
        }}},
      {"camera.target_y",
       {[](const GuiSettings& s) { return s.camera ? std::to_string(s.camera->target.y()) : ""; },
        [](const std::string& t, GuiSettings* s) {
          if (!s->camera) s->camera = Camera{};
          return Parse(t, &s->camera->target.y());
        }}},
      {"camera.target_z",
       {[](const GuiSettings& s) { return s.camera ? std::to_string(s.camera->target.z()) : ""; },
        [](const std::string& t, GuiSettings* s) {
          if (!s->camera) s->camera = Camera{};
          return Parse(t, &s->camera->target.z());
        }}},
  };
  return fields;
}

std::string Trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

}  // namespace

std::string DefaultSettingsDirectory() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && xdg[0] != '\0') {
    return (fs::path(xdg) / "contactlab").string();
  }
  if (const char* home = std::getenv("HOME"); home && home[0] != '\0') {
    return (fs::path(home) / ".config" / "contactlab").string();
  }
  return "";
}

GuiSettings LoadGuiSettings(const std::string& directory, const GuiSettings& defaults) {
  GuiSettings s = defaults;
  const fs::path path = fs::path(directory) / "settings.txt";
  std::ifstream in(path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = Trim(line);
    if (line.empty() || line[0] == '#') continue;
    const size_t eq = line.find('=');
    const auto field =
        eq == std::string::npos ? Fields().end() : Fields().find(Trim(line.substr(0, eq)));
    if (field == Fields().end() || !field->second.read(Trim(line.substr(eq + 1)), &s)) {
      spdlog::warn("{}:{}: ignored (not a setting): {}", path.string(), number, line);
    }
  }
  if (s.camera && s.scene.empty()) s.camera.reset();  // a camera without its scene
  return s;
}

bool SaveGuiSettings(const std::string& directory, const GuiSettings& settings) {
  std::error_code error;
  fs::create_directories(directory, error);
  const fs::path path = fs::path(directory) / "settings.txt";
  std::ofstream out(path);
  out << "# contactlab GUI settings (written on exit; delete to reset)\n";
  for (const auto& [key, field] : Fields()) {
    const std::string value = field.write(settings);
    if (!value.empty()) out << key << " = " << value << "\n";
  }
  if (!out) {
    spdlog::warn("could not write the GUI settings to {}", path.string());
    return false;
  }
  return true;
}

}  // namespace contactlab
