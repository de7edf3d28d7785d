#include "render/triangle_mesh.h"

namespace contactlab {

Eigen::Vector3f TriangleMesh::lower_bound() const {
  if (positions.empty()) return Eigen::Vector3f::Zero();
  Eigen::Vector3f lower = positions[0];
  for (const Eigen::Vector3f& p : positions) lower = lower.cwiseMin(p);
  return lower;
}

Eigen::Vector3f TriangleMesh::upper_bound() const {
  if (positions.empty()) return Eigen::Vector3f::Zero();
  Eigen::Vector3f upper = positions[0];
  for (const Eigen::Vector3f& p : positions) upper = upper.cwiseMax(p);
  return upper;
}

uint32_t TriangleMesh::AddVertex(const Eigen::Vector3f& p, const Eigen::Vector3f& n) {
  positions.push_back(p);
  normals.push_back(n);
  return static_cast<uint32_t>(positions.size() - 1);
}

void TriangleMesh::AddTriangle(uint32_t a, uint32_t b, uint32_t c) {
  indices.push_back(a);
  indices.push_back(b);
  indices.push_back(c);
}

}  // namespace contactlab
