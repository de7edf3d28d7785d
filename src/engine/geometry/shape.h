// Collision shapes. Every shape is defined in its own frame G (placed on a body by X_BG).
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <memory>
#include <vector>

#include "engine/geometry/convex_hull.h"
#include "engine/geometry/solid_mesh.h"

namespace contactlab {

enum class ShapeType { kSphere, kBox, kCylinder, kCapsule, kHalfSpace, kConvexMesh };

struct Shape {
  ShapeType type = ShapeType::kSphere;
  // Sphere, cylinder, capsule: radius [m].
  double radius_m = 0.0;
  // Box: half side lengths along x, y, z of G [m].
  Eigen::Vector3d half_extents_m = Eigen::Vector3d::Zero();
  // Cylinder and capsule: length of the axis (z of G), centred at the origin [m]. A capsule's
  // total length is length_m + 2 radius_m.
  double length_m = 0.0;
  // Half-space: the solid is z ≤ 0 of G; its outward normal is +z of G. No parameters.
  // Convex mesh: the convex polyhedron (vertices in G, outward triangles), immutable and shared
  // by every copy of the shape (copying a Shape never copies the mesh).
  std::shared_ptr<const ConvexPolyhedron> convex_mesh;
  // A mesh shape (Mesh): the surface the hull was made of, convex or not, shared like the hull.
  // It is drawn, weighed and touched in rigid hydroelastic contact as it is; point contact uses
  // the hull. Null for a hull made from points.
  std::shared_ptr<const SolidMesh> mesh;

  static Shape Sphere(double r);
  static Shape Box(const Eigen::Vector3d& half_extents);
  static Shape Cylinder(double r, double length);
  static Shape Capsule(double r, double length);
  static Shape HalfSpace();
  // The convex hull of `points_G` (ComputeConvexHull; throws std::invalid_argument for a set
  // without volume).
  static Shape ConvexMesh(const std::vector<Eigen::Vector3d>& points_G);
  static Shape ConvexMesh(std::shared_ptr<const ConvexPolyhedron> hull);
  // A mesh shape: type kConvexMesh with the mesh's hull, and the mesh.
  static Shape Mesh(std::shared_ptr<const SolidMesh> mesh);
};

const char* ShapeTypeName(ShapeType type);

// Axis-aligned bounding box in the world frame of a shape posed at X_WG, grown by `margin`.
// Half-spaces return an infinite box (use IsUnbounded()).
struct Aabb {
  Eigen::Vector3d lower, upper;
  bool IsUnbounded() const;
  bool Overlaps(const Aabb& other) const;
};
Aabb ComputeAabb(const Shape& shape, const Eigen::Isometry3d& X_WG, double margin);

}  // namespace contactlab
