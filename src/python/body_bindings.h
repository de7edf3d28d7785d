// A World's bodies from Python: named by their scene name or index (World.body_names), and their
// pose and velocity.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <variant>

#include "engine/world/world.h"

namespace contactlab {

// A scene body as a script names it: its name in the scene, or its index in World.body_names.
using BodyArgument = std::variant<int, std::string>;

// The scene index of the body. Throws ValueError for a name the scene does not have,
// IndexError for an index outside [0, number of bodies).
int SceneBodyIndex(const World& world, const BodyArgument& body);

// Adds body_names, body_pose and body_velocity to class World.
void BindBodies(pybind11::class_<World>* world);

}  // namespace contactlab
