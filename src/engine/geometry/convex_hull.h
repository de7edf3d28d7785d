// Convex polyhedra: the 3-D convex hull of a point set (quickhull) and the data the narrow
// phase, the hydroelastic builders and the renderer need from it. The engine gets plain
// vertices (the app loads mesh files); everything here is in the shape frame G.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <memory>
#include <vector>

namespace contactlab {

// Mass properties of a closed, outward-oriented triangle mesh by the divergence theorem.
struct PolyhedronMassProperties {
  double volume_m3 = 0.0;
  Eigen::Vector3d centroid_G = Eigen::Vector3d::Zero();
  // Inertia about the centroid of the solid at unit density (1 kg/m³), in G [kg·m²]: the
  // inertia of mass m is m / volume_m3 times this.
  Eigen::Matrix3d unit_density_inertia = Eigen::Matrix3d::Zero();
};
PolyhedronMassProperties ComputePolyhedronMassProperties(
    const std::vector<Eigen::Vector3d>& vertices, const std::vector<std::array<int, 3>>& triangles);

// An immutable convex polyhedron (ShapeType::kConvexMesh holds one, shared).
struct ConvexPolyhedron {
  // Every vertex is an extreme point (no vertex inside a face or on an edge's interior).
  std::vector<Eigen::Vector3d> vertices_G;
  // Closed triangulation, counterclockwise seen from outside (outward normals by the
  // right-hand rule).
  std::vector<std::array<int, 3>> triangles;
  // Planar faces: coplanar triangles merged into one convex polygon (a cube has 6 quads),
  // vertices counterclockwise about the outward unit normal; the face lies in n·x = offset
  // and the whole polyhedron in n·x ≤ offset.
  struct Face {
    Eigen::Vector3d normal_G;
    double offset_m = 0.0;
    int first = 0;  // into face_vertices
    int count = 0;
  };
  std::vector<Face> faces;
  std::vector<int> face_vertices;
  std::vector<int> triangle_face;  // the face each triangle belongs to
  // Edge graph: the neighbours of vertex i are neighbors[neighbor_offsets[i] ...
  // neighbor_offsets[i + 1]).
  std::vector<int> neighbor_offsets;
  std::vector<int> neighbors;
  PolyhedronMassProperties mass;
  // Half the largest distance between two vertices' coordinates along any axis [m] (a scale).
  double half_size_m = 0.0;

  int num_vertices() const { return static_cast<int>(vertices_G.size()); }
  int num_faces() const { return static_cast<int>(faces.size()); }
  // The vertex farthest along d_G (first of ties).
  int SupportVertex(const Eigen::Vector3d& d_G) const;
};

// The convex hull of `points` (quickhull, Barber, Dobkin & Huhdanpaa 1996). Duplicates and
// points on the hull's faces or edges are dropped (up to a tolerance of 1e-9 of the points'
// extent). Throws std::invalid_argument for non-finite points or a set without volume (fewer
// than 4 distinct points, all collinear or all coplanar).
ConvexPolyhedron ComputeConvexHull(const std::vector<Eigen::Vector3d>& points);

// The signed distance of p_G above the hull's farthest face plane: max_f (n_f·p − offset_f)
// (> 0 outside, ≤ 0 inside; inside it is minus the depth below the nearest face).
double HullPlaneDistance(const ConvexPolyhedron& hull, const Eigen::Vector3d& p_G);

}  // namespace contactlab
