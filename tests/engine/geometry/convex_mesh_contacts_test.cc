// Convex meshes in the narrow phase: a mesh cube must behave exactly like the box of the same
// size, and a tetrahedron like its known geometry.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "geometry_test_utils.h"
#include "test_support/poses.h"

namespace contactlab {
namespace {

using testing::Contacts;
using testing::MinDistance;
using testing::Pose;
using testing::RandomRotation;
using testing::Rot;
using V = Eigen::Vector3d;

Shape MeshBox(const V& h) {
  std::vector<V> corners;
  for (int i = 0; i < 8; ++i) {
    corners.push_back(
        V((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z()));
  }
  return Shape::ConvexMesh(corners);
}

// Contacts sorted by their midpoint, to compare two manifolds as sets.
std::vector<ContactPoint> Sorted(std::vector<ContactPoint> c) {
  std::sort(c.begin(), c.end(), [](const ContactPoint& a, const ContactPoint& b) {
    const V pa = a.Midpoint(), pb = b.Midpoint();
    return std::lexicographical_compare(pa.data(), pa.data() + 3, pb.data(), pb.data() + 3);
  });
  return c;
}

void ExpectSameContacts(const std::vector<ContactPoint>& a, const std::vector<ContactPoint>& b,
                        double tol) {
  ASSERT_EQ(a.size(), b.size());
  const auto sa = Sorted(a), sb = Sorted(b);
  for (size_t i = 0; i < sa.size(); ++i) {
    EXPECT_NEAR(sa[i].signed_distance_m, sb[i].signed_distance_m, tol);
    EXPECT_LT((sa[i].normal_W - sb[i].normal_W).norm(), tol);
    EXPECT_LT((sa[i].p_A_W - sb[i].p_A_W).norm(), tol);
    EXPECT_LT((sa[i].p_B_W - sb[i].p_B_W).norm(), tol);
  }
}

TEST(ConvexMesh, AabbIsTheBoxAabb) {
  const V h(0.1, 0.2, 0.05);
  const auto X = Pose(V(0.3, -0.1, 0.2), Rot(0.6, V(1, 2, -1)));
  const Aabb a = ComputeAabb(MeshBox(h), X, 0.01), b = ComputeAabb(Shape::Box(h), X, 0.01);
  EXPECT_LT((a.lower - b.lower).norm(), 1e-15);
  EXPECT_LT((a.upper - b.upper).norm(), 1e-15);
}

TEST(ConvexMesh, CubeOnHalfSpaceMatchesTheBox) {
  const V h(0.2, 0.1, 0.05);
  const Shape mesh = MeshBox(h), box = Shape::Box(h), hs = Shape::HalfSpace();
  const Eigen::Isometry3d X_WH = Pose(V(0.3, -0.2, 0.1), Rot(0.4, V(1, -0.5, 0.2)));
  // Resting (4 corners at 2 mm), tilted onto an edge, on a vertex, and above the plane.
  const std::vector<Eigen::Isometry3d> poses = {
      X_WH * Pose(V(0.1, 0.1, 0.05 - 0.002), Rot(0.3, V::UnitZ())),
      X_WH * Pose(V(0.0, 0.1, 0.1), Rot(0.5, V::UnitX())),
      X_WH * Pose(V(0.0, 0.0, 0.2), Rot(0.5, V(1, 1, 0.3))),
      X_WH * Pose(V(0.0, 0.0, 0.055), Rot(0.01, V(0.2, 1, 0))),
  };
  for (const auto& X_WB : poses) {
    for (const bool flip : {false, true}) {
      const auto m = flip ? Contacts(mesh, X_WB, hs, X_WH) : Contacts(hs, X_WH, mesh, X_WB);
      const auto b = flip ? Contacts(box, X_WB, hs, X_WH) : Contacts(hs, X_WH, box, X_WB);
      ExpectSameContacts(m, b, 1e-9);
    }
  }
  // The resting case has its 4 bottom corners.
  EXPECT_EQ(Contacts(hs, X_WH, mesh, poses[0]).size(), 4u);
}

TEST(ConvexMesh, TetrahedronOnAPlane) {
  // Regular-ish tetrahedron: base triangle at z = 0 of G, apex at z = 0.3.
  const Shape tet =
      Shape::ConvexMesh({V(0.1, 0, 0), V(-0.05, 0.0866, 0), V(-0.05, -0.0866, 0), V(0, 0, 0.3)});
  const Shape hs = Shape::HalfSpace();
  // Base down, 1 mm into the ground: 3 points at −1 mm, normal +z.
  {
    const auto c = Contacts(hs, Pose(V::Zero()), tet, Pose(V(0.2, 0.1, -0.001)));
    ASSERT_EQ(c.size(), 3u);
    for (const auto& p : c) {
      EXPECT_NEAR(p.signed_distance_m, -0.001, 1e-15);
      EXPECT_LT((p.normal_W - V::UnitZ()).norm(), 1e-15);
      EXPECT_NEAR(p.p_A_W.z(), 0.0, 1e-15);
    }
  }
  // Apex down (flipped about x), apex 2 mm deep: one point at the apex.
  {
    const auto X = Pose(V(0, 0, 0.3 - 0.002), Rot(std::numbers::pi, V::UnitX()));
    const auto c = Contacts(hs, Pose(V::Zero()), tet, X);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NEAR(c[0].signed_distance_m, -0.002, 1e-15);
    EXPECT_LT((c[0].p_B_W - X * V(0, 0, 0.3)).norm(), 1e-15);
  }
  // Tetrahedron base on a box top (GJK/EPA + face clipping): the 3 base corners.
  {
    const Shape box = Shape::Box(V(0.5, 0.5, 0.1));
    const auto c = Contacts(box, Pose(V(0, 0, -0.1)), tet, Pose(V(0.01, 0.02, -0.001)));
    ASSERT_EQ(c.size(), 3u);
    for (const auto& p : c) {
      EXPECT_NEAR(p.signed_distance_m, -0.001, 1e-9);
      EXPECT_LT((p.normal_W - V::UnitZ()).norm(), 1e-9);
    }
  }
}

TEST(ConvexMesh, CubeSphereIsTheBoxSphereDistance) {
  const V h(0.1, 0.15, 0.05);
  const Shape mesh = MeshBox(h), box = Shape::Box(h), sphere = Shape::Sphere(0.04);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.25, 0.25);
  int touching = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto X_A = Pose(V(u(rng), u(rng), u(rng)), RandomRotation(rng));
    // Sphere centres outside the box, near its faces, edges and corners, and some inside.
    const auto X_B = Pose(X_A * V(u(rng), u(rng), u(rng)));
    const auto b = Contacts(box, X_A, sphere, X_B, 1.0);
    const auto m = Contacts(mesh, X_A, sphere, X_B, 1.0);
    ASSERT_EQ(b.size(), 1u);
    ASSERT_FALSE(m.empty());
    EXPECT_NEAR(MinDistance(m), b[0].signed_distance_m, 1e-8) << "trial " << trial;
    if (b[0].signed_distance_m < 0) ++touching;
    // Reverse order: the normal flips.
    const auto r = Contacts(sphere, X_B, mesh, X_A, 1.0);
    EXPECT_NEAR(MinDistance(r), b[0].signed_distance_m, 1e-8);
  }
  EXPECT_GT(touching, 10);
}

TEST(ConvexMesh, CubeOnBoxAndBoxOnCubeGiveTheBoxBoxManifold) {
  const V h(0.05, 0.05, 0.05);
  const Shape mesh = MeshBox(h), box = Shape::Box(h);
  const Shape base = Shape::Box(V(0.3, 0.3, 0.1));
  const auto X_base = Pose(V(0, 0, -0.1));
  const auto X_top = Pose(V(0.02, -0.01, 0.05 - 0.001), Rot(0.3, V::UnitZ()));
  const auto with_mesh = Contacts(base, X_base, mesh, X_top);
  const auto with_box = Contacts(base, X_base, box, X_top);
  ASSERT_EQ(with_mesh.size(), 4u);
  EXPECT_EQ(with_box.size(), 4u);
  for (const auto& c : with_mesh) {
    EXPECT_NEAR(c.signed_distance_m, -0.001, 1e-9);
    EXPECT_LT((c.normal_W - V::UnitZ()).norm(), 1e-9);
  }
  // Mesh on mesh too.
  const auto both = Contacts(MeshBox(V(0.3, 0.3, 0.1)), X_base, mesh, X_top);
  ASSERT_EQ(both.size(), 4u);
  for (const auto& c : both) EXPECT_NEAR(c.signed_distance_m, -0.001, 1e-9);
}

TEST(ConvexMesh, SignedDistanceToOtherShapesIsTheBoxs) {
  const Shape mesh = MeshBox(V(0.1, 0.06, 0.04));
  std::mt19937 rng(5);
  for (const Shape& other :
       {Shape::Capsule(0.03, 0.1), Shape::Cylinder(0.05, 0.08), Shape::Box(V(0.05, 0.04, 0.03))}) {
    for (int trial = 0; trial < 10; ++trial) {
      const auto X_A = Pose(V::Zero(), RandomRotation(rng));
      const V dir = RandomRotation(rng).col(0);
      const auto X_B = Pose(0.25 * dir, RandomRotation(rng));
      const double d = SignedDistance(mesh, X_A, other, X_B);
      const double ref = SignedDistance(Shape::Box(V(0.1, 0.06, 0.04)), X_A, other, X_B);
      EXPECT_NEAR(d, ref, 1e-7) << ShapeTypeName(other.type) << " trial " << trial;
    }
  }
}

}  // namespace
}  // namespace contactlab
