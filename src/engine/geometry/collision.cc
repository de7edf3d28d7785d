#include "engine/geometry/collision.h"

#include <limits>

#include "engine/geometry/contact_utils.h"
#include "engine/geometry/pair_contacts.h"

namespace contactlab {
namespace {

using internal::FlipContacts;

using PairRoutine = int (*)(const Shape&, const Eigen::Isometry3d&, const Shape&,
                            const Eigen::Isometry3d&, double, std::vector<ContactPoint>*);

// The routine for (first, second) in this argument order, or nullptr if the pair is handled in
// the other order.
PairRoutine RoutineFor(ShapeType first, ShapeType second) {
  using T = ShapeType;
  switch (first) {
    case T::kSphere:
      switch (second) {
        case T::kSphere:
          return internal::SphereSphereContacts;
        case T::kCapsule:
          return internal::SphereCapsuleContacts;
        default:
          return nullptr;
      }
    case T::kBox:
      switch (second) {
        case T::kSphere:
          return internal::BoxSphereContacts;
        case T::kBox:
          return internal::BoxBoxContacts;
        case T::kCylinder:
        case T::kCapsule:
          return internal::ConvexConvexContacts;
        default:
          return nullptr;
      }
    case T::kCylinder:
      switch (second) {
        case T::kSphere:
          return internal::CylinderSphereContacts;
        case T::kCylinder:
        case T::kCapsule:
          return internal::ConvexConvexContacts;
        default:
          return nullptr;
      }
    case T::kCapsule:
      return second == T::kCapsule ? internal::CapsuleCapsuleContacts : nullptr;
    case T::kHalfSpace:
      return second == T::kHalfSpace ? nullptr : internal::HalfSpaceContacts;
    case T::kConvexMesh:
      // Every bounded shape through GJK/EPA and feature clipping (a sphere is a point core).
      return second == T::kHalfSpace ? nullptr : internal::ConvexConvexContacts;
  }
  return nullptr;
}

}  // namespace

int ComputeContactPoints(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                         const Eigen::Isometry3d& X_WB, double margin_m,
                         std::vector<ContactPoint>* out) {
  if (a.type == ShapeType::kHalfSpace && b.type == ShapeType::kHalfSpace) return 0;
  if (PairRoutine routine = RoutineFor(a.type, b.type)) {
    return routine(a, X_WA, b, X_WB, margin_m, out);
  }
  const size_t first = out->size();
  const int count = RoutineFor(b.type, a.type)(b, X_WB, a, X_WA, margin_m, out);
  FlipContacts(first, out);
  return count;
}

double SignedDistance(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                      const Eigen::Isometry3d& X_WB) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // Reused so repeated queries do not allocate.
  static thread_local std::vector<ContactPoint> points;
  points.clear();
  ComputeContactPoints(a, X_WA, b, X_WB, kInf, &points);
  double distance = kInf;
  for (const ContactPoint& c : points) distance = std::min(distance, c.signed_distance_m);
  return distance;
}

}  // namespace contactlab
