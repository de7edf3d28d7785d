// The time derivatives of a contact point as the narrow phase reports it (docs/contact-model.md
// §9): how its signed distance, normal and witness points change when the two shapes move with
// given twists and the point stays on the feature pair it was found on (ContactFeature in
// collision.h). Holding the feature pair is what makes these the one-sided derivatives at a
// feature change (a box tipping from a face onto an edge, a sphere crossing from a box face
// onto an edge): the narrow phase itself jumps there.
//
// Exact (the derivative of what ComputeContactPoints reports, for generic poses) for:
// - sphere–sphere, sphere–capsule, capsule–capsule (centres, ends and the closest points of the
//   axes; the ends of a parallel pair's overlap);
// - box–sphere and cylinder–sphere (face, edge, vertex; cap, side, rim);
// - every shape on a half-space (vertices, end spheres, and the cylinder's rim samples, which
//   turn with the rim's lowest point);
// - box–box (face clipping: incident corners, incident edges cut by the reference face's side
//   planes, reference corners over the incident face; edge–edge; the GJK points of separated
//   boxes, and the near-parallel face polygons clipped along an edge–edge or a face normal);
// - the GJK/EPA pairs of polytopes and capsules (convex meshes, boxes, capsules, spheres in any
//   combination): the exact point classified as face–point, edge–edge, edge–point or
//   point–point, and the clipped face manifolds as above;
// - the cylinder's cap polygon (the 8-gon standing in for the cap in clipping) and its rim
//   against a face.
// First-order models (documented approximations, φ̇ stays exact where noted):
// - a cylinder's side line in a GJK/EPA manifold (a cylinder lying on a face or on a box edge):
//   its points are taken as material points of the cylinder, so the line's rolling round the
//   axis as the normal turns is neglected; its ends are exact (rim support points);
// - a cylinder's rim against an edge or another rim: the rim is taken as its tangent line there
//   (its curvature is neglected in ṅ and in the points' rates);
// - the near-parallel face polygon of two separated boxes whose closest features are
//   vertex–vertex or vertex–edge: the normal is taken as turning with the reference box;
// - the ends of the overlap of two nearly parallel lines in a GJK/EPA manifold, whose cores are
//   not exactly along the normal: the cores are taken along it.
// (EPA places a point on a curved shape to ~1e-8 m: the rates are those of the exact point, and
// differences of the narrow phase there need steps far above that.)
// Allocates nothing.
#pragma once

#include <Eigen/Dense>

#include "engine/geometry/collision.h"

namespace contactlab {

// A shape's pose and motion: ω_W (w_W) and the velocity of the frame's origin (v_W), world frame.
struct PosedShapeMotion {
  const Shape& shape;
  const Eigen::Isometry3d& X_WG;
  Eigen::Vector3d w_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d v_W = Eigen::Vector3d::Zero();
};

struct ContactPointRates {
  double signed_distance_m_per_s = 0.0;                // φ̇
  Eigen::Vector3d normal_W = Eigen::Vector3d::Zero();  // ṅ [1/s], ⟂ n̂
  Eigen::Vector3d p_A_W = Eigen::Vector3d::Zero();     // ṗ_A [m/s]
  Eigen::Vector3d p_B_W = Eigen::Vector3d::Zero();     // ṗ_B [m/s]
};

// The rates of `point` (from ComputeContactPoints(a.shape, a.X_WG, b.shape, b.X_WG, ...)) when
// A and B move with their twists. Linear in the twists.
ContactPointRates ComputeContactPointRates(const ContactPoint& point, const PosedShapeMotion& a,
                                           const PosedShapeMotion& b);

// The point moved to first order by dt_s along the twists (dt_s · rates, the normal
// renormalized): what the narrow phase reports for the poses advanced by dt_s, to O(dt_s²),
// when the feature pair holds.
ContactPoint AdvanceContactPoint(const ContactPoint& point, const PosedShapeMotion& a,
                                 const PosedShapeMotion& b, double dt_s);

}  // namespace contactlab
