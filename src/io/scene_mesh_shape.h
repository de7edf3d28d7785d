// A `type: mesh` shape of a scene file (assets/scenes/README.md): a mesh file read through assimp
// (io/mesh_file.h), scaled, each of its objects checked to bound a solid.
#pragma once

#include <yaml-cpp/yaml.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/geometry/shape.h"
#include "engine/hydroelastic/volume_mesh.h"
#include "io/scene_yaml_context.h"

namespace contactlab {

struct MeshShapes {
  Shape whole;                 // every object in one mesh shape: hydroelastic contact, mass
  std::vector<Shape> objects;  // a mesh shape per object: point contact (convex pieces)
};

// From `file` (relative to the scene file's folder, else to the asset directory) and `scale`
// (a number or [sx, sy, sz], default 1). Throws SceneError naming the file, line and field, and
// for a bad mesh the mesh file, the object and what is wrong (open, not a manifold, degenerate
// triangles, inside-out).
MeshShapes LoadMeshShapes(const scene_yaml::Context& ctx, const YAML::Node& node,
                          const std::string& where);

// A shape's `volume_mesh: FILE.vtk` (VTK legacy ASCII tets, as `tetgen -k` writes them; path as
// for `file`), within the hydroelastic tet budget. Throws SceneError naming the file and line.
std::shared_ptr<const hydroelastic::VolumeMesh> LoadVolumeMesh(const scene_yaml::Context& ctx,
                                                               const YAML::Node& node,
                                                               const std::string& where);

}  // namespace contactlab
