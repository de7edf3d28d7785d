// Narrow phase: signed distance, witness points and normal for every pair of shapes.
#pragma once

#include <vector>

#include "engine/geometry/shape.h"

namespace contactlab {

// One contact point between shapes A and B.
// - normal_W: unit, pointing from A into B: B moving along +normal relative to A separates.
// - p_A_W, p_B_W: witness points on the surfaces of A and B (world frame);
//   p_B_W − p_A_W = signed_distance · normal_W.
// - signed_distance_m: > 0 separated, < 0 overlapping (penetration = −signed_distance).
struct ContactPoint {
  Eigen::Vector3d normal_W;
  Eigen::Vector3d p_A_W, p_B_W;
  double signed_distance_m = 0.0;
  // The point where the contact force acts (midpoint of the witness points).
  Eigen::Vector3d Midpoint() const { return 0.5 * (p_A_W + p_B_W); }
};

// Appends to `out` the contact points of the pair with signed distance < margin_m.
// One point for smooth pairs (sphere, capsule against anything round); a face–face or
// face-on-plane configuration (box on box, box or flat cylinder on a half-space, a box
// resting on a box face) yields several points spanning the contact polygon (a resting box
// gives ≥ 4). Returns the number of points appended. Two half-spaces never collide.
// Details: box–half-space gives every vertex within the margin; cylinder–half-space 8 samples
// of each cap rim within the margin (2 for a lying cylinder); capsule–half-space its end
// spheres; convex mesh–half-space every vertex within the margin (at most 8: the deepest and
// best spread); parallel capsules, a capsule or cylinder lying on a face, and parallel cylinder
// sides give the two ends of the line contact; box–box at most 8 points (clipped face); the
// GJK/EPA pairs (convex meshes against any bounded shape among them) at most 8 points (a
// cylinder cap is an 8-gon in the clipping, so is a mesh face with more corners). Every point
// satisfies p_B − p_A = φ·n̂ exactly, and the minimum φ is the exact signed distance (EPA is
// accurate to ~1e-8 m + 1e-6·depth for curved shapes).
int ComputeContactPoints(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                         const Eigen::Isometry3d& X_WB, double margin_m,
                         std::vector<ContactPoint>* out);

// Signed distance only (the minimum over the pair), +infinity for two half-spaces.
double SignedDistance(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                      const Eigen::Isometry3d& X_WB);

}  // namespace contactlab
