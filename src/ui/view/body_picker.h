// Picking bodies with the mouse (MuJoCo simulate's double-click select and Ctrl+drag push): the
// ray through a pixel, and the nearest dynamic body it hits, tested against the triangles of
// each geometry's collision shape (what contact sees), built once per scene.
#pragma once

#include <Eigen/Geometry>
#include <optional>
#include <vector>

#include "app/runtime/snapshot.h"
#include "render/triangle_mesh.h"

namespace contactlab {

struct Ray {
  Eigen::Vector3d origin_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d direction_W = Eigen::Vector3d::UnitX();  // unit
};

// The ray from the eye through pixel_px of a viewport of viewport_px pixels (x right, y down
// from the top-left corner), for the world-to-clip matrix it was drawn with (the inverse of
// ProjectToScreen of ui/view/contact_picking.h).
Ray ScreenRay(const Eigen::Matrix4f& view_projection, const Eigen::Vector2f& pixel_px,
              const Eigen::Vector2f& viewport_px);
// Where the ray meets the plane through p_W with normal n_W (nullopt: parallel or behind).
std::optional<Eigen::Vector3d> IntersectPlane(const Ray& ray, const Eigen::Vector3d& p_W,
                                              const Eigen::Vector3d& n_W);

struct BodyHit {
  int body = -1;                                  // scene body
  Eigen::Vector3d p_W = Eigen::Vector3d::Zero();  // the point hit
  double distance_m = 0;                          // from the ray's origin
};

class BodyPicker {
 public:
  // The nearest dynamic body's geometry the ray hits; nullopt if none.
  std::optional<BodyHit> Pick(const Snapshot& snapshot, const Ray& ray);

 private:
  uint64_t scene_generation_ = UINT64_MAX;
  std::vector<TriangleMesh> meshes_;  // per geometry, in its frame G (empty: not pickable)
};

}  // namespace contactlab
