// Box–box: separating axes, face clipping, edge–edge.
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

TEST(BoxBox, StackGivesFourPointsWithDepth) {
  const Shape lower = Shape::Box(V(0.5, 0.5, 0.1)), upper = Shape::Box(V(0.1, 0.15, 0.1));
  const auto X_l = Pose(V(0, 0, 0.1));
  const auto X_u = Pose(V(0.05, -0.02, 0.3 - 0.001), Rot(0.4, V::UnitZ()));
  for (bool flip : {false, true}) {
    auto c = flip ? Contacts(upper, X_u, lower, X_l) : Contacts(lower, X_l, upper, X_u);
    ASSERT_EQ(c.size(), 4u);
    for (const auto& p : c) {
      EXPECT_NEAR(p.signed_distance_m, -0.001, 1e-12);
      EXPECT_LT((p.normal_W - (flip ? V(0, 0, -1) : V(0, 0, 1))).norm(), 1e-12);
      const V on_upper = X_u.inverse() * (flip ? p.p_A_W : p.p_B_W);
      EXPECT_NEAR(std::abs(on_upper.x()), 0.1, 1e-12);
      EXPECT_NEAR(std::abs(on_upper.y()), 0.15, 1e-12);
      EXPECT_NEAR(on_upper.z(), -0.1, 1e-12);
    }
  }
}

TEST(BoxBox, EqualBoxesStackedAndSeparatedWithinMargin) {
  const Shape box = Shape::Box(V(0.1, 0.1, 0.1));
  // Slightly separated, rotated 45°: the clipped octagon.
  auto c =
      Contacts(box, Pose(V::Zero()), box, Pose(V(0, 0, 0.2 + 0.004), Rot(M_PI / 4, V::UnitZ())));
  ASSERT_EQ(c.size(), 8u);
  for (const auto& p : c) EXPECT_NEAR(p.signed_distance_m, 0.004, 1e-12);
  // Beyond the margin.
  EXPECT_TRUE(Contacts(box, Pose(V::Zero()), box, Pose(V(0, 0, 0.2 + 0.011))).empty());
  // Offset half a box: overlap rectangle 0.1 × 0.2, 4 corners.
  auto h = Contacts(box, Pose(V::Zero()), box, Pose(V(0.1, 0, 0.19)));
  ASSERT_EQ(h.size(), 4u);
  for (const auto& p : h) {
    EXPECT_NEAR(p.signed_distance_m, -0.01, 1e-12);
    EXPECT_GE(p.p_B_W.x(), -1e-12);
    EXPECT_LE(p.p_B_W.x(), 0.1 + 1e-12);
  }
}

TEST(BoxBox, EdgeEdgeGivesOnePoint) {
  const Shape box = Shape::Box(V(0.1, 0.1, 0.1));
  // A: edge along x on top after rotating 45° about x; B: edge along y at the bottom after
  // rotating 45° about y. Edges cross at distance gap.
  const double e = 0.1 * std::sqrt(2.0);
  for (double gap : {0.003, -0.004}) {
    const auto X_A = Pose(V::Zero(), Rot(M_PI / 4, V::UnitX()));
    const auto X_B = Pose(V(0.01, 0.02, 2 * e + gap), Rot(M_PI / 4, V::UnitY()));
    auto c = Contacts(box, X_A, box, X_B);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].signed_distance_m, gap, 1e-9);
    EXPECT_LT((c[0].normal_W - V(0, 0, 1)).norm(), 1e-9);
    EXPECT_LT((c[0].p_A_W - V(0.01, 0, e)).norm(), 1e-9);
    EXPECT_LT((c[0].p_B_W - V(0.01, 0, e + gap)).norm(), 1e-9);
    auto r = Contacts(box, X_B, box, X_A);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_NEAR(r[0].signed_distance_m, gap, 1e-9);
    EXPECT_LT((r[0].normal_W - V(0, 0, -1)).norm(), 1e-9);
  }
}

TEST(BoxBox, SeparatedCornerToCornerIsExactDistance) {
  const Shape box = Shape::Box(V(0.1, 0.2, 0.3));
  const V offset = V(0.2, 0.4, 0.6) + V(0.003, 0.004, 0.0);  // corners 5 mm apart
  auto c = Contacts(box, Pose(V::Zero()), box, Pose(offset));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].signed_distance_m, 0.005, 1e-9);
  EXPECT_LT((c[0].p_A_W - V(0.1, 0.2, 0.3)).norm(), 1e-7);
  EXPECT_LT((c[0].normal_W - V(0.6, 0.8, 0)).norm(), 1e-7);
}

TEST(BoxBox, DeepPenetrationPicksShallowestAxis) {
  const Shape a = Shape::Box(V(0.5, 0.5, 0.5)), b = Shape::Box(V(0.1, 0.1, 0.1));
  // B inside A near the +y face.
  auto c = Contacts(a, Pose(V::Zero()), b, Pose(V(0.1, 0.45, 0.0), Rot(0.1, V::UnitY())));
  ASSERT_GE(c.size(), 4u);
  EXPECT_NEAR(MinDistance(c), -0.15, 1e-9);
  for (const auto& p : c) EXPECT_LT((p.normal_W - V(0, 1, 0)).norm(), 1e-12);
  // Coincident centres: finite, deterministic.
  auto d = Contacts(b, Pose(V::Zero()), b, Pose(V::Zero()));
  ASSERT_GE(d.size(), 4u);
  EXPECT_NEAR(MinDistance(d), -0.2, 1e-12);
  auto d2 = Contacts(b, Pose(V::Zero()), b, Pose(V::Zero()));
  ASSERT_EQ(d.size(), d2.size());
  for (size_t i = 0; i < d.size(); ++i) EXPECT_EQ(d[i].p_A_W, d2[i].p_A_W);
}

}  // namespace
}  // namespace contactlab
