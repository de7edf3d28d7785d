// Triangle surface meshes: the representation of a rigid body (docs/contact-model.md §5: "rigid
// bodies keep a triangle surface mesh") and the outer boundary from which the compliant volume
// meshes are built. Vertices are in the geometry frame G; triangles wind counter-clockwise seen
// from outside (outward normals by the right-hand rule).
#pragma once

#include <Eigen/Dense>
#include <array>
#include <map>
#include <vector>

namespace contactlab::hydroelastic {

struct TriangleSurfaceMesh {
  std::vector<Eigen::Vector3d> vertices_m;
  std::vector<std::array<int, 3>> triangles;

  int num_vertices() const { return static_cast<int>(vertices_m.size()); }
  int num_triangles() const { return static_cast<int>(triangles.size()); }
  // Unit outward normal of triangle t (zero for a degenerate triangle).
  Eigen::Vector3d FaceNormal(int t) const;
  double FaceArea(int t) const;
  double TotalArea() const;
  // Volume enclosed by a closed, outward-oriented mesh (divergence theorem) [m³].
  double EnclosedVolume() const;
};

// Surface generators for the shapes of engine/geometry/shape.h, in their frame G. The resolution
// is a characteristic edge length [m]; the cylinder generator also inserts the vertex rings that
// its volume generator needs (the medial-axis kinks). All outputs are closed, convex and
// outward-oriented.
//
// Box: grid on each face; half extents h [m]. A box needs no vertex lines at its medial kinks:
// every surface triangle lies in one face, the face's region of the distance field is convex
// and contains the triangle's anchors on the medial box (volume_mesh_generators.h), so each
// tet lies in one region. Resolution only refines the grid; a rigid box's triangles merge back
// into 6 faces (rigid_faces.h), a compliant box's bound its tets, so coarse is cheap there.
TriangleSurfaceMesh MakeBoxSurfaceMesh(const Eigen::Vector3d& half_extents_m, double edge_length_m);
// Sphere: icosahedron with each face subdivided into n² triangles (n from the edge length),
// projected onto the sphere (all vertices exactly on it; the mesh is inscribed).
TriangleSurfaceMesh MakeSphereSurfaceMesh(double radius_m, double edge_length_m);
// Cylinder along z, axis length `length_m`: rings of a regular polygon inscribed in the circle.
TriangleSurfaceMesh MakeCylinderSurfaceMesh(double radius_m, double length_m, double edge_length_m);
// Capsule along z: cylinder of axis length `length_m` with hemispherical caps.
TriangleSurfaceMesh MakeCapsuleSurfaceMesh(double radius_m, double length_m, double edge_length_m);
// Convex mesh from a triangle soup (e.g. loaded with assimp by the app): merges coincident
// vertices and orients each triangle outward with respect to the vertex mean (an interior
// point of a convex polytope).
TriangleSurfaceMesh MakeConvexSurfaceMesh(const std::vector<std::array<Eigen::Vector3d, 3>>& soup);

// Merges points that coincide up to `tolerance_m` (relative rounding); used by the generators.
class VertexWelder {
 public:
  explicit VertexWelder(double tolerance_m) : tolerance_m_(tolerance_m) {}
  // Index of `p` among the welded points (a new index if no point within the tolerance).
  int Add(const Eigen::Vector3d& p);
  const std::vector<Eigen::Vector3d>& points() const { return points_; }

 private:
  double tolerance_m_;
  std::vector<Eigen::Vector3d> points_;
  std::map<std::array<long long, 3>, std::vector<int>> cells_;  // grid cell → point indices
};

}  // namespace contactlab::hydroelastic
