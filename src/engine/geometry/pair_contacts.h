// Narrow-phase routines for specific pairs of shape types (internal to the geometry module).
// Each appends to `out` the contact points with signed distance < margin_m, with the normal
// pointing from the first shape into the second, and returns how many it appended. The
// dispatcher in collision.cc calls them with the arguments in this order and flips the
// result for the reverse order.
#pragma once

#include <vector>

#include "engine/geometry/collision.h"

namespace contactlab::internal {

// Closed forms (round_contacts.cc).
int SphereSphereContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                         const Eigen::Isometry3d& X_WB, double margin_m,
                         std::vector<ContactPoint>* out);
int SphereCapsuleContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                          const Eigen::Isometry3d& X_WB, double margin_m,
                          std::vector<ContactPoint>* out);
int CapsuleCapsuleContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                           const Eigen::Isometry3d& X_WB, double margin_m,
                           std::vector<ContactPoint>* out);
// Box first, sphere second; also when the centre is inside the box (round_contacts.cc).
int BoxSphereContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                      const Eigen::Isometry3d& X_WB, double margin_m,
                      std::vector<ContactPoint>* out);
// Cylinder first, sphere second (round_contacts.cc).
int CylinderSphereContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                           const Eigen::Isometry3d& X_WB, double margin_m,
                           std::vector<ContactPoint>* out);
// Half-space first, any bounded shape second (half_space_contacts.cc).
int HalfSpaceContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                      const Eigen::Isometry3d& X_WB, double margin_m,
                      std::vector<ContactPoint>* out);
// Separating-axis test with face clipping (box_box_contacts.cc).
int BoxBoxContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                   const Eigen::Isometry3d& X_WB, double margin_m, std::vector<ContactPoint>* out);
// Any two of box, cylinder, capsule, convex mesh (and sphere): GJK/EPA plus clipping of the
// supporting features for a multi-point manifold (convex_contacts.cc).
int ConvexConvexContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                         const Eigen::Isometry3d& X_WB, double margin_m,
                         std::vector<ContactPoint>* out);

// Keeps at most `max_points` of the points appended from index `first`, the deepest first and
// then the ones farthest from those kept (a well spread support polygon).
void ReduceContacts(size_t first, int max_points, std::vector<ContactPoint>* out);

}  // namespace contactlab::internal
