// Closed-form contacts of round shapes: sphere and capsule pairs (closest points of their
// core points/segments), and a sphere against a box or a cylinder (closest point on the solid).
#include <cmath>

#include "engine/geometry/contact_utils.h"
#include "engine/geometry/pair_contacts.h"

namespace contactlab::internal {
namespace {

// Two balls around core points; `fallback_normal` is used when the cores coincide.
int BallBall(const Eigen::Vector3d& core_A, double radius_A, const Eigen::Vector3d& core_B,
             double radius_B, const Eigen::Vector3d& fallback_normal, double margin_m,
             const ContactFeature& feature, std::vector<ContactPoint>* out) {
  const Eigen::Vector3d d = core_B - core_A;
  const double distance = d.norm();
  if (distance - radius_A - radius_B >= margin_m) return 0;
  const Eigen::Vector3d normal = distance > 1e-12 ? Eigen::Vector3d(d / distance) : fallback_normal;
  out->push_back(MakeContact(core_A, core_B, normal, radius_A, radius_B, feature));
  return 1;
}

struct Segment {
  Eigen::Vector3d p, q;
};

Segment CapsuleSegment(const Shape& capsule, const Eigen::Isometry3d& X_WG) {
  const Eigen::Vector3d half = 0.5 * capsule.length_m * X_WG.linear().col(2);
  return {X_WG.translation() - half, X_WG.translation() + half};
}

// The parameter u ∈ [0, 1] of the point of the segment closest to x.
double ClosestParameter(const Segment& s, const Eigen::Vector3d& x) {
  const Eigen::Vector3d d = s.q - s.p;
  const double len2 = d.squaredNorm();
  if (len2 <= 1e-24) return 0.0;
  return std::clamp((x - s.p).dot(d) / len2, 0.0, 1.0);
}

Eigen::Vector3d PointAt(const Segment& s, double u) { return s.p + u * (s.q - s.p); }

// Two ends or interior points of capsule axes (z of their frames): the closest points of the two
// lines when both are interior.
ContactFeature AxisAxisFeature(double s, double radius_A, double t, double radius_B) {
  const ContactFeature::Side a = SegmentSide(s, Eigen::Vector3d::UnitZ(), radius_A);
  const ContactFeature::Side b = SegmentSide(t, Eigen::Vector3d::UnitZ(), radius_B);
  if (a.core == FeatureCore::kOnLine && b.core == FeatureCore::kOnLine) {
    return EdgeEdgeFeature(a.axis_G, radius_A, b.axis_G, radius_B);
  }
  return MakeFeature(FeatureNormal::kCentres, a, b);
}

}  // namespace

int SphereSphereContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                         const Eigen::Isometry3d& X_WB, double margin_m,
                         std::vector<ContactPoint>* out) {
  return BallBall(
      X_WA.translation(), a.radius_m, X_WB.translation(), b.radius_m, Eigen::Vector3d::UnitZ(),
      margin_m,
      MakeFeature(FeatureNormal::kCentres, MaterialSide(a.radius_m), MaterialSide(b.radius_m)),
      out);
}

int SphereCapsuleContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                          const Eigen::Isometry3d& X_WB, double margin_m,
                          std::vector<ContactPoint>* out) {
  const Segment seg = CapsuleSegment(b, X_WB);
  const Eigen::Vector3d center = X_WA.translation();
  // Centre on the capsule axis: push out sideways (the shortest way out of the capsule).
  const Eigen::Vector3d fallback = -AnyPerpendicular(X_WB.linear().col(2));
  const double u = ClosestParameter(seg, center);
  return BallBall(center, a.radius_m, PointAt(seg, u), b.radius_m, fallback, margin_m,
                  MakeFeature(FeatureNormal::kCentres, MaterialSide(a.radius_m),
                              SegmentSide(u, Eigen::Vector3d::UnitZ(), b.radius_m)),
                  out);
}

int CapsuleCapsuleContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                           const Eigen::Isometry3d& X_WB, double margin_m,
                           std::vector<ContactPoint>* out) {
  const Segment sa = CapsuleSegment(a, X_WA), sb = CapsuleSegment(b, X_WB);
  const Eigen::Vector3d da = sa.q - sa.p, db = sb.q - sb.p;
  double s = 0, t = 0;
  ClosestPointsSegmentSegment(sa.p, sa.q, sb.p, sb.q, &s, &t);
  const Eigen::Vector3d core_A = sa.p + s * da, core_B = sb.p + t * db;
  // Crossing axes that meet: the normal perpendicular to both axes.
  Eigen::Vector3d fallback = X_WA.linear().col(2).cross(X_WB.linear().col(2));
  fallback = fallback.norm() > 1e-9 ? Eigen::Vector3d(fallback.normalized())
                                    : AnyPerpendicular(X_WA.linear().col(2));
  const size_t first = out->size();
  BallBall(core_A, a.radius_m, core_B, b.radius_m, fallback, margin_m,
           AxisAxisFeature(s, a.radius_m, t, b.radius_m), out);
  if (out->size() == first) return 0;

  // Parallel axes touch along a line: report the ends of the overlap too, so that a capsule
  // lying on another does not pivot about a single point.
  const double len_a = da.norm(), len_b = db.norm();
  constexpr double kParallelSin = 1e-3;
  if (len_a > 1e-9 && len_b > 1e-9 && da.cross(db).norm() <= kParallelSin * len_a * len_b) {
    const double t0 = (sb.p - sa.p).dot(da) / (len_a * len_a);
    const double t1 = (sb.q - sa.p).dot(da) / (len_a * len_a);
    const double lo = std::max(0.0, std::min(t0, t1)), hi = std::min(1.0, std::max(t0, t1));
    const double min_spacing = 1e-6 / len_a;  // parameter spacing of 1 µm
    for (const double u : {lo, hi}) {
      if (hi - lo < min_spacing) break;
      if (std::abs(u - s) < min_spacing) continue;  // already the closest point
      const Eigen::Vector3d end_A = sa.p + u * da;
      const double u_B = ClosestParameter(sb, end_A);
      BallBall(end_A, a.radius_m, PointAt(sb, u_B), b.radius_m, (*out)[first].normal_W, margin_m,
               AxisAxisFeature(u, a.radius_m, u_B, b.radius_m), out);
    }
  }
  return static_cast<int>(out->size() - first);
}

int BoxSphereContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                      const Eigen::Isometry3d& X_WB, double margin_m,
                      std::vector<ContactPoint>* out) {
  const Eigen::Matrix3d& R_WA = X_WA.linear();
  const Eigen::Vector3d& h = a.half_extents_m;
  const double r = b.radius_m;
  // Sphere centre in the box frame.
  const Eigen::Vector3d c = R_WA.transpose() * (X_WB.translation() - X_WA.translation());
  const Eigen::Vector3d q = c.cwiseMax(-h).cwiseMin(h);
  const Eigen::Vector3d d = c - q;
  const double distance2 = d.squaredNorm();
  Eigen::Vector3d core_A, normal;
  ContactFeature feature = MakeFeature(FeatureNormal::kCentres, MaterialSide(), MaterialSide(r));
  if (distance2 > 1e-24) {
    const double distance = std::sqrt(distance2);
    if (distance - r >= margin_m) return 0;
    core_A = q;
    normal = d / distance;
    // The clamped coordinates tell the feature: a face (one), an edge (two), a vertex (three).
    int clamped = 0, free_axis = 0;
    for (int i = 0; i < 3; ++i) {
      if (d[i] != 0.0) {
        ++clamped;
      } else {
        free_axis = i;
      }
    }
    if (clamped == 1) {
      feature = MakeFeature(FeatureNormal::kFixedInA, PlaneSide(normal), MaterialSide(r));
    } else if (clamped == 2) {
      feature.a = LineSide(Eigen::Vector3d::Unit(free_axis));
    }
  } else {
    // Centre inside: leave through the nearest face (lowest axis index on ties).
    int axis = 0;
    (h - c.cwiseAbs()).minCoeff(&axis);
    const double sign = c[axis] >= 0 ? 1.0 : -1.0;
    const double depth = h[axis] - std::abs(c[axis]);
    if (-depth - r >= margin_m) return 0;
    normal = Eigen::Vector3d::Zero();
    normal[axis] = sign;
    core_A = c;
    core_A[axis] = sign * h[axis];
    feature = MakeFeature(FeatureNormal::kFixedInA, PlaneSide(normal), MaterialSide(r));
  }
  out->push_back(MakeContact(X_WA * core_A, X_WB.translation(), R_WA * normal, 0.0, r, feature));
  return 1;
}

int CylinderSphereContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                           const Eigen::Isometry3d& X_WB, double margin_m,
                           std::vector<ContactPoint>* out) {
  const Eigen::Matrix3d& R_WA = X_WA.linear();
  const double radius = a.radius_m, half_length = 0.5 * a.length_m, r = b.radius_m;
  const Eigen::Vector3d c = R_WA.transpose() * (X_WB.translation() - X_WA.translation());
  const double radial = std::hypot(c.x(), c.y());
  // Unit radial direction of the centre (x of the cylinder frame on the axis).
  const Eigen::Vector2d u =
      radial > 1e-12 ? Eigen::Vector2d(c.x() / radial, c.y() / radial) : Eigen::Vector2d(1, 0);
  const double z_sign = c.z() >= 0 ? 1.0 : -1.0;
  Eigen::Vector3d core_A, normal;
  // The side is the axis inflated by the radius; a cap is a plane; the rim a circle.
  const ContactFeature side = MakeFeature(
      FeatureNormal::kCentres, LineSide(Eigen::Vector3d::UnitZ(), radius), MaterialSide(r));
  const ContactFeature cap = MakeFeature(FeatureNormal::kFixedInA,
                                         PlaneSide(Eigen::Vector3d(0, 0, z_sign)), MaterialSide(r));
  ContactFeature feature = side;
  if (radial > radius || std::abs(c.z()) > half_length) {
    const double clamped_radial = std::min(radial, radius);
    core_A = Eigen::Vector3d(clamped_radial * u.x(), clamped_radial * u.y(),
                             std::clamp(c.z(), -half_length, half_length));
    const Eigen::Vector3d d = c - core_A;
    const double distance = d.norm();
    if (distance - r >= margin_m) return 0;
    normal = distance > 1e-12 ? Eigen::Vector3d(d / distance) : Eigen::Vector3d::UnitZ();
    if (std::abs(c.z()) > half_length) {
      feature =
          radial > radius
              ? MakeFeature(FeatureNormal::kCentres,
                            RimSide(FeatureCore::kRimToward, z_sign * half_length), MaterialSide(r))
              : cap;
    }
  } else {
    // Centre inside: leave through the nearer of the side and the cap.
    const double side_depth = radius - radial, cap_depth = half_length - std::abs(c.z());
    const double depth = std::min(side_depth, cap_depth);
    if (-depth - r >= margin_m) return 0;
    if (cap_depth <= side_depth) {
      normal = Eigen::Vector3d(0, 0, z_sign);
      core_A = Eigen::Vector3d(c.x(), c.y(), z_sign * half_length);
      feature = cap;
    } else {
      normal = Eigen::Vector3d(u.x(), u.y(), 0);
      core_A = Eigen::Vector3d(radius * u.x(), radius * u.y(), c.z());
    }
  }
  out->push_back(MakeContact(X_WA * core_A, X_WB.translation(), R_WA * normal, 0.0, r, feature));
  return 1;
}

}  // namespace contactlab::internal
