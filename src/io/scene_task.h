// The task keys of a scene file (assets/scenes/README.md, "Held object and teleop program";
// issue 36): `held_object`, the body the slip meter and the summary's creep rate watch in a hand,
// and `teleop`, what drives the robot when no live device does.
#pragma once

#include <yaml-cpp/yaml.h>

#include "engine/world/scene_spec.h"
#include "io/scene_yaml_context.h"

namespace contactlab {

// Sets scene->held_object and scene->teleop from `root` (the bodies it names must be in `scene`
// already). Throws SceneError naming file, line and field.
void ParseSceneTask(const scene_yaml::Context& ctx, const YAML::Node& root, SceneSpec* scene);

}  // namespace contactlab
