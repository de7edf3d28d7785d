#include "engine/geometry/shape.h"

#include <cmath>
#include <limits>
#include <utility>

namespace contactlab {

Shape Shape::Sphere(double r) {
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius_m = r;
  return s;
}

Shape Shape::Box(const Eigen::Vector3d& half_extents) {
  Shape s;
  s.type = ShapeType::kBox;
  s.half_extents_m = half_extents;
  return s;
}

Shape Shape::Cylinder(double r, double length) {
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius_m = r;
  s.length_m = length;
  return s;
}

Shape Shape::Capsule(double r, double length) {
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius_m = r;
  s.length_m = length;
  return s;
}

Shape Shape::HalfSpace() {
  Shape s;
  s.type = ShapeType::kHalfSpace;
  return s;
}

Shape Shape::ConvexMesh(const std::vector<Eigen::Vector3d>& points_G) {
  return ConvexMesh(std::make_shared<const ConvexPolyhedron>(ComputeConvexHull(points_G)));
}

Shape Shape::ConvexMesh(std::shared_ptr<const ConvexPolyhedron> hull) {
  Shape s;
  s.type = ShapeType::kConvexMesh;
  s.convex_mesh = std::move(hull);
  return s;
}

Shape Shape::Mesh(std::shared_ptr<const SolidMesh> mesh) {
  Shape s = ConvexMesh(mesh->hull);
  s.mesh = std::move(mesh);
  return s;
}

const char* ShapeTypeName(ShapeType type) {
  switch (type) {
    case ShapeType::kSphere:
      return "sphere";
    case ShapeType::kBox:
      return "box";
    case ShapeType::kCylinder:
      return "cylinder";
    case ShapeType::kCapsule:
      return "capsule";
    case ShapeType::kHalfSpace:
      return "half_space";
    case ShapeType::kConvexMesh:
      return "convex_mesh";
  }
  return "unknown";
}

bool Aabb::IsUnbounded() const { return !(lower.allFinite() && upper.allFinite()); }

bool Aabb::Overlaps(const Aabb& other) const {
  // Written with <= so that boxes that merely touch still pair (the margin is already in).
  return lower.x() <= other.upper.x() && other.lower.x() <= upper.x() &&
         lower.y() <= other.upper.y() && other.lower.y() <= upper.y() &&
         lower.z() <= other.upper.z() && other.lower.z() <= upper.z();
}

Aabb ComputeAabb(const Shape& shape, const Eigen::Isometry3d& X_WG, double margin) {
  const Eigen::Vector3d center = X_WG.translation();
  const Eigen::Matrix3d R = X_WG.linear();
  Eigen::Vector3d half = Eigen::Vector3d::Zero();
  switch (shape.type) {
    case ShapeType::kSphere:
      half.setConstant(shape.radius_m);
      break;
    case ShapeType::kBox:
      half = R.cwiseAbs() * shape.half_extents_m;
      break;
    case ShapeType::kCylinder: {
      // Extent of a disk of radius r with unit normal a along axis k is r·sqrt(1 − a_k²).
      const Eigen::Vector3d axis = R.col(2);
      const double half_length = 0.5 * shape.length_m;
      for (int k = 0; k < 3; ++k) {
        half[k] = half_length * std::abs(axis[k]) +
                  shape.radius_m * std::sqrt(std::max(0.0, 1.0 - axis[k] * axis[k]));
      }
      break;
    }
    case ShapeType::kCapsule: {
      const Eigen::Vector3d axis = R.col(2);
      half = 0.5 * shape.length_m * axis.cwiseAbs() + Eigen::Vector3d::Constant(shape.radius_m);
      break;
    }
    case ShapeType::kConvexMesh: {
      // Exact: the extreme vertices along the world axes (a few hundred at most, no allocation).
      Eigen::Vector3d lower = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
      Eigen::Vector3d upper = -lower;
      for (const Eigen::Vector3d& v : shape.convex_mesh->vertices_G) {
        const Eigen::Vector3d p = R * v;
        lower = lower.cwiseMin(p);
        upper = upper.cwiseMax(p);
      }
      const Eigen::Vector3d m = Eigen::Vector3d::Constant(margin);
      return Aabb{center + lower - m, center + upper + m};
    }
    case ShapeType::kHalfSpace: {
      constexpr double kInf = std::numeric_limits<double>::infinity();
      Aabb box{Eigen::Vector3d::Constant(-kInf), Eigen::Vector3d::Constant(kInf)};
      // An axis-aligned half-space is bounded on one side along its normal, which lets the
      // broad phase drop bodies far above a floor or beyond a wall.
      const Eigen::Vector3d normal = R.col(2);
      for (int k = 0; k < 3; ++k) {
        if (normal[k] >= 1.0 - 1e-12) box.upper[k] = center[k] + margin;
        if (normal[k] <= -1.0 + 1e-12) box.lower[k] = center[k] - margin;
      }
      return box;
    }
  }
  half.array() += margin;
  return Aabb{center - half, center + half};
}

}  // namespace contactlab
