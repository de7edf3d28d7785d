// Narrow phase: signed distance, witness points and normal for every pair of shapes.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/geometry/shape.h"

namespace contactlab {

// How a contact point moves with its shapes (docs/contact-model.md §9): the feature pair the
// narrow phase found it on, as the narrow phase's own construction of it. Each side's "core"
// is the point c with p_A = c_A + r_A·n̂ and p_B = c_B − r_B·n̂ (r: the side's inflation, a
// sphere's or capsule's radius, a cylinder's radius when its side is seen as its inflated
// axis, else 0). Directions are unit and in the side's own shape frame G; a side's quantities
// swap with it when A and B swap. ContactPointRates (contact_point_rates.h) differentiates it.
struct ContactFeature {
  // How the normal is determined.
  enum class Normal : uint8_t {
    kFixedInA,  // a face of A (or A's half-space): n̂ turns with A
    kFixedInB,
    kCentres,  // along c_B − c_A (n̂ = (c_B − c_A)/g, g = n̂·(c_B − c_A) of either sign)
    kEdges,    // ±(e_A × e_B)/|e_A × e_B| for the edge directions edge_A_G, edge_B_G
  };
  // How a side's core is determined.
  enum class Core : uint8_t {
    kMaterial,    // a point of its body (a vertex, a sphere's centre, a capsule's end)
    kOnLine,      // on the line through it along axis_G, closest to the other core (both on
                  // lines: the closest points of the two lines, with the kEdges normal)
    kOnPlane,     // where the line through the other core along n̂ meets the plane through it
                  // with normal axis_G (a face point under a vertex or a clipped point)
    kEdgeCut,     // on the line along axis_G where it crosses the plane through the other core
                  // spanned by n̂ and the other shape's edge aux_G (its frame): a clipped point
    kRimToward,   // on the rim (cylinder cap centred at aux_G, axis axis_G) closest to the
                  // other core
    kRimSupport,  // on that rim, the point farthest towards the other shape turned by
                  // angle_rad about the axis (cylinder rim samples on a half-space)
  };
  struct Side {
    Core core = Core::kMaterial;
    double radius_m = 0.0;
    double angle_rad = 0.0;
    Eigen::Vector3d axis_G = Eigen::Vector3d::Zero();
    Eigen::Vector3d aux_G = Eigen::Vector3d::Zero();
  };
  Normal normal = Normal::kCentres;
  Eigen::Vector3d edge_A_G = Eigen::Vector3d::Zero(), edge_B_G = Eigen::Vector3d::Zero();
  Side a, b;
};

// One contact point between shapes A and B.
// - normal_W: unit, pointing from A into B: B moving along +normal relative to A separates.
// - p_A_W, p_B_W: witness points on the surfaces of A and B (world frame);
//   p_B_W − p_A_W = signed_distance · normal_W.
// - signed_distance_m: > 0 separated, < 0 overlapping (penetration = −signed_distance).
struct ContactPoint {
  Eigen::Vector3d normal_W;
  Eigen::Vector3d p_A_W, p_B_W;
  double signed_distance_m = 0.0;
  ContactFeature feature;
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
