// GPU meshes of engine shapes, tessellated and uploaded once per distinct shape (type and
// parameters) and kept across frames. When the scene changes (new scene_generation) the
// renderer calls Rebuild, which keeps meshes the new scene still uses and frees the rest.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "engine/geometry/shape.h"
#include "render/gpu_mesh.h"
#include "render/primitive_meshes.h"

namespace contactlab {

// A shape's meshes per detail level (primitive_meshes.h), finest first; a flat shape has one
// mesh for every level.
using ShapeMeshLevels = std::array<const GpuMesh*, kNumDetailLevels>;

class ShapeMeshCache {
 public:
  // Makes `shapes` (a bounded shape each; half-spaces map to nullptr) resident and returns
  // their meshes in the same order. Meshes of other shapes are released.
  void Rebuild(const std::vector<const Shape*>& shapes, std::vector<ShapeMeshLevels>* meshes);
  int size() const { return static_cast<int>(meshes_.size()); }

 private:
  // Parameters in float (what is drawn): shapes equal to float precision share a mesh; convex
  // meshes share by their (immutable, shared) polyhedron, which the entry keeps alive so that
  // its address cannot be reused by another polyhedron while it is a key.
  using Key = std::tuple<int, float, float, float, float, float, const void*>;
  static Key KeyOf(const Shape& shape);
  struct Entry {
    std::array<std::unique_ptr<GpuMesh>, kNumDetailLevels> levels;  // flat shapes: [0] only
    std::shared_ptr<const ConvexPolyhedron> convex_mesh;  // the keys' pointees, kept alive
    std::shared_ptr<const SolidMesh> solid_mesh;
  };
  std::map<Key, Entry> meshes_;
};

}  // namespace contactlab
