#include "render/shape_mesh_cache.h"

#include <spdlog/spdlog.h>

namespace contactlab {

ShapeMeshCache::Key ShapeMeshCache::KeyOf(const Shape& s) {
  if (s.type == ShapeType::kConvexMesh) {
    // A mesh shape is drawn as its mesh, a hull as the hull.
    const void* drawn = s.mesh ? static_cast<const void*>(s.mesh.get()) : s.convex_mesh.get();
    return Key(static_cast<int>(s.type), 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, drawn);
  }
  return Key(static_cast<int>(s.type), static_cast<float>(s.radius_m),
             static_cast<float>(s.length_m), static_cast<float>(s.half_extents_m.x()),
             static_cast<float>(s.half_extents_m.y()), static_cast<float>(s.half_extents_m.z()),
             nullptr);
}

void ShapeMeshCache::Rebuild(const std::vector<const Shape*>& shapes,
                             std::vector<ShapeMeshLevels>* meshes) {
  std::map<Key, Entry> kept;
  meshes->assign(shapes.size(), ShapeMeshLevels{});
  int created = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape* shape = shapes[i];
    if (shape == nullptr || shape->type == ShapeType::kHalfSpace) continue;
    const Key key = KeyOf(*shape);
    auto it = kept.find(key);
    if (it == kept.end()) {
      auto old = meshes_.find(key);
      Entry entry;
      if (old != meshes_.end()) {
        entry = std::move(old->second);
      } else {
        const int levels = HasDetailLevels(*shape) ? kNumDetailLevels : 1;
        for (int level = 0; level < levels; ++level) {
          entry.levels[level] = std::make_unique<GpuMesh>(MakeShapeMesh(*shape, level));
        }
        entry.convex_mesh = shape->convex_mesh;
        entry.solid_mesh = shape->mesh;
        ++created;
      }
      it = kept.emplace(key, std::move(entry)).first;
    }
    const Entry& entry = it->second;
    for (int level = 0; level < kNumDetailLevels; ++level) {
      (*meshes)[i][level] = (entry.levels[level] ? entry.levels[level] : entry.levels[0]).get();
    }
  }
  meshes_ = std::move(kept);  // frees meshes the new scene no longer uses
  spdlog::debug("shape meshes: {} resident, {} tessellated", meshes_.size(), created);
}

}  // namespace contactlab
