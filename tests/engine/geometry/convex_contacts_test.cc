// GJK/EPA pairs (cylinder–box, cylinder–cylinder, cylinder–capsule, capsule–box) with known
// answers, and their multi-point manifolds for faces in contact.
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

TEST(CylinderBox, StandingOnBoxGivesPolygon) {
  const Shape box = Shape::Box(V(0.5, 0.5, 0.1)), cyl = Shape::Cylinder(0.1, 0.3);
  const auto X_box = Pose(V(0, 0, -0.1));
  for (double gap : {0.004, -0.002}) {
    const auto X_c = Pose(V(0.1, 0.2, 0.15 + gap), Rot(0.3, V::UnitZ()));
    for (bool flip : {false, true}) {
      auto c = flip ? Contacts(cyl, X_c, box, X_box) : Contacts(box, X_box, cyl, X_c);
      ASSERT_GE(c.size(), 4u) << gap;
      for (const auto& p : c) {
        EXPECT_NEAR(p.signed_distance_m, gap, 1e-9);
        EXPECT_LT((p.normal_W - (flip ? V(0, 0, -1) : V(0, 0, 1))).norm(), 1e-6);
        const V on_cyl = flip ? p.p_A_W : p.p_B_W;
        EXPECT_NEAR(on_cyl.z(), gap, 1e-9);
      }
    }
  }
}

TEST(CylinderBox, BoxOnCylinderCap) {
  const Shape box = Shape::Box(V(0.05, 0.05, 0.05)), cyl = Shape::Cylinder(0.2, 0.3);
  const auto X_c = Pose(V(0, 0, 0.15));
  const auto X_box = Pose(V(0.02, 0.03, 0.3 + 0.05 - 0.003), Rot(0.5, V::UnitZ()));
  auto c = Contacts(cyl, X_c, box, X_box);
  ASSERT_EQ(c.size(), 4u);
  for (const auto& p : c) EXPECT_NEAR(p.signed_distance_m, -0.003, 1e-9);
}

TEST(CylinderBox, LyingOnBoxGivesLineEnds) {
  const Shape box = Shape::Box(V(0.5, 0.5, 0.1)), cyl = Shape::Cylinder(0.1, 0.3);
  const auto X_c = Pose(V(0, 0, 0.1 + 0.1 - 0.002), Rot(M_PI / 2, V::UnitX()));
  auto c = Contacts(box, Pose(V::Zero()), cyl, X_c);
  ASSERT_EQ(c.size(), 2u);
  for (const auto& p : c) {
    EXPECT_NEAR(p.signed_distance_m, -0.002, 1e-7);
    EXPECT_NEAR(std::abs(p.p_B_W.y()), 0.15, 1e-6);
  }
}

TEST(CylinderCylinder, StackedCapsAndSideBySide) {
  const Shape cyl = Shape::Cylinder(0.1, 0.2);
  auto stacked =
      Contacts(cyl, Pose(V::Zero()), cyl, Pose(V(0.05, 0, 0.2 - 0.002), Rot(0.2, V::UnitZ())));
  ASSERT_GE(stacked.size(), 4u);
  for (const auto& p : stacked) EXPECT_NEAR(p.signed_distance_m, -0.002, 1e-9);
  // Parallel axes side by side: line contact, two points.
  auto side = Contacts(cyl, Pose(V::Zero()), cyl, Pose(V(0.2 + 0.003, 0, 0.05)));
  ASSERT_EQ(side.size(), 2u);
  for (const auto& p : side) {
    EXPECT_NEAR(p.signed_distance_m, 0.003, 1e-7);
    EXPECT_LT((p.normal_W - V(1, 0, 0)).norm(), 1e-6);
  }
  // Crossed axes, lying: one point, distance between the side lines.
  auto crossed = Contacts(cyl, Pose(V::Zero(), Rot(M_PI / 2, V::UnitX())), cyl,
                          Pose(V(0, 0, 0.2 - 0.005), Rot(M_PI / 2, V::UnitY())));
  ASSERT_EQ(crossed.size(), 1u);
  EXPECT_NEAR(crossed[0].signed_distance_m, -0.005, 1e-7);
  EXPECT_LT((crossed[0].normal_W - V(0, 0, 1)).norm(), 1e-6);
}

TEST(CylinderCapsule, CapsuleAcrossCapAndAlongSide) {
  const Shape cyl = Shape::Cylinder(0.2, 0.2), cap = Shape::Capsule(0.05, 0.2);
  // Capsule lying on the cap: two points at both end spheres.
  auto lying = Contacts(cyl, Pose(V::Zero()), cap,
                        Pose(V(0.02, 0, 0.1 + 0.05 - 0.004), Rot(M_PI / 2, V::UnitY())));
  ASSERT_EQ(lying.size(), 2u);
  for (const auto& p : lying) EXPECT_NEAR(p.signed_distance_m, -0.004, 1e-9);
  // Capsule standing on the cap: one point.
  auto standing = Contacts(cap, Pose(V(0.05, 0.02, 0.1 + 0.15 + 0.006)), cyl, Pose(V::Zero()));
  ASSERT_EQ(standing.size(), 1u);
  EXPECT_NEAR(standing[0].signed_distance_m, 0.006, 1e-9);
  EXPECT_LT((standing[0].normal_W - V(0, 0, -1)).norm(), 1e-6);
}

TEST(CapsuleBox, LyingStandingAndCorner) {
  const Shape box = Shape::Box(V(0.3, 0.3, 0.1)), cap = Shape::Capsule(0.05, 0.3);
  auto lying =
      Contacts(box, Pose(V::Zero()), cap, Pose(V(0, 0.1, 0.15 - 0.003), Rot(M_PI / 2, V::UnitY())));
  ASSERT_EQ(lying.size(), 2u);
  for (const auto& p : lying) {
    EXPECT_NEAR(p.signed_distance_m, -0.003, 1e-9);
    EXPECT_NEAR(std::abs(p.p_B_W.x()), 0.15, 1e-9);
  }
  auto standing = Contacts(cap, Pose(V(0.1, 0.1, 0.1 + 0.2 + 0.002)), box, Pose(V::Zero()));
  ASSERT_EQ(standing.size(), 1u);
  EXPECT_NEAR(standing[0].signed_distance_m, 0.002, 1e-9);
  // Capsule end sphere near a box corner: distance to the corner.
  const V corner(0.3, 0.3, 0.1), dir = V(1, 2, 2) / 3.0;
  auto c = Contacts(box, Pose(V::Zero()), cap,
                    Pose(corner + (0.05 + 0.004) * dir + 0.15 * dir,
                         Eigen::Quaterniond::FromTwoVectors(V::UnitZ(), dir).toRotationMatrix()));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].signed_distance_m, 0.004, 1e-8);
  EXPECT_LT((c[0].p_A_W - corner).norm(), 1e-6);
}

TEST(ConvexPairs, PenetrationDepthIsMinimalTranslation) {
  // Moving B by −φ along the normal must bring the pair to touching.
  const Shape cyl = Shape::Cylinder(0.1, 0.3), box = Shape::Box(V(0.1, 0.2, 0.15));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  for (int k = 0; k < 50; ++k) {
    const auto X_A = Pose(V::Zero(), testing::RandomRotation(rng));
    auto X_B = Pose(V(u(rng), u(rng), u(rng)), testing::RandomRotation(rng));
    std::vector<ContactPoint> c = Contacts(cyl, X_A, box, X_B);
    ASSERT_FALSE(c.empty());
    const ContactPoint* deepest = &c[0];
    for (const auto& p : c) {
      if (p.signed_distance_m < deepest->signed_distance_m) deepest = &p;
    }
    ASSERT_LT(deepest->signed_distance_m, 0.0);
    X_B.translation() -= deepest->signed_distance_m * deepest->normal_W;
    EXPECT_NEAR(SignedDistance(cyl, X_A, box, X_B), 0.0, 2e-5);
  }
}

}  // namespace
}  // namespace contactlab
