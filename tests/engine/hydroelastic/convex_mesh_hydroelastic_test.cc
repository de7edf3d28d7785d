// Hydroelastic representations of a convex mesh (ShapeType::kConvexMesh): the rigid surface is
// the hull, the compliant field the gauge of the hull about its vertex mean.
#include <gtest/gtest.h>

#include "engine/hydroelastic/contact_surface.h"
#include "engine/hydroelastic/hydroelastic_geometry.h"

namespace contactlab::hydroelastic {
namespace {

using V = Eigen::Vector3d;

Shape MeshCube(double h) {
  std::vector<V> corners;
  for (int i = 0; i < 8; ++i) {
    corners.push_back(V((i & 1) ? h : -h, (i & 2) ? h : -h, (i & 4) ? h : -h));
  }
  return Shape::ConvexMesh(corners);
}

TEST(ConvexMeshHydroelastic, RigidSurfaceIsTheHull) {
  const RigidGeometry rigid = MakeRigidGeometry(MeshCube(0.05), 0.01);
  EXPECT_FALSE(rigid.is_half_space);
  EXPECT_EQ(rigid.mesh.num_triangles(), 12);
  EXPECT_NEAR(rigid.mesh.EnclosedVolume(), 1e-3, 1e-15);
}

TEST(ConvexMeshHydroelastic, CompliantCubePressedIntoAPlaneHasTheGaugePressure) {
  // Cube of half side h pressed δ into the half-space z ≤ 0. The field is the cube's gauge:
  // ε = 1 − max(|x|, |y|, |z|)/h, so on the contact plane z = −(h − δ) (in the cube's frame)
  // p = E_h (1 − max(|x|, |y|, h − δ)/h); the net force is
  // E_h [ (δ/h)(2(h − δ))² + ∫_{h−δ}^{h} 8 r (1 − r/h) dr ].
  constexpr double h = 0.05, delta = 0.002, E = 1e6;
  const Shape cube = MeshCube(h);
  EXPECT_EQ(ConvexMeshShells(cube, 0.01), 5);
  const CompliantGeometry compliant = MakeCompliantGeometry(cube, E, 0.01);
  EXPECT_NEAR(compliant.mesh.TotalVolume(), 8 * h * h * h, 1e-15);
  const RigidGeometry ground = MakeRigidGeometry(Shape::HalfSpace(), 0.0);
  Eigen::Isometry3d X_WA = Eigen::Isometry3d::Identity();
  X_WA.translation() = V(0.1, -0.2, h - delta);
  ContactSurfaceScratch scratch;
  ContactSurface surface;
  ComputeContactSurface(compliant, X_WA, ground, Eigen::Isometry3d::Identity(), &scratch, &surface);
  ASSERT_FALSE(surface.empty());
  EXPECT_NEAR(surface.TotalArea_m2(), 4 * h * h, 1e-12);
  const double a = h - delta;
  const double ring = 8 * ((h * h - a * a) / 2 - (h * h * h - a * a * a) / (3 * h));
  const double expected = E * (delta / h * 4 * a * a + ring);
  const V f = surface.NetForceOnB_W();
  // A is the cube, B the ground: the ground is pushed down.
  EXPECT_NEAR(f.z(), -expected, 1e-9 * expected);
  EXPECT_NEAR(f.head<2>().norm(), 0.0, 1e-9 * expected);
}

}  // namespace
}  // namespace contactlab::hydroelastic
