// The contact points' rates (contact_point_rates.h) against central differences of the narrow
// phase over poses moved along random twists, for every pair type at generic poses, and against
// known answers.
#include "engine/geometry/contact_point_rates.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/geometry/geometry_test_utils.h"

namespace contactlab {
namespace {

using Eigen::Vector3d;
using testing::RandomRotation;

struct Twist {
  Vector3d w_W = Vector3d::Zero(), v_W = Vector3d::Zero();
};

// The pose moved for a time h along the twist: R ← exp(h·[w]×)·R, origin ← origin + h·v.
Eigen::Isometry3d Moved(const Eigen::Isometry3d& X, const Twist& twist, double h) {
  Eigen::Isometry3d Y = X;
  const double angle = h * twist.w_W.norm();
  if (angle != 0) {
    Y.linear() = Eigen::AngleAxisd(angle, twist.w_W.normalized()).toRotationMatrix() * X.linear();
  }
  Y.translation() = X.translation() + h * twist.v_W;
  return Y;
}

Eigen::Isometry3d Pose(const Eigen::Matrix3d& R, const Vector3d& p) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = R;
  X.translation() = p;
  return X;
}

Eigen::Matrix3d Rot(double angle, const Vector3d& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

Twist RandomTwist(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return {Vector3d(u(rng), u(rng), u(rng)), Vector3d(u(rng), u(rng), u(rng))};
}

// Largest differences of the rates from central differences, over the pair's points.
struct RateErrors {
  double phi = 0, normal = 0, points = 0;
  double fd_normal = 0;  // largest |ṅ| of the differences
  int count = 0;
};

// Points of `out` matched to `base` by nearest p_A (the same count is required).
std::vector<ContactPoint> Matched(const std::vector<ContactPoint>& base,
                                  const std::vector<ContactPoint>& out) {
  std::vector<ContactPoint> matched;
  for (const ContactPoint& c : base) {
    const ContactPoint* best = &out.front();
    for (const ContactPoint& o : out) {
      if ((o.p_A_W - c.p_A_W).norm() < (best->p_A_W - c.p_A_W).norm()) best = &o;
    }
    matched.push_back(*best);
  }
  return matched;
}

RateErrors CompareWithDifferences(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                                  const Eigen::Isometry3d& X_WB, const Twist& ta, const Twist& tb,
                                  double margin = 0.01, double h = 1e-6) {
  RateErrors e;
  const std::vector<ContactPoint> base = testing::Contacts(a, X_WA, b, X_WB, margin);
  const std::vector<ContactPoint> plus =
      testing::Contacts(a, Moved(X_WA, ta, h), b, Moved(X_WB, tb, h), margin);
  const std::vector<ContactPoint> minus =
      testing::Contacts(a, Moved(X_WA, ta, -h), b, Moved(X_WB, tb, -h), margin);
  EXPECT_FALSE(base.empty());
  EXPECT_EQ(plus.size(), base.size());
  EXPECT_EQ(minus.size(), base.size());
  if (base.empty() || plus.size() != base.size() || minus.size() != base.size()) return e;
  const std::vector<ContactPoint> p = Matched(base, plus), m = Matched(base, minus);
  const PosedShapeMotion ma{a, X_WA, ta.w_W, ta.v_W}, mb{b, X_WB, tb.w_W, tb.v_W};
  for (size_t i = 0; i < base.size(); ++i) {
    const ContactPointRates r = ComputeContactPointRates(base[i], ma, mb);
    const double phi = (p[i].signed_distance_m - m[i].signed_distance_m) / (2 * h);
    const Vector3d n = (p[i].normal_W - m[i].normal_W) / (2 * h);
    const Vector3d pa = (p[i].p_A_W - m[i].p_A_W) / (2 * h);
    const Vector3d pb = (p[i].p_B_W - m[i].p_B_W) / (2 * h);
    e.phi = std::max(e.phi, std::abs(r.signed_distance_m_per_s - phi));
    e.normal = std::max(e.normal, (r.normal_W - n).norm());
    e.points = std::max({e.points, (r.p_A_W - pa).norm(), (r.p_B_W - pb).norm()});
    e.fd_normal = std::max(e.fd_normal, n.norm());
  }
  e.count = static_cast<int>(base.size());
  return e;
}

// Exact rates: every quantity within `tol` (m/s, 1/s; the twists are O(1), the shapes O(0.1 m))
// for several random twists.
void ExpectExactRates(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                      const Eigen::Isometry3d& X_WB, int expected_count = -1, double tol = 2e-6,
                      double h = 1e-6) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 4; ++trial) {
    SCOPED_TRACE("twist " + std::to_string(trial));
    const RateErrors e =
        CompareWithDifferences(a, X_WA, b, X_WB, RandomTwist(rng), RandomTwist(rng), 0.01, h);
    if (expected_count >= 0) {
      EXPECT_EQ(e.count, expected_count);
    }
    EXPECT_LT(e.phi, tol);
    EXPECT_LT(e.normal, tol);
    EXPECT_LT(e.points, tol);
  }
}

// Both orders of the pair (the narrow phase flips one of them).
void ExpectExactRatesBothOrders(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                                const Eigen::Isometry3d& X_WB, int expected_count = -1,
                                double tol = 2e-6, double h = 1e-6) {
  {
    SCOPED_TRACE("A, B");
    ExpectExactRates(a, X_WA, b, X_WB, expected_count, tol, h);
  }
  SCOPED_TRACE("B, A");
  ExpectExactRates(b, X_WB, a, X_WA, expected_count, tol, h);
}

Shape IrregularPolytope() {
  // A box's corners moved apart: triangular faces, no symmetry.
  return Shape::ConvexMesh({Vector3d(0.11, 0.09, 0.1), Vector3d(-0.1, 0.1, 0.12),
                            Vector3d(-0.12, -0.1, 0.09), Vector3d(0.1, -0.11, 0.1),
                            Vector3d(0.1, 0.1, -0.1), Vector3d(-0.09, 0.11, -0.1),
                            Vector3d(-0.1, -0.1, -0.11), Vector3d(0.12, -0.09, -0.1)});
}

const Eigen::Matrix3d kTilt = Rot(0.3, Vector3d(1, 2, 0.5));
const Eigen::Matrix3d kTilt2 = Rot(0.7, Vector3d(-0.4, 1, 1.5));

TEST(ContactPointRates, SphereSphere) {
  ExpectExactRates(Shape::Sphere(0.1), Pose(kTilt, Vector3d(0, 0, 0)), Shape::Sphere(0.15),
                   Pose(kTilt2, Vector3d(0.1, 0.12, 0.15)), 1);
}

TEST(ContactPointRates, SphereCapsuleSideAndEnd) {
  const Shape sphere = Shape::Sphere(0.1), capsule = Shape::Capsule(0.05, 0.4);
  const Eigen::Isometry3d X_WC = Pose(kTilt, Vector3d::Zero());
  ExpectExactRatesBothOrders(sphere, Pose(kTilt2, X_WC * Vector3d(0.12, 0.03, 0.05)), capsule, X_WC,
                             1);
  ExpectExactRatesBothOrders(sphere, Pose(kTilt2, X_WC * Vector3d(0.05, 0.04, 0.32)), capsule, X_WC,
                             1);
}

TEST(ContactPointRates, CapsuleCapsuleCrossingAndEnd) {
  const Shape a = Shape::Capsule(0.05, 0.4), b = Shape::Capsule(0.06, 0.3);
  // Crossing axes (both closest points inside the segments): the edge–edge normal.
  ExpectExactRatesBothOrders(a, Pose(kTilt, Vector3d::Zero()), b,
                             Pose(kTilt2, Vector3d(0.02, 0.03, 0.1)), 1);
  // An end of B against A's side.
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  ExpectExactRatesBothOrders(
      a, X_WA, b,
      Pose(X_WA.linear() * Rot(1.2, Vector3d(1, 0.3, 0)), X_WA * Vector3d(0, 0.2, 0.05)), 1);
}

TEST(ContactPointRates, CapsuleCapsuleParallelEnds) {
  // B lies along A (its axis parallel within the narrow phase's 1e-3 sine): the ends of the
  // overlap too.
  const Shape a = Shape::Capsule(0.05, 0.4), b = Shape::Capsule(0.05, 0.3);
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  const Eigen::Isometry3d X_WB =
      Pose(X_WA.linear() * Rot(5e-4, Vector3d(0.3, 1, 0)), X_WA * Vector3d(0.095, 0, 0.12));
  ExpectExactRates(a, X_WA, b, X_WB, 2);
}

TEST(ContactPointRates, BoxSphereFaceEdgeVertexInside) {
  const Shape box = Shape::Box(Vector3d(0.2, 0.15, 0.1)), sphere = Shape::Sphere(0.08);
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d(0.1, 0, 0));
  for (const Vector3d& c_A : {Vector3d(0.05, 0.02, 0.15), Vector3d(0.23, 0.03, 0.14),
                              Vector3d(0.24, 0.18, 0.13), Vector3d(0.05, 0.02, 0.06)}) {
    SCOPED_TRACE(::testing::Message() << "centre " << c_A.transpose());
    ExpectExactRatesBothOrders(box, X_WA, sphere, Pose(kTilt2, X_WA * c_A), 1);
  }
}

TEST(ContactPointRates, CylinderSphereSideCapRimInside) {
  const Shape cylinder = Shape::Cylinder(0.1, 0.3), sphere = Shape::Sphere(0.05);
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d(0, 0.1, 0));
  for (const Vector3d& c_A :
       {Vector3d(0.1, 0.09, 0.02), Vector3d(0.03, -0.04, 0.19), Vector3d(0.09, 0.07, 0.18),
        Vector3d(0.05, 0.04, 0.1), Vector3d(0.02, 0.01, 0.13)}) {
    SCOPED_TRACE(::testing::Message() << "centre " << c_A.transpose());
    ExpectExactRatesBothOrders(cylinder, X_WA, sphere, Pose(kTilt2, X_WA * c_A), 1);
  }
}

TEST(ContactPointRates, ShapesOnAHalfSpace) {
  const Shape plane = Shape::HalfSpace();
  const Eigen::Isometry3d X_WP = Pose(Rot(0.2, Vector3d(1, 0.5, 0)), Vector3d(0, 0, 0.05));
  const Eigen::Isometry3d X_WB = Pose(kTilt, X_WP * Vector3d(0.1, 0.2, 0.06));
  ExpectExactRatesBothOrders(plane, X_WP, Shape::Sphere(0.07), X_WB, 1);
  ExpectExactRatesBothOrders(plane, X_WP, Shape::Capsule(0.05, 0.2),
                             Pose(kTilt2, X_WB.translation()));
  ExpectExactRatesBothOrders(plane, X_WP, Shape::Box(Vector3d(0.1, 0.08, 0.06)),
                             Pose(Rot(0.1, Vector3d(1, 1, 0)), X_WP * Vector3d(0, 0, 0.07)));
  ExpectExactRatesBothOrders(plane, X_WP, IrregularPolytope(),
                             Pose(Rot(0.15, Vector3d(0, 1, 0)), X_WP * Vector3d(0, 0, 0.11)));
  // A tilted cylinder: the rim samples turn with the rim's lowest point.
  ExpectExactRatesBothOrders(
      plane, X_WP, Shape::Cylinder(0.1, 0.2),
      Pose(X_WP.linear() * Rot(0.05, Vector3d(1, 0.2, 0)), X_WP * Vector3d(0, 0, 0.099)));
}

TEST(ContactPointRates, BoxOnBoxFaceManifold) {
  // B turned about the normal and tilted a little: a clipped octagon with incident corners,
  // incident edges cut by the reference sides and reference corners over the incident face.
  const Shape a = Shape::Box(Vector3d(0.2, 0.2, 0.1)), b = Shape::Box(Vector3d(0.15, 0.15, 0.1));
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  const Eigen::Isometry3d X_WB =
      Pose(X_WA.linear() * Rot(0.6, Vector3d::UnitZ()) * Rot(0.02, Vector3d(1, 0.4, 0)),
           X_WA * Vector3d(0.05, 0.03, 0.198));
  const std::vector<ContactPoint> points = testing::Contacts(a, X_WA, b, X_WB);
  ASSERT_GE(points.size(), 4u);
  ExpectExactRatesBothOrders(a, X_WA, b, X_WB);
}

TEST(ContactPointRates, BoxBoxEdgeEdgeAndSeparated) {
  const Shape a = Shape::Box(Vector3d(0.2, 0.15, 0.1)), b = Shape::Box(Vector3d(0.1, 0.12, 0.08));
  const Eigen::Isometry3d X_WA = Pose(Eigen::Matrix3d::Identity(), Vector3d::Zero());
  // An edge of B (turned 45° about two axes) into A's top edge along x.
  const Eigen::Isometry3d X_WB =
      Pose(Rot(0.7, Vector3d::UnitX()) * Rot(0.75, Vector3d::UnitZ()), Vector3d(0.02, 0.23, 0.2));
  const std::vector<ContactPoint> edge = testing::Contacts(a, X_WA, b, X_WB);
  ASSERT_EQ(edge.size(), 1u);
  ASSERT_EQ(edge[0].feature.normal, ContactFeature::Normal::kEdges);
  ExpectExactRatesBothOrders(a, X_WA, b, X_WB, 1);
  // Separated within the margin: B's lowest corner 1 mm over A's top face (with the corners of
  // its incident face within the margin).
  double lowest = 0;
  for (int i = 0; i < 8; ++i) {
    const Vector3d corner((i & 1) ? 0.1 : -0.1, (i & 2) ? 0.12 : -0.12, (i & 4) ? 0.08 : -0.08);
    lowest = std::min(lowest, (kTilt2 * corner).z());
  }
  const Eigen::Isometry3d X_WB2 = Pose(kTilt2, Vector3d(0.03, 0.02, 0.1 + 0.001 - lowest));
  ExpectExactRates(a, X_WA, b, X_WB2);
}

// B with rotation R_WB moved along `direction` from A's origin until it penetrates A by `depth`.
Eigen::Isometry3d Touching(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                           const Eigen::Matrix3d& R_WB, const Vector3d& direction, double depth) {
  double lo = 0, hi = 2;  // penetrating at lo, separated at hi (shapes of ~0.1 m)
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    const Eigen::Isometry3d X = Pose(R_WB, X_WA.translation() + mid * direction.normalized());
    (SignedDistance(a, X_WA, b, X) < -depth ? lo : hi) = mid;
  }
  return Pose(R_WB, X_WA.translation() + lo * direction.normalized());
}

TEST(ContactPointRates, PolytopePairs) {
  const Shape mesh = IrregularPolytope();
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  // Corners and edges of one shape into the other (EPA: face–vertex or edge–edge, with their
  // manifolds).
  for (const Shape& b : {mesh, Shape::Box(Vector3d(0.1, 0.05, 0.08)), Shape::Sphere(0.05),
                         Shape::Capsule(0.04, 0.2)}) {
    for (const Vector3d& direction : {Vector3d(0.3, 0.8, 0.5), Vector3d(-0.6, 0.2, -0.7)}) {
      SCOPED_TRACE(::testing::Message()
                   << ShapeTypeName(b.type) << " along " << direction.transpose());
      ExpectExactRatesBothOrders(mesh, X_WA, b, Touching(mesh, X_WA, b, kTilt2, direction, 0.003));
    }
  }
}

TEST(ContactPointRates, PolytopeFaceOnFace) {
  // A polytope resting on a box face, turned and tilted a little: a clipped manifold.
  const Shape box = Shape::Box(Vector3d(0.3, 0.3, 0.1));
  const Shape mesh = Shape::ConvexMesh({Vector3d(0.1, 0, -0.05), Vector3d(-0.05, 0.09, -0.05),
                                        Vector3d(-0.05, -0.09, -0.05), Vector3d(0.1, 0, 0.05),
                                        Vector3d(-0.05, 0.09, 0.05), Vector3d(-0.05, -0.09, 0.05)});
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  const Eigen::Isometry3d X_WB =
      Pose(X_WA.linear() * Rot(0.4, Vector3d::UnitZ()) * Rot(0.01, Vector3d(1, 0.3, 0)),
           X_WA * Vector3d(0.02, 0.01, 0.149));
  ASSERT_GE(testing::Contacts(box, X_WA, mesh, X_WB).size(), 3u);
  ExpectExactRatesBothOrders(box, X_WA, mesh, X_WB);
}

TEST(ContactPointRates, CapsuleLyingOnABoxFace) {
  // The axis clipped to the face (GJK/EPA pair): its ends, or its crossings of the face's side
  // planes, over the face.
  const Shape box = Shape::Box(Vector3d(0.2, 0.15, 0.1)), capsule = Shape::Capsule(0.04, 0.5);
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  const Eigen::Isometry3d X_WB =
      Pose(X_WA.linear() * Rot(0.4, Vector3d::UnitZ()) * Rot(1.55, Vector3d::UnitY()),
           X_WA * Vector3d(0.05, 0.02, 0.138));
  ASSERT_EQ(testing::Contacts(box, X_WA, capsule, X_WB).size(), 2u);
  ExpectExactRatesBothOrders(box, X_WA, capsule, X_WB, 2);
}

TEST(ContactPointRates, BoxBoxNearParallelFacesUnderAnEdgeNormal) {
  // B tilted 3° with its lowest corner just beyond A's top edge x = 0.2: an edge of B rising from
  // that corner crosses A's edge 0.5 mm deep (edge–edge), and B's bottom face, near-parallel to
  // A's top, gets its polygon clipped along that normal.
  const Shape a = Shape::Box(Vector3d(0.2, 0.2, 0.1)), b = Shape::Box(Vector3d(0.1, 0.1, 0.1));
  const Eigen::Isometry3d X_WA = Eigen::Isometry3d::Identity();
  const Eigen::Matrix3d R_WB = Rot(0.6, Vector3d::UnitZ()) * Rot(0.05, Vector3d(1, 0.4, 0));
  // The lowest corner, and of the edges from it towards −x the one rising least per x.
  Vector3d low = Vector3d::Constant(1e9);
  for (int i = 0; i < 8; ++i) {
    const Vector3d p =
        R_WB * Vector3d((i & 1) ? 0.1 : -0.1, (i & 2) ? 0.1 : -0.1, (i & 4) ? 0.1 : -0.1);
    if (p.z() < low.z()) low = p;
  }
  const Vector3d low_B = R_WB.transpose() * low;
  Vector3d edge = Vector3d::Zero();
  for (int k = 0; k < 2; ++k) {
    Vector3d other_B = low_B;
    other_B[k] = -other_B[k];
    const Vector3d d = R_WB * (other_B - low_B);
    if (d.x() < 0 && (edge.x() == 0 || d.z() / -d.x() < edge.z() / -edge.x())) edge = d;
  }
  ASSERT_LT(edge.x(), 0);
  // The edge crosses x = 0.2 at y = 0.02, 0.5 mm below A's top; the corner 2 cm beyond.
  const double s = 0.02 / -edge.x();
  const Vector3d crossing(0.2, 0.02, 0.1 - 0.0005);
  const Eigen::Isometry3d X_WB = Pose(R_WB, crossing - (low + s * edge));
  const std::vector<ContactPoint> points = testing::Contacts(a, X_WA, b, X_WB);
  ASSERT_GE(points.size(), 2u);
  for (const ContactPoint& c : points) {
    EXPECT_EQ(c.feature.normal, ContactFeature::Normal::kEdges);
  }
  ExpectExactRatesBothOrders(a, X_WA, b, X_WB);
}

TEST(ContactPointRates, CylinderLyingOnABoxKeepsTheSignedDistanceRate) {
  // The side line's points are taken as material (its rolling neglected): φ̇ exact, the
  // normal a face's; EPA's accuracy on curved shapes sets the differences' step.
  const Shape box = Shape::Box(Vector3d(0.3, 0.3, 0.1)), cylinder = Shape::Cylinder(0.05, 0.3);
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  const Eigen::Isometry3d X_WB =
      Pose(X_WA.linear() * Rot(0.3, Vector3d::UnitZ()) * Rot(1.57, Vector3d::UnitX()),
           X_WA * Vector3d(0.02, 0.01, 0.149));
  std::mt19937 rng(5);
  for (int trial = 0; trial < 4; ++trial) {
    const RateErrors e = CompareWithDifferences(box, X_WA, cylinder, X_WB, RandomTwist(rng),
                                                RandomTwist(rng), 0.01, 1e-4);
    ASSERT_GE(e.count, 2);
    EXPECT_LT(e.phi, 3e-4);
    EXPECT_LT(e.normal, 3e-4);
  }
}

TEST(ContactPointRates, CylinderOnBoxCapAndRim) {
  const Shape box = Shape::Box(Vector3d(0.3, 0.3, 0.1)), cylinder = Shape::Cylinder(0.08, 0.2);
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  // Standing: the cap's 8-gon clipped (material corners).
  ExpectExactRatesBothOrders(
      box, X_WA, cylinder,
      Pose(X_WA.linear() * Rot(0.7, Vector3d::UnitZ()), X_WA * Vector3d(0.02, 0.03, 0.199)), 8);
  // Tilted on its rim: the rim's point farthest towards the face. EPA finds it to ~1e-8 m on
  // the curved rim, which the differences' step must dwarf (the rim samples on a half-space
  // check the same model to round-off).
  ExpectExactRatesBothOrders(
      box, X_WA, cylinder,
      Pose(X_WA.linear() * Rot(0.5, Vector3d(1, 0.5, 0)), X_WA * Vector3d(0.02, 0.03, 0.19)), 1,
      3e-4, 1e-4);
}

TEST(ContactPointRates, CylinderApproximationsKeepTheSignedDistanceRate) {
  // Cylinder–cylinder rim against rim (the rims taken as their tangent lines): φ̇ is still
  // exact (the points are closest points), ṅ and the points first-order models; EPA's accuracy
  // on curved shapes sets the differences' step.
  const Shape cylinder = Shape::Cylinder(0.08, 0.2);
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  const Eigen::Isometry3d X_WB =
      Touching(cylinder, X_WA, cylinder, kTilt2, Vector3d(0.5, 0.6, 0.9), 0.003);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 4; ++trial) {
    const RateErrors e = CompareWithDifferences(cylinder, X_WA, cylinder, X_WB, RandomTwist(rng),
                                                RandomTwist(rng), 0.01, 1e-4);
    ASSERT_GE(e.count, 1);
    EXPECT_LT(e.phi, 1e-4);
    EXPECT_LT(e.normal, 0.5 * e.fd_normal);
  }
}

TEST(ContactPointRates, SphereSphereNormalRateIsTheKnownAnswer) {
  // Translations only: ṅ = (I − n̂n̂ᵀ)(v_B − v_A)/|c_B − c_A|, φ̇ = n̂·(v_B − v_A).
  const Shape a = Shape::Sphere(0.1), b = Shape::Sphere(0.2);
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d(0.1, 0, 0));
  const Eigen::Isometry3d X_WB = Pose(kTilt2, Vector3d(0.3, 0.1, 0.1));
  const Vector3d v_A(0.3, -0.2, 1.0), v_B(-0.5, 0.4, 0.2);
  const std::vector<ContactPoint> points = testing::Contacts(a, X_WA, b, X_WB);
  ASSERT_EQ(points.size(), 1u);
  const Vector3d d = X_WB.translation() - X_WA.translation();
  const Vector3d n = d.normalized();
  const ContactPointRates r = ComputeContactPointRates(points[0], {a, X_WA, Vector3d(1, 2, 3), v_A},
                                                       {b, X_WB, Vector3d(-2, 0.5, 1), v_B});
  const Vector3d expected_n =
      (Eigen::Matrix3d::Identity() - n * n.transpose()) * (v_B - v_A) / d.norm();
  EXPECT_LT((r.normal_W - expected_n).norm(), 1e-12);
  EXPECT_GT(expected_n.norm(), 0.5);  // a dropped normal rate fails here
  EXPECT_NEAR(r.signed_distance_m_per_s, n.dot(v_B - v_A), 1e-12);
  // The witness points ride on the spheres' surfaces along the turning normal.
  EXPECT_LT((r.p_A_W - (v_A + 0.1 * expected_n)).norm(), 1e-12);
  EXPECT_LT((r.p_B_W - (v_B - 0.2 * expected_n)).norm(), 1e-12);
}

TEST(ContactPointRates, DroppingTheNormalRateIsDetected) {
  // A box corner on a turning half-space: the differences' ṅ is large, so rates without it
  // would miss by as much as the tolerance is small.
  const Shape plane = Shape::HalfSpace(), box = Shape::Box(Vector3d(0.1, 0.1, 0.1));
  const Eigen::Isometry3d X_WP = Eigen::Isometry3d::Identity();
  const Eigen::Isometry3d X_WB = Pose(Rot(0.5, Vector3d(1, 1, 0)), Vector3d(0, 0, 0.15));
  const RateErrors e = CompareWithDifferences(plane, X_WP, box, X_WB,
                                              {Vector3d(0.7, -0.4, 0.2), Vector3d::Zero()}, {});
  ASSERT_EQ(e.count, 1);
  EXPECT_GT(e.fd_normal, 0.5);
  EXPECT_LT(e.normal, 1e-6);
}

TEST(ContactPointRates, AdvanceIsFirstOrder) {
  // Moving a point by dt·rates matches the narrow phase at the moved poses to O(dt²).
  const Shape a = Shape::Box(Vector3d(0.2, 0.15, 0.1)), b = Shape::Sphere(0.08);
  const Eigen::Isometry3d X_WA = Pose(kTilt, Vector3d::Zero());
  const Eigen::Isometry3d X_WB = Pose(kTilt2, X_WA * Vector3d(0.23, 0.03, 0.14));
  const Twist ta{Vector3d(0.5, -1, 0.3), Vector3d(0.2, 0.1, -0.3)},
      tb{Vector3d(1, 0, 0.2), Vector3d(-0.1, 0.4, 0.2)};
  const ContactPoint base = testing::Contacts(a, X_WA, b, X_WB)[0];
  for (const double dt : {1e-3, 1e-4}) {
    const ContactPoint moved =
        AdvanceContactPoint(base, {a, X_WA, ta.w_W, ta.v_W}, {b, X_WB, tb.w_W, tb.v_W}, dt);
    const ContactPoint truth = testing::Contacts(a, Moved(X_WA, ta, dt), b, Moved(X_WB, tb, dt))[0];
    EXPECT_LT((moved.p_A_W - truth.p_A_W).norm(), 10 * dt * dt);
    EXPECT_LT((moved.normal_W - truth.normal_W).norm(), 10 * dt * dt);
    EXPECT_NEAR(moved.normal_W.norm(), 1.0, 1e-15);
    EXPECT_NEAR(moved.signed_distance_m, truth.signed_distance_m, 10 * dt * dt);
  }
}

}  // namespace
}  // namespace contactlab
