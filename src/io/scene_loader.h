// Scene files (YAML, assets/scenes/*.yaml) → SceneSpec. The format is documented in
// assets/scenes/README.md.
#pragma once

#include <stdexcept>
#include <string>

#include "engine/world/scene_spec.h"

namespace contactlab {

// Any problem with a scene file: the message is one line naming the file, line and field.
class SceneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads and validates a scene file. Throws SceneError.
SceneSpec LoadSceneFile(const std::string& path);
// Parses scene YAML text; `source` names it in messages. Throws SceneError.
SceneSpec ParseScene(const std::string& yaml_text, const std::string& source);

// Resolves a built-in scene name (assets/scenes/NAME.yaml) or a path to a file. Throws
// SceneError listing the built-in scenes when neither exists.
std::string ResolveScenePath(const std::string& name_or_path);

}  // namespace contactlab
