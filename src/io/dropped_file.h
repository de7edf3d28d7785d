// A file a user hands the GUI (dropped on its window): a scene file as it is, or a URDF wrapped
// in a minimal scene (a rigid ground, the robot's base fixed at the origin, every joint held at
// its initial position by a stiff PD controller) so that a robot description can be looked at
// and pushed around without writing a scene first.
#pragma once

#include <string>

#include "engine/world/scene_spec.h"

namespace contactlab {

// By extension: .yaml/.yml → LoadSceneFile; .urdf → the minimal scene. Throws SceneError with
// one line naming the file for anything else, or for a malformed scene or URDF.
SceneSpec LoadDroppedFile(const std::string& path);

}  // namespace contactlab
