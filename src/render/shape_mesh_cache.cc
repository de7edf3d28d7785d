#include "render/shape_mesh_cache.h"

#include <spdlog/spdlog.h>

#include "render/primitive_meshes.h"

namespace contactlab {

ShapeMeshCache::Key ShapeMeshCache::KeyOf(const Shape& s) {
  if (s.type == ShapeType::kConvexMesh) {
    // The address alone could be reused by a later scene's mesh once this one is freed: the
    // sizes and the centroid tell such a mesh apart.
    const ConvexPolyhedron& h = *s.convex_mesh;
    const Eigen::Vector3f c = h.mass.centroid_G.cast<float>();
    return Key(static_cast<int>(s.type), static_cast<float>(h.num_vertices()),
               static_cast<float>(h.triangles.size()), c.x(), c.y(), c.z(),
               static_cast<const void*>(&h));
  }
  return Key(static_cast<int>(s.type), static_cast<float>(s.radius_m),
             static_cast<float>(s.length_m), static_cast<float>(s.half_extents_m.x()),
             static_cast<float>(s.half_extents_m.y()), static_cast<float>(s.half_extents_m.z()),
             nullptr);
}

void ShapeMeshCache::Rebuild(const std::vector<const Shape*>& shapes,
                             std::vector<const GpuMesh*>* meshes) {
  std::map<Key, std::unique_ptr<GpuMesh>> kept;
  meshes->assign(shapes.size(), nullptr);
  int created = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape* shape = shapes[i];
    if (shape == nullptr || shape->type == ShapeType::kHalfSpace) continue;
    const Key key = KeyOf(*shape);
    auto it = kept.find(key);
    if (it == kept.end()) {
      auto old = meshes_.find(key);
      std::unique_ptr<GpuMesh> mesh;
      if (old != meshes_.end()) {
        mesh = std::move(old->second);
      } else {
        mesh = std::make_unique<GpuMesh>(MakeShapeMesh(*shape));
        ++created;
      }
      it = kept.emplace(key, std::move(mesh)).first;
    }
    (*meshes)[i] = it->second.get();
  }
  meshes_ = std::move(kept);  // frees meshes the new scene no longer uses
  spdlog::debug("shape meshes: {} resident, {} tessellated", meshes_.size(), created);
}

}  // namespace contactlab
