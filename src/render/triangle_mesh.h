// A triangle mesh on the CPU: what the tessellators of primitive_meshes.h produce and what
// GpuMesh uploads. Positions and normals are per vertex (same length); three indices
// per triangle, counter-clockwise seen from outside.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace contactlab {

struct TriangleMesh {
  std::vector<Eigen::Vector3f> positions;
  std::vector<Eigen::Vector3f> normals;
  std::vector<uint32_t> indices;

  int num_vertices() const { return static_cast<int>(positions.size()); }
  int num_triangles() const { return static_cast<int>(indices.size() / 3); }
  // Axis-aligned bounds of the vertices (zero box for an empty mesh).
  Eigen::Vector3f lower_bound() const;
  Eigen::Vector3f upper_bound() const;

  // Appends a vertex and returns its index (for the tessellators).
  uint32_t AddVertex(const Eigen::Vector3f& p, const Eigen::Vector3f& n);
  void AddTriangle(uint32_t a, uint32_t b, uint32_t c);
};

}  // namespace contactlab
