#include "engine/hydroelastic/volume_mesh.h"

#include <algorithm>
#include <map>

namespace contactlab::hydroelastic {

double SignedTetVolume(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                       const Eigen::Vector3d& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

double VolumeMesh::TetVolume(int t) const {
  const auto& k = tets[t];
  return SignedTetVolume(vertices_m[k[0]], vertices_m[k[1]], vertices_m[k[2]], vertices_m[k[3]]);
}

double VolumeMesh::TotalVolume() const {
  double v = 0.0;
  for (int t = 0; t < num_tets(); ++t) v += TetVolume(t);
  return v;
}

std::vector<std::array<int, 3>> VolumeMesh::BoundaryFaces() const {
  // Faces of a positive tet (0,1,2,3) with outward normals.
  static constexpr int kFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  std::map<std::array<int, 3>, std::pair<int, std::array<int, 3>>> count;
  for (const auto& tet : tets) {
    for (const auto& f : kFace) {
      std::array<int, 3> face{tet[f[0]], tet[f[1]], tet[f[2]]};
      std::array<int, 3> key = face;
      std::sort(key.begin(), key.end());
      auto [it, inserted] = count.try_emplace(key, 0, face);
      ++it->second.first;
    }
  }
  std::vector<std::array<int, 3>> faces;
  for (const auto& [key, value] : count) {
    if (value.first == 1) faces.push_back(value.second);
  }
  return faces;
}

std::vector<bool> VolumeMesh::SurfaceVertexMask() const {
  std::vector<bool> mask(vertices_m.size(), false);
  for (const auto& f : BoundaryFaces()) {
    for (int v : f) mask[v] = true;
  }
  return mask;
}

}  // namespace contactlab::hydroelastic
