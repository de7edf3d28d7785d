// The faces of a rigid surface mesh as convex planar polygons (docs/contact-model.md §5): the
// coplanar neighbouring triangles of a mesh merged while their union stays convex. A contact
// polygon is the slice of a tet clipped to such a face; a face split into triangles splits every
// polygon that crosses a diagonal into two, each then fanned into its own solver constraints —
// more constraints for the same force and moment (the pressure is linear on a tet's slice).
#pragma once

#include <Eigen/Dense>
#include <array>
#include <vector>

#include "engine/hydroelastic/surface_mesh.h"

namespace contactlab::hydroelastic {

struct RigidFace {
  // A slice of a tet (≤ 4 corners) clipped to a face of k corners has ≤ 4 + k corners: the
  // bound keeps the clipped polygons within contact_surface.cc's fixed buffers.
  static constexpr int kMaxCorners = 8;
  // Indices into the mesh's vertices, counter-clockwise seen from outside; corners beyond
  // num_corners repeat corners[0] (so the array bounds the face, as the BVH build reads it).
  std::array<int, kMaxCorners> corners{};
  int num_corners = 0;
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();  // unit outward (zero if degenerate)
};

// Every triangle of `mesh` belongs to exactly one face; each face is planar, strictly convex
// (collinear corners dropped) and has at most kMaxCorners corners. Triangles that are
// degenerate or not coplanar with a neighbour stay faces of their own.
std::vector<RigidFace> MergeCoplanarTriangles(const TriangleSurfaceMesh& mesh);

}  // namespace contactlab::hydroelastic
