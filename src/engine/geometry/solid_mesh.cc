#include "engine/geometry/solid_mesh.h"

#include <spdlog/fmt/fmt.h>

#include <cstdint>
#include <stdexcept>
#include <unordered_map>

namespace contactlab {
namespace {

// Directed edge i → j as one key.
uint64_t EdgeKey(int i, int j) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(i)) << 32) | static_cast<uint32_t>(j);
}

std::optional<std::string> DescribeEdgeDefect(const std::vector<std::array<int, 3>>& triangles) {
  std::unordered_map<uint64_t, int> directed;
  directed.reserve(3 * triangles.size());
  for (const std::array<int, 3>& t : triangles) {
    for (int k = 0; k < 3; ++k) ++directed[EdgeKey(t[k], t[(k + 1) % 3])];
  }
  int open = 0, shared_more = 0, same_direction = 0;
  for (const auto& [key, count] : directed) {
    const int i = static_cast<int>(key >> 32), j = static_cast<int>(key & 0xffffffffu);
    const auto reverse = directed.find(EdgeKey(j, i));
    const int opposite = reverse == directed.end() ? 0 : reverse->second;
    if (count > 1) {
      // Twice in one direction: two triangles disagree on the side that is outside, or (with
      // the reverse also present) more than two triangles meet at the edge.
      (opposite > 0 ? shared_more : same_direction) += 1;
    } else if (opposite == 0) {
      ++open;
    } else if (opposite > 1) {
      ++shared_more;
    }
  }
  if (open > 0) {
    return fmt::format("is open: {} edges belong to one triangle only (a closed surface is needed)",
                       open);
  }
  if (shared_more > 0) {
    return fmt::format("is not a manifold: {} edges are shared by more than two triangles",
                       shared_more);
  }
  if (same_direction > 0) {
    return fmt::format(
        "is not consistently oriented: {} edges are run in the same direction by their two "
        "triangles",
        same_direction);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> DescribeMeshDefect(const std::vector<Eigen::Vector3d>& vertices,
                                              const std::vector<std::array<int, 3>>& triangles) {
  if (triangles.size() < 4) return fmt::format("has {} triangles: no solid", triangles.size());
  const int n = static_cast<int>(vertices.size());
  Eigen::AlignedBox3d box;
  for (const Eigen::Vector3d& v : vertices) {
    if (!v.allFinite()) return std::string("has a non-finite vertex");
    box.extend(v);
  }
  const double diagonal = box.diagonal().norm();
  int degenerate = 0;
  for (const std::array<int, 3>& t : triangles) {
    for (int i : t) {
      if (i < 0 || i >= n) return fmt::format("has a triangle with vertex index {} of {}", i, n);
    }
    const double twice_area =
        (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]).norm();
    if (!(twice_area > 2e-12 * diagonal * diagonal)) ++degenerate;
  }
  if (degenerate > 0) {
    return fmt::format("has {} degenerate (zero-area) triangles", degenerate);
  }
  if (std::optional<std::string> edges = DescribeEdgeDefect(triangles)) return edges;
  const double volume = ComputePolyhedronMassProperties(vertices, triangles).volume_m3;
  if (volume < 0) {
    return fmt::format(
        "is inside-out: its triangles wind clockwise seen from outside (volume {:.3g} m³)", volume);
  }
  if (!(volume > 1e-12 * diagonal * diagonal * diagonal)) {
    return std::string("encloses no volume");
  }
  return std::nullopt;
}

SolidMesh MakeSolidMesh(std::vector<Eigen::Vector3d> vertices,
                        std::vector<std::array<int, 3>> triangles) {
  if (std::optional<std::string> defect = DescribeMeshDefect(vertices, triangles)) {
    throw std::invalid_argument(*defect);
  }
  SolidMesh mesh;
  mesh.mass = ComputePolyhedronMassProperties(vertices, triangles);
  // Convex when it is its hull up to the rounding of a mesh file's coordinates (assimp reads
  // floats, 1e-7 relative; text files often hold 6 digits), which dents a round part's vertices:
  // every vertex within δ = 1e-5 of the hull's size of the hull's surface, and the volume short of
  // the hull's by at most δ times the hull's area.
  mesh.hull = std::make_shared<const ConvexPolyhedron>(ComputeConvexHull(vertices));
  const ConvexPolyhedron& hull = *mesh.hull;
  const double delta = 1e-5 * hull.half_size_m;
  double hull_area = 0;
  for (const std::array<int, 3>& t : hull.triangles) {
    const Eigen::Vector3d& a = hull.vertices_G[t[0]];
    hull_area += 0.5 * (hull.vertices_G[t[1]] - a).cross(hull.vertices_G[t[2]] - a).norm();
  }
  mesh.convex = hull.mass.volume_m3 - mesh.mass.volume_m3 <= delta * hull_area;
  for (const Eigen::Vector3d& v : vertices) {
    if (HullPlaneDistance(hull, v) < -delta) mesh.convex = false;
  }
  mesh.vertices_G = std::move(vertices);
  mesh.triangles = std::move(triangles);
  return mesh;
}

}  // namespace contactlab
