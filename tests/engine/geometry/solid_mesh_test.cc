// Solid meshes (engine/geometry/solid_mesh.h): a closed, oriented surface is accepted with the
// mass properties of its solid (a unit cube: volume 1, inertia 1/6 at unit density) and its
// convexity; each defect is named.
#include "engine/geometry/solid_mesh.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace contactlab {
namespace {

using Eigen::Vector3d;
using Triangles = std::vector<std::array<int, 3>>;

std::vector<Vector3d> CubeVertices() {
  std::vector<Vector3d> v;
  for (int i = 0; i < 8; ++i) v.emplace_back(i & 1, (i >> 1) & 1, (i >> 2) & 1);
  return v;
}
const Triangles kCube = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                         {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};

TEST(SolidMesh, AUnitCubeHasItsMassPropertiesAndIsConvex) {
  const SolidMesh cube = MakeSolidMesh(CubeVertices(), kCube);
  EXPECT_NEAR(cube.mass.volume_m3, 1.0, 1e-15);
  EXPECT_TRUE(cube.mass.centroid_G.isApprox(Vector3d::Constant(0.5), 1e-15));
  EXPECT_TRUE(cube.mass.unit_density_inertia.isApprox(Eigen::Matrix3d::Identity() / 6, 1e-14));
  EXPECT_TRUE(cube.convex);
  // A dent: the top face's centre pushed down makes it non-convex, and lighter by the pyramid.
  std::vector<Vector3d> v = CubeVertices();
  v.emplace_back(0.5, 0.5, 0.5);
  const Triangles dented = {{0, 2, 3}, {0, 3, 1}, {4, 5, 8}, {5, 7, 8}, {7, 6, 8},
                            {6, 4, 8}, {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                            {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  const SolidMesh dent = MakeSolidMesh(v, dented);
  EXPECT_NEAR(dent.mass.volume_m3, 1.0 - 1.0 / 6, 1e-15);
  EXPECT_FALSE(dent.convex);
}

// A square pyramid (base side a, height h): its vertex mean is h/5 above the base, its
// centroid h/4; about the centroid I_xx = I_yy = m (a²/20 + 3h²/80), I_zz = m a²/10.
TEST(SolidMesh, ASquarePyramidHasItsCentroidAQuarterUpAndThePyramidInertia) {
  const double a = 0.3, h = 0.2;
  const Vector3d base_centre(-0.2, 0.1, 0.5);
  std::vector<Vector3d> v = {Vector3d(-a / 2, -a / 2, 0), Vector3d(a / 2, -a / 2, 0),
                             Vector3d(a / 2, a / 2, 0), Vector3d(-a / 2, a / 2, 0),
                             Vector3d(0, 0, h)};
  for (Vector3d& x : v) x += base_centre;
  const SolidMesh pyramid =
      MakeSolidMesh(v, {{0, 2, 1}, {0, 3, 2}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}});
  const double m = a * a * h / 3;  // unit density
  const Eigen::Matrix3d I =
      (m * Vector3d(a * a / 20 + 3 * h * h / 80, a * a / 20 + 3 * h * h / 80, a * a / 10))
          .asDiagonal();
  EXPECT_NEAR(pyramid.mass.volume_m3, m, 1e-15 * m);
  EXPECT_LT((pyramid.mass.centroid_G - (base_centre + Vector3d(0, 0, h / 4))).norm(), 1e-15);
  EXPECT_LT((pyramid.mass.unit_density_inertia - I).norm(), 1e-13 * I.norm())
      << pyramid.mass.unit_density_inertia;
  EXPECT_TRUE(pyramid.convex);
}

// Convexity (SolidMesh::convex): a closed surface is convex when it is its own hull, up to
// δ = 1e-5 of the hull's half size (MakeSolidMesh): no vertex deeper than δ below the hull's
// faces, and no volume short of the hull's by more than δ times its area.
//
// A unit cube's top face split into four triangles about its centre vertex c (a fan), with c at
// depth d below the top: the hull is the cube either way (δ = 1e-5 × 0.5 = 5e-6 m); the dent's
// volume d/3 stays far below δ × 6 m² so only the vertex's depth decides.
SolidMesh CubeWithTopCentreAtDepth(double depth_m) {
  std::vector<Vector3d> v = CubeVertices();
  v.emplace_back(0.5, 0.5, 1.0 - depth_m);
  return MakeSolidMesh(v, {{0, 2, 3},
                           {0, 3, 1},
                           {4, 5, 8},
                           {5, 7, 8},
                           {7, 6, 8},
                           {6, 4, 8},
                           {0, 1, 5},
                           {0, 5, 4},
                           {2, 6, 7},
                           {2, 7, 3},
                           {0, 4, 6},
                           {0, 6, 2},
                           {1, 3, 7},
                           {1, 7, 5}});
}

TEST(SolidMesh, AFlatOrBarelyDentedFaceIsConvexADentDeeperThanTheToleranceIsNot) {
  const double delta = 1e-5 * 0.5;
  EXPECT_TRUE(CubeWithTopCentreAtDepth(0.0).convex);  // a coplanar vertex: the cube itself
  EXPECT_TRUE(CubeWithTopCentreAtDepth(0.5 * delta).convex);
  EXPECT_FALSE(CubeWithTopCentreAtDepth(2 * delta).convex);
  EXPECT_FALSE(CubeWithTopCentreAtDepth(0.1).convex);
}

// An L-shaped prism (three unit squares' L, 1 m deep in z): every vertex lies on the hull's
// surface (the inner corner's two on its caps), but the hull also holds the half square across
// the inner corner, 3.5 m³ against 3 m³: the volume check decides.
TEST(SolidMesh, AnLShapedPrismIsNotConvex) {
  // The L in z = 0, counterclockwise: (0,0) (2,0) (2,1) (1,1) (1,2) (0,2); then z = 1.
  const std::vector<Vector3d> outline = {Vector3d(0, 0, 0), Vector3d(2, 0, 0), Vector3d(2, 1, 0),
                                         Vector3d(1, 1, 0), Vector3d(1, 2, 0), Vector3d(0, 2, 0)};
  std::vector<Vector3d> v = outline;
  for (const Vector3d& x : outline) v.push_back(x + Vector3d::UnitZ());
  // Bottom (clockwise seen from above: outward) and top caps, fans from the corner at the
  // origin, which sees the whole L.
  Triangles t = {{0, 2, 1}, {0, 3, 2}, {0, 4, 3},  {0, 5, 4},     // bottom
                 {6, 7, 8}, {6, 8, 9}, {6, 9, 10}, {6, 10, 11}};  // top
  for (int i = 0; i < 6; ++i) {
    const int j = (i + 1) % 6;
    t.push_back({i, j, j + 6});
    t.push_back({i, j + 6, i + 6});
  }
  const SolidMesh l = MakeSolidMesh(v, t);
  EXPECT_NEAR(l.mass.volume_m3, 3.0, 1e-14);
  EXPECT_NEAR(l.hull->mass.volume_m3, 3.5, 1e-14);
  EXPECT_FALSE(l.convex);
}

// A box 1 m × 1 m × 1 m whose top corners alternate between z = 1 and z = 1.2: every vertex is a
// vertex of the hull, which roofs the top along the high diagonal (a ridge). The same corners
// roofed along the low diagonal (a valley) are not convex — no vertex lies inside the hull; the
// hull is larger by the tetrahedron between the two roofs, 0.4/6 m³.
SolidMesh BoxWithRoof(bool ridge) {
  std::vector<Vector3d> v = CubeVertices();
  v[5].z() = 1.2;  // (1, 0, 1.2)
  v[6].z() = 1.2;  // (0, 1, 1.2)
  Triangles t = kCube;
  // kCube's top is {4, 5, 7}, {4, 7, 6}: split along 4–7, the low diagonal.
  if (ridge) {
    t[2] = {4, 5, 6};
    t[3] = {5, 7, 6};
  }
  return MakeSolidMesh(v, t);
}

TEST(SolidMesh, ARidgedRoofIsConvexAValleyRoofOfTheSameCornersIsNot) {
  const SolidMesh ridge = BoxWithRoof(true), valley = BoxWithRoof(false);
  EXPECT_NEAR(ridge.mass.volume_m3, ridge.hull->mass.volume_m3, 1e-14);
  EXPECT_TRUE(ridge.convex);
  EXPECT_NEAR(valley.hull->mass.volume_m3 - valley.mass.volume_m3, 0.4 / 6, 1e-14);
  EXPECT_EQ(valley.hull->num_vertices(), 8);
  EXPECT_FALSE(valley.convex);
}

std::string Defect(const std::vector<Vector3d>& v, const Triangles& t) {
  return DescribeMeshDefect(v, t).value_or("");
}

TEST(SolidMesh, EachDefectIsNamed) {
  const std::vector<Vector3d> v = CubeVertices();
  EXPECT_EQ(Defect(v, kCube), "");
  Triangles open = kCube;
  open.pop_back();
  EXPECT_EQ(Defect(v, open).rfind("is open: 3 edges", 0), 0u) << Defect(v, open);
  Triangles inside_out = kCube;
  for (auto& t : inside_out) std::swap(t[1], t[2]);
  EXPECT_EQ(Defect(v, inside_out).rfind("is inside-out", 0), 0u);
  Triangles flipped = kCube;
  std::swap(flipped[0][1], flipped[0][2]);
  EXPECT_EQ(Defect(v, flipped).rfind("is not consistently oriented", 0), 0u);
  Triangles fin = kCube;
  std::vector<Vector3d> w = v;
  w.emplace_back(2, 0, 0);
  fin.push_back({1, 3, 8});
  fin.push_back({3, 1, 8});
  EXPECT_EQ(Defect(w, fin).rfind("is not a manifold", 0), 0u) << Defect(w, fin);
  Triangles sliver = kCube;
  sliver.push_back({0, 1, 1});
  EXPECT_EQ(Defect(v, sliver).rfind("has 1 degenerate", 0), 0u);
  EXPECT_EQ(Defect(v, {{0, 1, 9}, {0, 1, 2}, {0, 2, 3}, {1, 2, 3}})
                .rfind("has a triangle with "
                       "vertex index 9",
                       0),
            0u);
  w[8] = Vector3d(std::nan(""), 0, 0);
  EXPECT_EQ(Defect(w, kCube), "has a non-finite vertex");
  EXPECT_THROW(MakeSolidMesh(v, open), std::invalid_argument);
}

}  // namespace
}  // namespace contactlab
