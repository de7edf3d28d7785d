// A closed triangle surface given by the user (a mesh file's object), convex or not: what a mesh
// shape draws, weighs and, in rigid hydroelastic contact, touches with (docs/contact-model.md §5).
// Point contact uses its convex hull (Shape::Mesh).
#pragma once

#include <Eigen/Dense>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/convex_hull.h"

namespace contactlab {

// Immutable once made (MakeSolidMesh) and shared by every copy of its shape.
struct SolidMesh {
  std::vector<Eigen::Vector3d> vertices_G;
  std::vector<std::array<int, 3>> triangles;  // counterclockwise seen from outside
  PolyhedronMassProperties mass;              // of the enclosed solid
  // Its convex hull, what point contact uses (Shape::Mesh shares it).
  std::shared_ptr<const ConvexPolyhedron> hull;
  // Whether the surface is its own convex hull, up to 1e-5 of its size (then it can be meshed as
  // a compliant body).
  bool convex = false;
};

// What is wrong with a surface that must bound a solid, in words ("is open: 4 edges belong to one
// triangle only"), or nullopt: every index in range and every vertex finite; no degenerate
// triangle (area ≤ 1e-12 of the bounding box's diagonal squared); each edge shared by exactly two
// triangles that run it in opposite directions (closed, manifold, consistently oriented); and a
// positive enclosed volume (outward, counterclockwise triangles).
std::optional<std::string> DescribeMeshDefect(const std::vector<Eigen::Vector3d>& vertices,
                                              const std::vector<std::array<int, 3>>& triangles);

// The mesh with its mass properties; throws std::invalid_argument with DescribeMeshDefect's
// words for a surface that does not bound a solid.
SolidMesh MakeSolidMesh(std::vector<Eigen::Vector3d> vertices,
                        std::vector<std::array<int, 3>> triangles);

}  // namespace contactlab
