#include "render/primitive_meshes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace contactlab {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// A ring of `slices + 1` vertices (the seam is duplicated so every quad strip closes without
// index wrap-around) at height z with radius r and the given normal tilt.
void AddRing(TriangleMesh* mesh, int slices, float r, float z, float normal_xy, float normal_z) {
  for (int i = 0; i <= slices; ++i) {
    const float a = 2 * kPi * static_cast<float>(i) / static_cast<float>(slices);
    const float c = std::cos(a), s = std::sin(a);
    mesh->AddVertex(Eigen::Vector3f(r * c, r * s, z),
                    Eigen::Vector3f(normal_xy * c, normal_xy * s, normal_z));
  }
}

// Connects two consecutive rings starting at vertex indices `lower` and `upper` (lower has the
// smaller z) with outward-facing triangles.
void StitchRings(TriangleMesh* mesh, int slices, uint32_t lower, uint32_t upper) {
  for (int i = 0; i < slices; ++i) {
    const uint32_t a = lower + i, b = lower + i + 1, c = upper + i + 1, d = upper + i;
    mesh->AddTriangle(a, b, c);
    mesh->AddTriangle(a, c, d);
  }
}

// A flat disc cap at height z facing +z (up = true) or −z.
void AddDisc(TriangleMesh* mesh, int slices, float r, float z, bool up) {
  const float nz = up ? 1.0f : -1.0f;
  const uint32_t center = mesh->AddVertex(Eigen::Vector3f(0, 0, z), Eigen::Vector3f(0, 0, nz));
  const uint32_t ring = static_cast<uint32_t>(mesh->positions.size());
  AddRing(mesh, slices, r, z, 0.0f, nz);
  for (int i = 0; i < slices; ++i) {
    if (up) {
      mesh->AddTriangle(center, ring + i, ring + i + 1);
    } else {
      mesh->AddTriangle(center, ring + i + 1, ring + i);
    }
  }
}

// Rings of a sphere of radius r whose centre is at z = center_z, for polar angles from
// theta0 to theta1 (0 = +z pole) in `stacks` steps; stitched together.
void AddSphereBand(TriangleMesh* mesh, int slices, int stacks, float r, float center_z,
                   float theta0, float theta1) {
  uint32_t previous = 0;
  for (int j = 0; j <= stacks; ++j) {
    const float theta = theta0 + (theta1 - theta0) * static_cast<float>(j) / stacks;
    const float st = std::sin(theta), ct = std::cos(theta);
    const uint32_t ring = static_cast<uint32_t>(mesh->positions.size());
    AddRing(mesh, slices, r * st, center_z + r * ct, st, ct);
    // Rings go from top to bottom here, so the previous ring is the upper one.
    if (j > 0) StitchRings(mesh, slices, ring, previous);
    previous = ring;
  }
}

}  // namespace

TriangleMesh MakeSphereMesh(float radius, int slices, int stacks) {
  TriangleMesh mesh;
  AddSphereBand(&mesh, slices, stacks, radius, 0.0f, 0.0f, kPi);
  return mesh;
}

TriangleMesh MakeBoxMesh(const Eigen::Vector3f& h) {
  TriangleMesh mesh;
  // Four vertices per face so each face has its own flat normal.
  for (int axis = 0; axis < 3; ++axis) {
    for (float sign : {-1.0f, 1.0f}) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      Eigen::Vector3f n = Eigen::Vector3f::Zero();
      n[axis] = sign;
      const uint32_t base = static_cast<uint32_t>(mesh.positions.size());
      for (int k = 0; k < 4; ++k) {
        Eigen::Vector3f p;
        p[axis] = sign * h[axis];
        p[u] = ((k == 1 || k == 2) ? 1.0f : -1.0f) * h[u];
        p[v] = (k >= 2 ? 1.0f : -1.0f) * h[v];
        mesh.AddVertex(p, n);
      }
      // (u, v, axis) is right-handed, so 0-1-2 is counter-clockwise seen from +axis.
      if (sign > 0) {
        mesh.AddTriangle(base, base + 1, base + 2);
        mesh.AddTriangle(base, base + 2, base + 3);
      } else {
        mesh.AddTriangle(base, base + 2, base + 1);
        mesh.AddTriangle(base, base + 3, base + 2);
      }
    }
  }
  return mesh;
}

TriangleMesh MakeCylinderMesh(float radius, float z0, float z1, int slices) {
  TriangleMesh mesh;
  const uint32_t lower = static_cast<uint32_t>(mesh.positions.size());
  AddRing(&mesh, slices, radius, z0, 1.0f, 0.0f);
  const uint32_t upper = static_cast<uint32_t>(mesh.positions.size());
  AddRing(&mesh, slices, radius, z1, 1.0f, 0.0f);
  StitchRings(&mesh, slices, lower, upper);
  AddDisc(&mesh, slices, radius, z0, false);
  AddDisc(&mesh, slices, radius, z1, true);
  return mesh;
}

TriangleMesh MakeCapsuleMesh(float radius, float length, int slices, int cap_stacks) {
  TriangleMesh mesh;
  const float half = 0.5f * length;
  AddSphereBand(&mesh, slices, cap_stacks, radius, half, 0.0f, 0.5f * kPi);
  const uint32_t upper = static_cast<uint32_t>(mesh.positions.size());
  AddRing(&mesh, slices, radius, half, 1.0f, 0.0f);
  const uint32_t lower = static_cast<uint32_t>(mesh.positions.size());
  AddRing(&mesh, slices, radius, -half, 1.0f, 0.0f);
  StitchRings(&mesh, slices, lower, upper);
  AddSphereBand(&mesh, slices, cap_stacks, radius, -half, 0.5f * kPi, kPi);
  return mesh;
}

TriangleMesh MakeConeMesh(float radius, float height, int slices) {
  TriangleMesh mesh;
  // Side normals tilt up by the half-angle so the cone shades as a smooth surface.
  const float slant = std::hypot(radius, height);
  const float nxy = height / slant, nz = radius / slant;
  for (int i = 0; i < slices; ++i) {
    const float a0 = 2 * kPi * i / slices, a1 = 2 * kPi * (i + 1) / slices;
    const float am = 0.5f * (a0 + a1);
    const uint32_t p0 =
        mesh.AddVertex(Eigen::Vector3f(radius * std::cos(a0), radius * std::sin(a0), 0),
                       Eigen::Vector3f(nxy * std::cos(a0), nxy * std::sin(a0), nz));
    const uint32_t p1 =
        mesh.AddVertex(Eigen::Vector3f(radius * std::cos(a1), radius * std::sin(a1), 0),
                       Eigen::Vector3f(nxy * std::cos(a1), nxy * std::sin(a1), nz));
    const uint32_t apex = mesh.AddVertex(
        Eigen::Vector3f(0, 0, height), Eigen::Vector3f(nxy * std::cos(am), nxy * std::sin(am), nz));
    mesh.AddTriangle(p0, p1, apex);
  }
  AddDisc(&mesh, slices, radius, 0.0f, false);
  return mesh;
}

TriangleMesh MakeQuadMesh(float half_size) {
  TriangleMesh mesh;
  const Eigen::Vector3f n = Eigen::Vector3f::UnitZ();
  const float h = half_size;
  mesh.AddVertex(Eigen::Vector3f(-h, -h, 0), n);
  mesh.AddVertex(Eigen::Vector3f(h, -h, 0), n);
  mesh.AddVertex(Eigen::Vector3f(h, h, 0), n);
  mesh.AddVertex(Eigen::Vector3f(-h, h, 0), n);
  mesh.AddTriangle(0, 1, 2);
  mesh.AddTriangle(0, 2, 3);
  return mesh;
}

TriangleMesh MakeConvexPolyhedronMesh(const ConvexPolyhedron& hull) {
  // Flat shading: each triangle has its own corners with its planar face's normal (the merged
  // face's, so the two triangles of a quad shade alike).
  TriangleMesh mesh;
  mesh.positions.reserve(3 * hull.triangles.size());
  mesh.normals.reserve(3 * hull.triangles.size());
  mesh.indices.reserve(3 * hull.triangles.size());
  for (size_t t = 0; t < hull.triangles.size(); ++t) {
    const Eigen::Vector3f n = hull.faces[hull.triangle_face[t]].normal_G.cast<float>();
    const auto& tri = hull.triangles[t];
    const uint32_t a = mesh.AddVertex(hull.vertices_G[tri[0]].cast<float>(), n);
    const uint32_t b = mesh.AddVertex(hull.vertices_G[tri[1]].cast<float>(), n);
    const uint32_t c = mesh.AddVertex(hull.vertices_G[tri[2]].cast<float>(), n);
    mesh.AddTriangle(a, b, c);
  }
  return mesh;
}

TriangleMesh MakeCreasedMesh(const std::vector<Eigen::Vector3d>& vertices,
                             const std::vector<std::array<int, 3>>& triangles) {
  struct {
    const std::vector<Eigen::Vector3d>& vertices_m;
    const std::vector<std::array<int, 3>>& triangles;
  } m{vertices, triangles};
  const float cos_crease = std::cos(40.0f * std::numbers::pi_v<float> / 180.0f);
  std::vector<Eigen::Vector3f> face_normal(m.triangles.size());
  std::vector<Eigen::Vector3f> vertex_normal(m.vertices_m.size(), Eigen::Vector3f::Zero());
  for (size_t t = 0; t < m.triangles.size(); ++t) {
    const auto& tri = m.triangles[t];
    const Eigen::Vector3d area = (m.vertices_m[tri[1]] - m.vertices_m[tri[0]])
                                     .cross(m.vertices_m[tri[2]] - m.vertices_m[tri[0]]);
    face_normal[t] = area.normalized().cast<float>();
    for (const int v : tri) vertex_normal[v] += area.cast<float>();
  }
  for (Eigen::Vector3f& n : vertex_normal) {
    n = n.squaredNorm() > 0.0f ? Eigen::Vector3f(n.normalized()) : Eigen::Vector3f::UnitZ();
  }
  TriangleMesh mesh;
  std::vector<int> smooth_index(m.vertices_m.size(), -1);
  for (size_t t = 0; t < m.triangles.size(); ++t) {
    const Eigen::Vector3f& fn = face_normal[t];
    if (!fn.allFinite()) continue;  // degenerate triangle
    uint32_t corner[3];
    for (int k = 0; k < 3; ++k) {
      const int v = m.triangles[t][k];
      const Eigen::Vector3f p = m.vertices_m[v].cast<float>();
      if (fn.dot(vertex_normal[v]) >= cos_crease) {
        if (smooth_index[v] < 0) smooth_index[v] = mesh.AddVertex(p, vertex_normal[v]);
        corner[k] = smooth_index[v];
      } else {
        corner[k] = mesh.AddVertex(p, fn);
      }
    }
    mesh.AddTriangle(corner[0], corner[1], corner[2]);
  }
  return mesh;
}

TriangleMesh MakeVisualMesh(const VisualSpec& visual) {
  if (!visual.mesh) return MakeShapeMesh(visual.shape);
  return MakeCreasedMesh(visual.mesh->vertices_m, visual.mesh->triangles);
}

namespace {

// Slices round the axis per detail level (a sphere has half as many stacks, so a ring at its
// equator, and its facets are about square). A facet of angular size 2π/n lies up to
// r sin²(π/n) inside the sphere: 1 px at r = 79.8, 26.3 and 14.9 px (the outline seen along a
// ring within ½ px).
constexpr std::array<int, kNumDetailLevels> kSlices = {28, 16, 12};
constexpr std::array<float, kNumDetailLevels> kLargestRadiusPx = {INFINITY, 26.2f, 14.9f};

}  // namespace

bool HasDetailLevels(const Shape& shape) {
  return shape.type == ShapeType::kSphere || shape.type == ShapeType::kCylinder ||
         shape.type == ShapeType::kCapsule;
}

int DetailLevelFor(float radius_px) {
  int level = 0;
  while (level + 1 < kNumDetailLevels && radius_px <= kLargestRadiusPx[level + 1]) ++level;
  return level;
}

TriangleMesh MakeShapeMesh(const Shape& shape, int detail_level) {
  const float r = static_cast<float>(shape.radius_m);
  const float length = static_cast<float>(shape.length_m);
  const int slices = kSlices[std::clamp(detail_level, 0, kNumDetailLevels - 1)];
  switch (shape.type) {
    case ShapeType::kSphere:
      return MakeSphereMesh(r, slices, slices / 2);
    case ShapeType::kBox:
      return MakeBoxMesh(shape.half_extents_m.cast<float>());
    case ShapeType::kCylinder:
      return MakeCylinderMesh(r, -0.5f * length, 0.5f * length, slices + slices / 7);
    case ShapeType::kCapsule:
      return MakeCapsuleMesh(r, length, slices, std::max(2, slices / 4));
    case ShapeType::kConvexMesh:  // a mesh shape as its file has it, a hull with flat faces
      return shape.mesh ? MakeCreasedMesh(shape.mesh->vertices_G, shape.mesh->triangles)
                        : MakeConvexPolyhedronMesh(*shape.convex_mesh);
    case ShapeType::kHalfSpace:
      break;
  }
  throw std::invalid_argument(std::string("no finite mesh for shape type ") +
                              ShapeTypeName(shape.type));
}

}  // namespace contactlab
