// Small helpers shared by the narrow-phase pair routines (internal to the geometry module).
#pragma once

#include <algorithm>
#include <vector>

#include "engine/geometry/collision.h"

namespace contactlab::internal {

// A contact from closest points of two "cores" (the shapes before inflation by a radius:
// sphere centre, capsule segment) and a unit normal from A into B. The witness points are
// placed symmetrically about the midpoint of the cores so that p_B − p_A = φ·n̂ holds exactly
// even when the core points are not exactly aligned with the normal (clipped manifolds).
inline ContactPoint MakeContact(const Eigen::Vector3d& core_A, const Eigen::Vector3d& core_B,
                                const Eigen::Vector3d& normal, double radius_A, double radius_B) {
  const double core_gap = normal.dot(core_B - core_A);
  const Eigen::Vector3d mid = 0.5 * (core_A + core_B);
  ContactPoint c;
  c.normal_W = normal;
  c.signed_distance_m = core_gap - radius_A - radius_B;
  c.p_A_W = mid - (0.5 * core_gap - radius_A) * normal;
  c.p_B_W = mid + (0.5 * core_gap - radius_B) * normal;
  return c;
}

// MakeContact with the feature pair it was found on.
inline ContactPoint MakeContact(const Eigen::Vector3d& core_A, const Eigen::Vector3d& core_B,
                                const Eigen::Vector3d& normal, double radius_A, double radius_B,
                                const ContactFeature& feature) {
  ContactPoint c = MakeContact(core_A, core_B, normal, radius_A, radius_B);
  c.feature = feature;
  return c;
}

// Cores of a ContactFeature (collision.h); directions in the side's shape frame.
using FeatureCore = ContactFeature::Core;
using FeatureNormal = ContactFeature::Normal;
inline ContactFeature::Side MaterialSide(double radius_m = 0.0) {
  return {FeatureCore::kMaterial, radius_m, 0.0, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
}
inline ContactFeature::Side LineSide(const Eigen::Vector3d& axis_G, double radius_m = 0.0) {
  return {FeatureCore::kOnLine, radius_m, 0.0, axis_G, Eigen::Vector3d::Zero()};
}
inline ContactFeature::Side PlaneSide(const Eigen::Vector3d& normal_G, double radius_m = 0.0) {
  return {FeatureCore::kOnPlane, radius_m, 0.0, normal_G, Eigen::Vector3d::Zero()};
}
inline ContactFeature::Side EdgeCutSide(const Eigen::Vector3d& line_G,
                                        const Eigen::Vector3d& other_edge_G, double radius_m) {
  return {FeatureCore::kEdgeCut, radius_m, 0.0, line_G, other_edge_G};
}
// A cylinder's rim at the cap z = cap_z of G.
inline ContactFeature::Side RimSide(FeatureCore core, double cap_z, double angle_rad = 0.0) {
  return {core, 0.0, angle_rad, Eigen::Vector3d::UnitZ(), Eigen::Vector3d(0, 0, cap_z)};
}

inline ContactFeature MakeFeature(FeatureNormal normal, const ContactFeature::Side& a,
                                  const ContactFeature::Side& b) {
  ContactFeature f;
  f.normal = normal;
  f.a = a;
  f.b = b;
  return f;
}
// Two lines (edges, axes): the kEdges normal and both cores on their lines.
inline ContactFeature EdgeEdgeFeature(const Eigen::Vector3d& edge_A_G, double radius_A,
                                      const Eigen::Vector3d& edge_B_G, double radius_B) {
  ContactFeature f = MakeFeature(FeatureNormal::kEdges, LineSide(edge_A_G, radius_A),
                                 LineSide(edge_B_G, radius_B));
  f.edge_A_G = edge_A_G;
  f.edge_B_G = edge_B_G;
  return f;
}

// The feature as seen with A and B swapped.
inline void FlipFeature(ContactFeature* f) {
  std::swap(f->a, f->b);
  std::swap(f->edge_A_G, f->edge_B_G);
  if (f->normal == FeatureNormal::kFixedInA) {
    f->normal = FeatureNormal::kFixedInB;
  } else if (f->normal == FeatureNormal::kFixedInB) {
    f->normal = FeatureNormal::kFixedInA;
  }
}

// Turns points computed for the pair (B, A) into points for (A, B), from index `first` on.
inline void FlipContacts(size_t first, std::vector<ContactPoint>* out) {
  for (size_t i = first; i < out->size(); ++i) {
    ContactPoint& c = (*out)[i];
    std::swap(c.p_A_W, c.p_B_W);
    c.normal_W = -c.normal_W;
    FlipFeature(&c.feature);
  }
}

// A point at parameter u ∈ [0, 1] of a segment of its body (capsule axis, edge): an end is a
// material point, an interior point slides along the line (within 1e-9 of an end counts as it).
inline ContactFeature::Side SegmentSide(double u, const Eigen::Vector3d& axis_G, double radius_m) {
  constexpr double kEnd = 1e-9;
  return u <= kEnd || u >= 1.0 - kEnd ? MaterialSide(radius_m) : LineSide(axis_G, radius_m);
}

// Any unit vector orthogonal to the unit vector `n` (deterministic).
inline Eigen::Vector3d AnyPerpendicular(const Eigen::Vector3d& n) {
  const Eigen::Vector3d helper =
      std::abs(n.x()) < 0.57 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  return n.cross(helper).normalized();
}

// Closest points between segments [p1, q1] and [p2, q2] (Ericson, Real-Time Collision
// Detection §5.1.9), robust to zero-length and parallel segments (then s = 0 is chosen, so
// the result is deterministic). Returns the parameters s, t ∈ [0, 1].
inline void ClosestPointsSegmentSegment(const Eigen::Vector3d& p1, const Eigen::Vector3d& q1,
                                        const Eigen::Vector3d& p2, const Eigen::Vector3d& q2,
                                        double* s_out, double* t_out) {
  constexpr double kTinySquaredLength = 1e-24;
  const Eigen::Vector3d d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a <= kTinySquaredLength && e <= kTinySquaredLength) {
    s = t = 0.0;
  } else if (a <= kTinySquaredLength) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= kTinySquaredLength) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;
      // Parallel (or nearly): any s works; pick 0 for determinism.
      s = denom > 1e-12 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  *s_out = s;
  *t_out = t;
}

}  // namespace contactlab::internal
