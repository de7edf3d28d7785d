// Robots from URDF (urdfdom) → scene bodies: links, joints, limits, inertials, collision
// geometry (primitives; meshes loaded with assimp collide as their convex hull, kConvexMesh) and
// visual geometry (primitives and meshes as loaded, SceneBody::visuals: drawn only). Mesh files
// are found from package://NAME/... (the URDF's folder or an ancestor named NAME or holding a
// folder NAME, or ROS_PACKAGE_PATH), file://, absolute, or relative to the URDF's folder.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "engine/world/scene_spec.h"

namespace contactlab {

struct UrdfOptions {
  std::string name_prefix;  // prepended to every link name (two robots in one scene)
  Eigen::Isometry3d X_WRoot = Eigen::Isometry3d::Identity();  // pose of the root link
  bool fixed_base = true;  // weld the root link to the world (else a floating base)
  std::map<std::string, double> initial_positions;  // by joint name [rad or m]
  // PD controller with effort limit (docs/contact-model.md §3) on every revolute/prismatic joint;
  // the effort limit comes from the URDF's <limit effort>, the target from the initial position.
  std::optional<JointPdSpec> pd;
  ContactProperties contact;
};

// Appends the robot's links to `scene` (root first). Throws SceneError naming the file and
// the offending link/joint (and mesh file) for a malformed URDF, a missing or malformed mesh,
// or unsupported content.
void AddUrdfRobot(const std::string& path, const UrdfOptions& options, SceneSpec* scene);

}  // namespace contactlab
