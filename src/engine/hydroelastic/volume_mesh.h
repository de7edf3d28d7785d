// Tetrahedral volume meshes of compliant bodies (docs/contact-model.md §5). Vertices are in the
// geometry frame G of the shape; every tet is stored with positive orientation, i.e.
// (v1 − v0) · ((v2 − v0) × (v3 − v0)) > 0.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <vector>

namespace contactlab::hydroelastic {

struct VolumeMesh {
  std::vector<Eigen::Vector3d> vertices_m;
  std::vector<std::array<int, 4>> tets;

  int num_vertices() const { return static_cast<int>(vertices_m.size()); }
  int num_tets() const { return static_cast<int>(tets.size()); }
  // Signed volume of tet t [m³] (positive for a well-oriented tet).
  double TetVolume(int t) const;
  // Σ of the tet volumes [m³].
  double TotalVolume() const;
  // Faces that belong to exactly one tet, oriented with outward normals (right-hand rule).
  std::vector<std::array<int, 3>> BoundaryFaces() const;
  // true for every vertex used by a boundary face.
  std::vector<bool> SurfaceVertexMask() const;
};

// Signed volume of the tet (a, b, c, d): positive when (b−a, c−a, d−a) is right-handed.
double SignedTetVolume(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                       const Eigen::Vector3d& d);

}  // namespace contactlab::hydroelastic
