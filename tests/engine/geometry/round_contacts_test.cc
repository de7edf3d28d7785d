// Closed-form pairs: sphere–sphere, sphere–capsule, capsule–capsule, sphere–box, sphere–cylinder.
#include <gtest/gtest.h>

#include "geometry_test_utils.h"
#include "test_support/poses.h"

namespace contactlab {
namespace {

using testing::Contacts;
using testing::Pose;
using testing::Rot;
using V = Eigen::Vector3d;

void ExpectVecNear(const V& a, const V& b, double tol = 1e-9) {
  EXPECT_LT((a - b).norm(), tol) << a.transpose() << " vs " << b.transpose();
}

TEST(SphereSphere, SeparatedTouchingPenetratingBothOrders) {
  const Shape a = Shape::Sphere(0.1), b = Shape::Sphere(0.2);
  for (double gap : {0.005, 0.0, -0.03}) {
    const auto X_A = Pose(V(1, 2, 3));
    const auto X_B = Pose(V(1, 2, 3) + (0.3 + gap) * V(0.6, 0, 0.8));
    auto ab = Contacts(a, X_A, b, X_B);
    ASSERT_EQ(ab.size(), 1u);
    EXPECT_NEAR(ab[0].signed_distance_m, gap, 1e-12);
    ExpectVecNear(ab[0].normal_W, V(0.6, 0, 0.8));
    ExpectVecNear(ab[0].p_A_W, V(1, 2, 3) + 0.1 * V(0.6, 0, 0.8));
    auto ba = Contacts(b, X_B, a, X_A);
    ASSERT_EQ(ba.size(), 1u);
    EXPECT_NEAR(ba[0].signed_distance_m, gap, 1e-12);
    ExpectVecNear(ba[0].normal_W, -V(0.6, 0, 0.8));
    ExpectVecNear(ba[0].p_B_W, ab[0].p_A_W);
  }
}

TEST(SphereSphere, MarginAndCoincidentCentres) {
  const Shape a = Shape::Sphere(0.1);
  EXPECT_EQ(Contacts(a, Pose(V::Zero()), a, Pose(V(0.2099, 0, 0)), 0.01).size(), 1u);
  EXPECT_EQ(Contacts(a, Pose(V::Zero()), a, Pose(V(0.2101, 0, 0)), 0.01).size(), 0u);
  auto c = Contacts(a, Pose(V::Zero()), a, Pose(V::Zero()));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].signed_distance_m, -0.2, 1e-12);
}

TEST(SphereCapsule, SideAndEndRegions) {
  const Shape sphere = Shape::Sphere(0.05), capsule = Shape::Capsule(0.1, 0.4);
  // Capsule axis along world x.
  const auto X_C = Pose(V(0, 0, 0), Rot(M_PI / 2, V::UnitY()));
  // Beside the axis: distance to the axis minus radii.
  auto side = Contacts(sphere, Pose(V(0.1, 0, 0.153)), capsule, X_C);
  ASSERT_EQ(side.size(), 1u);
  EXPECT_NEAR(side[0].signed_distance_m, 0.003, 1e-12);
  ExpectVecNear(side[0].normal_W, V(0, 0, -1));
  ExpectVecNear(side[0].p_B_W, V(0.1, 0, 0.1));
  // Beyond the end: distance to the end point.
  auto end = Contacts(capsule, X_C, sphere, Pose(V(0.2 + 0.14, 0, 0)));
  ASSERT_EQ(end.size(), 1u);
  EXPECT_NEAR(end[0].signed_distance_m, -0.01, 1e-12);
  ExpectVecNear(end[0].normal_W, V(1, 0, 0));
  // Centre on the axis: finite, penetration = both radii.
  auto axis = Contacts(sphere, Pose(V(0.05, 0, 0)), capsule, X_C);
  ASSERT_EQ(axis.size(), 1u);
  EXPECT_NEAR(axis[0].signed_distance_m, -0.15, 1e-12);
}

TEST(CapsuleCapsule, CrossingSegments) {
  const Shape a = Shape::Capsule(0.05, 1.0), b = Shape::Capsule(0.03, 1.0);
  // A along x at z = 0, B along y at z = 0.07: segment distance 0.07.
  const auto X_A = Pose(V::Zero(), Rot(M_PI / 2, V::UnitY()));
  const auto X_B = Pose(V(0.1, -0.2, 0.07), Rot(M_PI / 2, V::UnitX()));
  auto c = Contacts(a, X_A, b, X_B);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].signed_distance_m, -0.01, 1e-12);
  ExpectVecNear(c[0].normal_W, V(0, 0, 1));
  ExpectVecNear(c[0].p_A_W, V(0.1, 0, 0.05));
  ExpectVecNear(c[0].p_B_W, V(0.1, 0, 0.04));
  auto r = Contacts(b, X_B, a, X_A);
  ASSERT_EQ(r.size(), 1u);
  ExpectVecNear(r[0].normal_W, V(0, 0, -1));
  // Axes that intersect: normal perpendicular to both, no NaN.
  auto m = Contacts(a, X_A, b, Pose(V(0.1, -0.2, 0.0), Rot(M_PI / 2, V::UnitX())));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_NEAR(m[0].signed_distance_m, -0.08, 1e-12);
  EXPECT_NEAR(std::abs(m[0].normal_W.z()), 1.0, 1e-9);
}

TEST(CapsuleCapsule, ParallelGivesLineEnds) {
  const Shape a = Shape::Capsule(0.05, 1.0);
  const auto X_A = Pose(V::Zero(), Rot(M_PI / 2, V::UnitY()));
  const auto X_B = Pose(V(0.3, 0, 0.099), Rot(M_PI / 2, V::UnitY()));
  auto c = Contacts(a, X_A, a, X_B);
  ASSERT_EQ(c.size(), 2u);
  for (const auto& p : c) {
    EXPECT_NEAR(p.signed_distance_m, -0.001, 1e-12);
    ExpectVecNear(p.normal_W, V(0, 0, 1));
  }
  EXPECT_NEAR(std::abs(c[0].p_A_W.x() - c[1].p_A_W.x()), 0.7, 1e-9);
}

TEST(SphereBox, FaceEdgeVertexAndInsideRegions) {
  const Shape box = Shape::Box(V(0.2, 0.3, 0.1)), sphere = Shape::Sphere(0.05);
  const auto R = Rot(0.3, V(1, 2, 3));
  const V o(0.5, -1, 2);
  const auto X_box = Pose(o, R);
  struct Case {
    V center_G, expect_p_box_G, expect_n_G;
    double expect_phi;
  };
  const double s = 1 / std::sqrt(2.0), t = 1 / std::sqrt(3.0);
  const Case cases[] = {
      // Above the +z face.
      {V(0.1, 0.1, 0.155), V(0.1, 0.1, 0.1), V(0, 0, 1), 0.005},
      // Edge region (x and z beyond).
      {V(0.2 + 0.03 * s, 0, 0.1 + 0.03 * s), V(0.2, 0, 0.1), V(s, 0, s), -0.02},
      // Vertex region.
      {V(0.2, 0.3, 0.1) + 0.052 * V(t, t, t), V(0.2, 0.3, 0.1), V(t, t, t), 0.002},
      // Centre inside, nearest face −y.
      {V(0.05, -0.28, 0.0), V(0.05, -0.3, 0.0), V(0, -1, 0), -0.07},
      // Centre at the box centre: nearest face is z (smallest half extent).
      {V(0, 0, 0), V(0, 0, 0.1), V(0, 0, 1), -0.15},
  };
  for (const Case& c : cases) {
    const auto X_s = Pose(X_box * c.center_G);
    auto ab = Contacts(box, X_box, sphere, X_s);
    ASSERT_EQ(ab.size(), 1u);
    EXPECT_NEAR(ab[0].signed_distance_m, c.expect_phi, 1e-12);
    ExpectVecNear(ab[0].normal_W, R * c.expect_n_G);
    ExpectVecNear(ab[0].p_A_W, X_box * c.expect_p_box_G);
    auto ba = Contacts(sphere, X_s, box, X_box);
    ASSERT_EQ(ba.size(), 1u);
    EXPECT_NEAR(ba[0].signed_distance_m, c.expect_phi, 1e-12);
    ExpectVecNear(ba[0].normal_W, -R * c.expect_n_G);
    ExpectVecNear(ba[0].p_B_W, X_box * c.expect_p_box_G);
  }
  // Beyond the margin: nothing.
  EXPECT_TRUE(Contacts(box, X_box, sphere, Pose(X_box * V(0, 0, 0.1 + 0.05 + 0.011))).empty());
}

TEST(SphereCylinder, SideCapRimAndInside) {
  const Shape cyl = Shape::Cylinder(0.1, 0.4), sphere = Shape::Sphere(0.05);
  const auto R = Rot(0.7, V(0.2, 1, -0.4));
  const auto X_c = Pose(V(0.1, 0.2, 0.3), R);
  const double s = 1 / std::sqrt(2.0);
  struct Case {
    V center_G, p_cyl_G, n_G;
    double phi;
  };
  const Case cases[] = {
      {V(0.157, 0, 0.05), V(0.1, 0, 0.05), V(1, 0, 0), 0.007},                       // side
      {V(0.03, 0.02, 0.24), V(0.03, 0.02, 0.2), V(0, 0, 1), -0.01},                  // cap
      {V(0.1 + 0.04 * s, 0, -0.2 - 0.04 * s), V(0.1, 0, -0.2), V(s, 0, -s), -0.01},  // rim
      {V(0, 0.08, 0), V(0, 0.1, 0), V(0, 1, 0), -0.07},                              // inside, side
      {V(0, 0.0, 0.19), V(0, 0, 0.2), V(0, 0, 1), -0.06},                            // inside, cap
  };
  for (const Case& c : cases) {
    const auto X_s = Pose(X_c * c.center_G);
    auto ab = Contacts(cyl, X_c, sphere, X_s);
    ASSERT_EQ(ab.size(), 1u);
    EXPECT_NEAR(ab[0].signed_distance_m, c.phi, 1e-12);
    ExpectVecNear(ab[0].normal_W, R * c.n_G);
    ExpectVecNear(ab[0].p_A_W, X_c * c.p_cyl_G);
    auto ba = Contacts(sphere, X_s, cyl, X_c);
    ASSERT_EQ(ba.size(), 1u);
    ExpectVecNear(ba[0].normal_W, -R * c.n_G);
  }
}

}  // namespace
}  // namespace contactlab
