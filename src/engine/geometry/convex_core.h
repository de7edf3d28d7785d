// A posed convex shape seen as a "core" plus an inflation radius: a sphere is a point inflated
// by its radius, a capsule a segment inflated by its radius, a box, cylinder or convex mesh is
// its own core (radius 0). GJK/EPA run on the cores, which keeps them exact and fast for round
// shapes.
#pragma once

#include <array>

#include "engine/geometry/collision.h"
#include "engine/geometry/shape.h"

namespace contactlab::internal {

// The supporting feature of a core in a direction: a point (count 1), a segment (count 2) or
// a polygon (count ≥ 3, counterclockwise seen from outside, i.e. about face_normal_W).
struct SupportFeature {
  static constexpr int kMaxVertices = 8;
  std::array<Eigen::Vector3d, kMaxVertices> vertices_W;
  Eigen::Vector3d face_normal_W = Eigen::Vector3d::UnitZ();  // only for polygons
  int count = 0;
};

// Number of vertices of the polygon standing in for a cylinder cap in contact manifolds.
inline constexpr int kCylinderCapVertices = 8;

struct ConvexCore {
  ConvexCore(const Shape& shape, const Eigen::Isometry3d& X_WG);

  // A point of the core farthest along dir_W (world frame, need not be unit).
  Eigen::Vector3d Support(const Eigen::Vector3d& dir_W) const;

  // The feature of the core whose outward normals are within the angular tolerance of the
  // unit direction dir_W: a face if its normal is within angle asin(sin_tolerance) of dir_W,
  // an edge/line if dir_W is within that angle of perpendicular to it, else the support point.
  SupportFeature Feature(const Eigen::Vector3d& dir_W, double sin_tolerance) const;

  // An interior point (the frame origin; a convex mesh's centroid, as its origin may lie
  // outside it): GJK's first direction and EPA's last-resort separation axis.
  const Eigen::Vector3d& center_W() const { return center; }

  // Feature per shape type, d = dir_W in the shape frame (unit).
  SupportFeature BoxFeature(const Eigen::Vector3d& d, double sin_tolerance,
                            double cos_tolerance) const;
  SupportFeature CylinderFeature(const Eigen::Vector3d& d, double sin_tolerance,
                                 double cos_tolerance) const;
  SupportFeature CapsuleFeature(const Eigen::Vector3d& d, double sin_tolerance) const;
  SupportFeature MeshFeature(const Eigen::Vector3d& d, double sin_tolerance,
                             double cos_tolerance) const;
  Eigen::Vector3d ToWorld(const Eigen::Vector3d& p_G) const;

  ShapeType type;
  Eigen::Matrix3d R_WG;
  Eigen::Vector3d p_WG;
  Eigen::Vector3d half_extents;                  // box
  double radius = 0.0;                           // cylinder radius
  double half_length = 0.0;                      // cylinder, capsule
  double inflation = 0.0;                        // sphere, capsule radius
  const ConvexPolyhedron* polyhedron = nullptr;  // convex mesh (owned by the Shape)
  Eigen::Vector3d center;
};

// How the points of a supporting feature of `core` move with it (docs/contact-model.md §9):
// a vertex of the feature (count = the feature's count) is a material point, except the ends of
// a cylinder's side line, which are its rims' points farthest towards the other shape; a line
// (direction line_W) slides along itself, a cylinder's side being its axis inflated by the
// radius. `p_W` is the vertex.
ContactFeature::Side FeatureVertexSide(const ConvexCore& core, const Eigen::Vector3d& p_W,
                                       int feature_count);
ContactFeature::Side FeatureLineSide(const ConvexCore& core, const Eigen::Vector3d& line_W);

// The feature pair of the exact contact of two cores along `normal_W` (unit, from a into b; the
// GJK/EPA normal): the supporting features along ±normal_W within a tight tolerance, face–point,
// edge–edge, edge–point or point–point. A cylinder's rim against an edge or another rim is
// taken as its tangent line there (the rim's curvature is neglected).
ContactFeature ExactContactFeature(const ConvexCore& a, const ConvexCore& b,
                                   const Eigen::Vector3d& normal_W);

}  // namespace contactlab::internal
