// The `constraints:` list of a scene file (assets/scenes/README.md): couplers, distances and
// welds between bodies (docs/contact-model.md §3.2).
#pragma once

#include <yaml-cpp/yaml.h>

#include "engine/world/scene_spec.h"
#include "io/scene_yaml_context.h"

namespace contactlab {

// Appends each entry to scene->couplers, distances or welds; the bodies it names must be in
// `scene` already. Throws SceneError naming file, line and field.
void ParseConstraints(const scene_yaml::Context& ctx, const YAML::Node& list, SceneSpec* scene);

}  // namespace contactlab
