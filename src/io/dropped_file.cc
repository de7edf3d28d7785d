#include "io/dropped_file.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "io/scene_loader.h"

namespace contactlab {

namespace {

std::string LowerCaseExtension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

// The minimal scene around a URDF, as scene YAML (so that it is read and validated exactly as a
// scene file naming the URDF would be). The PD gains are those of the default scene's arm.
std::string MinimalUrdfScene(const std::filesystem::path& urdf) {
  return fmt::format(R"(scene: {}
dt: 1.0e-3
duration: 5.0
model: lagged
default_contact: {{stiffness: 1.0e6, hunt_crossley: 50.0, relaxation_time: 0.1, friction: 0.5}}
robots:
  - urdf: "{}"
    pd: {{kp: 1.0e5, kd: 1.0e3}}
bodies:
  - name: ground
    type: static
    shapes:
      - {{type: half_space, stiffness: .inf}}
)",
                     urdf.stem().string(), std::filesystem::absolute(urdf).string());
}

}  // namespace

SceneSpec LoadDroppedFile(const std::string& path) {
  const std::string extension = LowerCaseExtension(path);
  if (extension == ".yaml" || extension == ".yml") return LoadSceneFile(path);
  if (extension == ".urdf") {
    if (!std::filesystem::is_regular_file(path)) {
      throw SceneError(fmt::format("{}: no such file", path));
    }
    return ParseScene(MinimalUrdfScene(path), path);
  }
  throw SceneError(fmt::format("{}: not a scene (.yaml) or robot (.urdf) file", path));
}

}  // namespace contactlab
