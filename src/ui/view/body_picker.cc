#include "ui/view/body_picker.h"

#include <cmath>
#include <limits>

#include "render/primitive_meshes.h"

namespace contactlab {

Ray ScreenRay(const Eigen::Matrix4f& view_projection, const Eigen::Vector2f& pixel_px,
              const Eigen::Vector2f& viewport_px) {
  const Eigen::Matrix4f clip_to_world = view_projection.inverse();
  const float ndc_x = 2.0f * pixel_px.x() / viewport_px.x() - 1.0f;
  const float ndc_y = 1.0f - 2.0f * pixel_px.y() / viewport_px.y();
  const auto unproject = [&](float ndc_z) {
    const Eigen::Vector4f p = clip_to_world * Eigen::Vector4f(ndc_x, ndc_y, ndc_z, 1.0f);
    return Eigen::Vector3d((p.head<3>() / p.w()).cast<double>());
  };
  const Eigen::Vector3d near = unproject(-1.0f), far = unproject(1.0f);
  return {near, (far - near).normalized()};
}

std::optional<Eigen::Vector3d> IntersectPlane(const Ray& ray, const Eigen::Vector3d& p_W,
                                              const Eigen::Vector3d& n_W) {
  const double d = ray.direction_W.dot(n_W);
  if (std::abs(d) < 1e-9) return std::nullopt;
  const double s = (p_W - ray.origin_W).dot(n_W) / d;
  if (s < 0) return std::nullopt;
  return ray.origin_W + s * ray.direction_W;
}

namespace {

// Möller–Trumbore: the ray parameter at which it crosses triangle (a, b, c), if it does.
std::optional<double> HitTriangle(const Eigen::Vector3d& o, const Eigen::Vector3d& d,
                                  const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                  const Eigen::Vector3d& c) {
  const Eigen::Vector3d e1 = b - a, e2 = c - a, p = d.cross(e2);
  const double det = e1.dot(p);
  if (std::abs(det) < 1e-14) return std::nullopt;
  const Eigen::Vector3d s = o - a;
  const double u = s.dot(p) / det;
  if (u < 0 || u > 1) return std::nullopt;
  const Eigen::Vector3d q = s.cross(e1);
  const double v = d.dot(q) / det;
  if (v < 0 || u + v > 1) return std::nullopt;
  const double t = e2.dot(q) / det;
  if (t < 0) return std::nullopt;
  return t;
}

}  // namespace

std::optional<BodyHit> BodyPicker::Pick(const Snapshot& snapshot, const Ray& ray) {
  const int ng = static_cast<int>(snapshot.geometries.size());
  if (snapshot.scene_generation != scene_generation_) {
    scene_generation_ = snapshot.scene_generation;
    meshes_.assign(ng, TriangleMesh{});
    for (int g = 0; g < ng; ++g) {
      const int b = snapshot.geometry_body[g];
      if (snapshot.scene->bodies[b].kind != SceneBody::Kind::kDynamic) continue;
      meshes_[g] = MakeShapeMesh(snapshot.geometries[g]->shape);
    }
  }
  std::optional<BodyHit> nearest;
  double nearest_t = std::numeric_limits<double>::infinity();
  for (int g = 0; g < ng; ++g) {
    const TriangleMesh& mesh = meshes_[g];
    const Eigen::Isometry3d X_GW = snapshot.geometry_poses[g].inverse();
    const Eigen::Vector3d o_G = X_GW * ray.origin_W, d_G = X_GW.linear() * ray.direction_W;
    for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
      const auto vertex = [&](size_t k) { return mesh.positions[mesh.indices[k]].cast<double>(); };
      const std::optional<double> t =
          HitTriangle(o_G, d_G, vertex(i), vertex(i + 1), vertex(i + 2));
      if (t && *t < nearest_t) {
        nearest_t = *t;
        nearest = BodyHit{snapshot.geometry_body[g], ray.origin_W + *t * ray.direction_W, *t};
      }
    }
  }
  return nearest;
}

}  // namespace contactlab
