// Every bounded shape against a half-space, in both argument orders.
#include <gtest/gtest.h>

#include "geometry_test_utils.h"
#include "test_support/poses.h"

namespace contactlab {
namespace {

using testing::Contacts;
using testing::MinDistance;
using testing::Pose;
using testing::Rot;
using V = Eigen::Vector3d;

// A tilted ground: normal n_W, through point o.
struct Ground {
  Eigen::Isometry3d X_WH;
  V n;
};
Ground MakeGround() {
  const Eigen::Matrix3d R = Rot(0.4, V(1, -0.5, 0.2));
  return {Pose(V(0.3, -0.2, 0.1), R), R.col(2)};
}
double Height(const Ground& g, const V& p) { return g.n.dot(p - g.X_WH.translation()); }

TEST(HalfSpace, SphereBothOrders) {
  const Ground g = MakeGround();
  const Shape hs = Shape::HalfSpace(), s = Shape::Sphere(0.1);
  const V c = g.X_WH * V(0.5, 0.2, 0.095);
  auto ab = Contacts(hs, g.X_WH, s, Pose(c));
  ASSERT_EQ(ab.size(), 1u);
  EXPECT_NEAR(ab[0].signed_distance_m, -0.005, 1e-12);
  EXPECT_LT((ab[0].normal_W - g.n).norm(), 1e-12);
  EXPECT_NEAR(Height(g, ab[0].p_A_W), 0.0, 1e-12);
  auto ba = Contacts(s, Pose(c), hs, g.X_WH);
  ASSERT_EQ(ba.size(), 1u);
  EXPECT_LT((ba[0].normal_W + g.n).norm(), 1e-12);
  EXPECT_NEAR(Height(g, ba[0].p_B_W), 0.0, 1e-12);
  // Beyond the margin.
  EXPECT_TRUE(Contacts(hs, g.X_WH, s, Pose(g.X_WH * V(0, 0, 0.111))).empty());
  EXPECT_EQ(Contacts(hs, g.X_WH, s, Pose(g.X_WH * V(0, 0, 0.109))).size(), 1u);
}

TEST(HalfSpace, RestingBoxGivesFourCornersWithDepth) {
  const Ground g = MakeGround();
  const Shape hs = Shape::HalfSpace(), box = Shape::Box(V(0.2, 0.1, 0.05));
  const auto X_box = g.X_WH * Pose(V(0.1, 0.1, 0.05 - 0.002), Rot(0.3, V::UnitZ()));
  for (bool flip : {false, true}) {
    auto c = flip ? Contacts(box, X_box, hs, g.X_WH) : Contacts(hs, g.X_WH, box, X_box);
    ASSERT_EQ(c.size(), 4u);
    for (const auto& p : c) {
      EXPECT_NEAR(p.signed_distance_m, -0.002, 1e-12);
      EXPECT_LT((p.normal_W - (flip ? -g.n : g.n)).norm(), 1e-12);
      const V on_box = flip ? p.p_A_W : p.p_B_W;
      const V local = X_box.inverse() * on_box;
      EXPECT_NEAR(std::abs(local.x()), 0.2, 1e-12);
      EXPECT_NEAR(std::abs(local.y()), 0.1, 1e-12);
      EXPECT_NEAR(local.z(), -0.05, 1e-12);
    }
  }
}

TEST(HalfSpace, TiltedBoxLowestVertex) {
  const Shape hs = Shape::HalfSpace(), box = Shape::Box(V(0.1, 0.1, 0.1));
  // Box on a vertex: rotate so that the diagonal (1,1,1) points down.
  const Eigen::Matrix3d R =
      Eigen::Quaterniond::FromTwoVectors(V(-1, -1, -1).normalized(), V(0, 0, -1))
          .toRotationMatrix();
  const double half_diag = 0.1 * std::sqrt(3.0);
  const auto X_box = Pose(V(0, 0, half_diag - 0.004), R);
  auto c = Contacts(hs, Pose(V::Zero()), box, X_box);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].signed_distance_m, -0.004, 1e-12);
  EXPECT_LT((c[0].p_B_W - X_box * V(-0.1, -0.1, -0.1)).norm(), 1e-12);
  EXPECT_LT((c[0].p_A_W - V(0, 0, 0)).norm(), 1e-12);
}

TEST(HalfSpace, CylinderStandingGivesRimSamples) {
  const Shape hs = Shape::HalfSpace(), cyl = Shape::Cylinder(0.1, 0.3);
  const auto X_c = Pose(V(0.2, 0.1, 0.15 - 0.003));
  for (bool flip : {false, true}) {
    auto c =
        flip ? Contacts(cyl, X_c, hs, Pose(V::Zero())) : Contacts(hs, Pose(V::Zero()), cyl, X_c);
    ASSERT_EQ(c.size(), 8u);
    for (const auto& p : c) {
      EXPECT_NEAR(p.signed_distance_m, -0.003, 1e-12);
      const V on_cyl = flip ? p.p_A_W : p.p_B_W;
      EXPECT_NEAR((on_cyl - V(0.2, 0.1, -0.003)).norm(), 0.1, 1e-12);  // on the rim
    }
  }
}

TEST(HalfSpace, CylinderTiltedAndLying) {
  const Shape hs = Shape::HalfSpace(), cyl = Shape::Cylinder(0.1, 0.3);
  // Lying on its side: the two ends of the line contact.
  const auto X_lying = Pose(V(0, 0, 0.1 - 0.001), Rot(M_PI / 2, V::UnitX()));
  auto c = Contacts(hs, Pose(V::Zero()), cyl, X_lying);
  ASSERT_EQ(c.size(), 2u);
  for (const auto& p : c) {
    EXPECT_NEAR(p.signed_distance_m, -0.001, 1e-12);
    EXPECT_NEAR(std::abs(p.p_B_W.y()), 0.15, 1e-12);
  }
  // Tilted by 30° on its rim: one lowest rim point at the analytic height.
  const double tilt = M_PI / 6;
  const double lowest = 0.15 * std::cos(tilt) + 0.1 * std::sin(tilt);
  const auto X_tilted = Pose(V(0, 0, lowest - 0.002), Rot(tilt, V::UnitY()));
  auto t = Contacts(hs, Pose(V::Zero()), cyl, X_tilted);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_NEAR(t[0].signed_distance_m, -0.002, 1e-12);
}

TEST(HalfSpace, CapsuleBothEnds) {
  const Shape hs = Shape::HalfSpace(), cap = Shape::Capsule(0.05, 0.4);
  const auto X = Pose(V(0, 0, 0.05 - 0.002), Rot(M_PI / 2, V::UnitX()));
  auto c = Contacts(cap, X, hs, Pose(V::Zero()));
  ASSERT_EQ(c.size(), 2u);
  for (const auto& p : c) {
    EXPECT_NEAR(p.signed_distance_m, -0.002, 1e-12);
    EXPECT_LT((p.normal_W - V(0, 0, -1)).norm(), 1e-12);
  }
  // Standing: one end only.
  auto s = Contacts(hs, Pose(V::Zero()), cap, Pose(V(0, 0, 0.25 + 0.004)));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NEAR(s[0].signed_distance_m, 0.004, 1e-12);
}

TEST(HalfSpace, TwoHalfSpacesNeverCollide) {
  const Shape hs = Shape::HalfSpace();
  EXPECT_TRUE(Contacts(hs, Pose(V::Zero()), hs, Pose(V::Zero(), Rot(2.0, V::UnitX()))).empty());
  EXPECT_TRUE(std::isinf(SignedDistance(hs, Pose(V::Zero()), hs, Pose(V::Zero()))));
}

TEST(HalfSpace, SignedDistanceIsMinimumOverSamples) {
  const Shape hs = Shape::HalfSpace();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> h(-0.1, 0.3);
  for (const Shape& s : testing::AllBoundedShapes()) {
    for (int k = 0; k < 20; ++k) {
      const auto X = Pose(V(0.1, 0.2, h(rng)), testing::RandomRotation(rng));
      double brute = std::numeric_limits<double>::infinity();
      for (int patch = 0; patch < testing::NumPatches(s); ++patch) {
        for (int i = 0; i <= 60; ++i) {
          for (int j = 0; j <= 60; ++j) {
            brute = std::min(brute, testing::SurfacePoint(s, X, patch, i / 60.0, j / 60.0).z());
          }
        }
      }
      const double phi = SignedDistance(hs, Pose(V::Zero()), s, X);
      // Sampling only overestimates; the grid spacing bounds the error.
      EXPECT_LE(phi, brute + 1e-12) << ShapeTypeName(s.type);
      EXPECT_GE(phi, brute - 0.01) << ShapeTypeName(s.type);
      EXPECT_NEAR(SignedDistance(s, X, hs, Pose(V::Zero())), phi, 1e-12);
    }
  }
}

}  // namespace
}  // namespace contactlab

namespace contactlab {
namespace {

TEST(ComputeContactPoints, AppendsWithoutTouchingEarlierPoints) {
  const Shape box = Shape::Box(Eigen::Vector3d(0.1, 0.1, 0.1)), hs = Shape::HalfSpace();
  std::vector<ContactPoint> out(1);
  out[0].normal_W = Eigen::Vector3d::UnitX();
  out[0].p_A_W = Eigen::Vector3d(1, 2, 3);
  out[0].p_B_W = Eigen::Vector3d(4, 5, 6);
  out[0].signed_distance_m = 0.5;
  // Box first: the half-space routine runs in the other order and flips what it appended.
  const int n = ComputeContactPoints(box, testing::Pose(Eigen::Vector3d(0, 0, 0.099)), hs,
                                     testing::Pose(Eigen::Vector3d::Zero()), 0.01, &out);
  ASSERT_EQ(n, 4);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].normal_W, Eigen::Vector3d::UnitX());
  EXPECT_EQ(out[0].p_A_W, Eigen::Vector3d(1, 2, 3));
  for (int i = 1; i < 5; ++i) EXPECT_EQ(out[i].normal_W, Eigen::Vector3d(0, 0, -1));
}

}  // namespace
}  // namespace contactlab
