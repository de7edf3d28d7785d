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
