// Tessellated primitives: closed, outward-wound, with unit normals and the shape's bounds.
#include "render/primitive_meshes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace contactlab {
namespace {

// Checks unit normals, valid indices and outward winding (face normal · (centroid − origin)
// ≥ 0 for shapes that are star-shaped about their origin).
void ExpectWellFormed(const TriangleMesh& mesh, const std::string& what) {
  ASSERT_GT(mesh.num_triangles(), 0) << what;
  ASSERT_EQ(mesh.positions.size(), mesh.normals.size()) << what;
  for (const Eigen::Vector3f& n : mesh.normals) EXPECT_NEAR(n.norm(), 1.0f, 1e-4f) << what;
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    const Eigen::Vector3f& a = mesh.positions[mesh.indices[3 * t]];
    const Eigen::Vector3f& b = mesh.positions[mesh.indices[3 * t + 1]];
    const Eigen::Vector3f& c = mesh.positions[mesh.indices[3 * t + 2]];
    const Eigen::Vector3f cross = (b - a).cross(c - a);
    if (cross.norm() < 1e-9f) continue;  // pole triangles of a sphere collapse
    EXPECT_GE(cross.dot((a + b + c) / 3.0f), -1e-6f) << what << " triangle " << t;
  }
}

// A closed surface: every edge is shared by exactly two triangles in opposite directions, once
// vertices at the same position are merged (seams and caps duplicate positions).
void ExpectClosed(const TriangleMesh& mesh, const std::string& what) {
  std::map<std::tuple<int, int, int>, int> ids;
  auto id = [&](uint32_t v) {
    const Eigen::Vector3f& p = mesh.positions[v];
    const auto key = std::make_tuple(static_cast<int>(std::lround(p.x() * 1e5f)),
                                     static_cast<int>(std::lround(p.y() * 1e5f)),
                                     static_cast<int>(std::lround(p.z() * 1e5f)));
    return ids.emplace(key, static_cast<int>(ids.size())).first->second;
  };
  std::map<std::pair<int, int>, int> directed;
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    int v[3];
    for (int k = 0; k < 3; ++k) v[k] = id(mesh.indices[3 * t + k]);
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) continue;
    for (int k = 0; k < 3; ++k) ++directed[{v[k], v[(k + 1) % 3]}];
  }
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1) << what;
    EXPECT_EQ(directed.count({edge.second, edge.first}), 1u) << what << " open edge";
  }
}

TEST(PrimitiveMeshes, SphereBoxCylinderCapsuleAreClosedWithShapeBounds) {
  const TriangleMesh sphere = MakeShapeMesh(Shape::Sphere(0.1));
  ExpectWellFormed(sphere, "sphere");
  ExpectClosed(sphere, "sphere");
  EXPECT_TRUE(sphere.upper_bound().isApprox(Eigen::Vector3f(0.1f, 0.1f, 0.1f), 1e-2f));

  const TriangleMesh box = MakeShapeMesh(Shape::Box(Eigen::Vector3d(0.1, 0.2, 0.3)));
  ExpectWellFormed(box, "box");
  ExpectClosed(box, "box");
  EXPECT_EQ(box.num_triangles(), 12);
  EXPECT_TRUE(box.lower_bound().isApprox(Eigen::Vector3f(-0.1f, -0.2f, -0.3f)));
  EXPECT_TRUE(box.upper_bound().isApprox(Eigen::Vector3f(0.1f, 0.2f, 0.3f)));

  const TriangleMesh cylinder = MakeShapeMesh(Shape::Cylinder(0.05, 0.4));
  ExpectWellFormed(cylinder, "cylinder");
  ExpectClosed(cylinder, "cylinder");
  EXPECT_NEAR(cylinder.upper_bound().z(), 0.2f, 1e-6f);
  EXPECT_NEAR(cylinder.lower_bound().z(), -0.2f, 1e-6f);
  EXPECT_NEAR(cylinder.upper_bound().x(), 0.05f, 1e-6f);

  const TriangleMesh capsule = MakeShapeMesh(Shape::Capsule(0.05, 0.4));
  ExpectWellFormed(capsule, "capsule");
  ExpectClosed(capsule, "capsule");
  EXPECT_NEAR(capsule.upper_bound().z(), 0.25f, 1e-6f);  // length/2 + radius
  EXPECT_NEAR(capsule.lower_bound().z(), -0.25f, 1e-6f);

  const TriangleMesh cone = MakeConeMesh(1.0f, 1.0f);
  ExpectClosed(cone, "cone");

  EXPECT_THROW(MakeShapeMesh(Shape::HalfSpace()), std::invalid_argument);
}

TEST(PrimitiveMeshes, ConvexMeshIsItsHullWithFlatNormals) {
  // A box of half extents (0.1, 0.2, 0.3) as a convex mesh: 12 triangles, each with the normal
  // of its face (an axis) at all three corners, and the box's bounds.
  std::vector<Eigen::Vector3d> corners;
  for (int i = 0; i < 8; ++i) {
    corners.emplace_back((i & 1) ? 0.1 : -0.1, (i & 2) ? 0.2 : -0.2, (i & 4) ? 0.3 : -0.3);
  }
  const TriangleMesh mesh = MakeShapeMesh(Shape::ConvexMesh(corners));
  ExpectWellFormed(mesh, "convex mesh");
  ExpectClosed(mesh, "convex mesh");
  EXPECT_EQ(mesh.num_triangles(), 12);
  EXPECT_TRUE(mesh.lower_bound().isApprox(Eigen::Vector3f(-0.1f, -0.2f, -0.3f)));
  EXPECT_TRUE(mesh.upper_bound().isApprox(Eigen::Vector3f(0.1f, 0.2f, 0.3f)));
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    const Eigen::Vector3f& n = mesh.normals[mesh.indices[3 * t]];
    EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1.0f, 1e-6f);
    const Eigen::Vector3f& a = mesh.positions[mesh.indices[3 * t]];
    const Eigen::Vector3f& b = mesh.positions[mesh.indices[3 * t + 1]];
    const Eigen::Vector3f& c = mesh.positions[mesh.indices[3 * t + 2]];
    EXPECT_GT((b - a).cross(c - a).normalized().dot(n), 0.999f);
    for (int k = 1; k < 3; ++k) EXPECT_EQ(mesh.normals[mesh.indices[3 * t + k]], n);
  }
}

TEST(PrimitiveMeshes, VisualMeshKeepsCreasesSharpAndPrimitivesAsShapes) {
  // A cube as a visual mesh (8 shared vertices): every corner turns 54.7° from the averaged
  // normal, beyond the crease angle, so each triangle gets its face normal (flat, like a box).
  auto cube = std::make_shared<VisualMesh>();
  for (int i = 0; i < 8; ++i) {
    cube->vertices_m.emplace_back((i & 1) ? 0.1 : -0.1, (i & 2) ? 0.1 : -0.1, (i & 4) ? 0.1 : -0.1);
  }
  const ConvexPolyhedron hull = ComputeConvexHull(cube->vertices_m);
  cube->vertices_m = hull.vertices_G;
  cube->triangles = hull.triangles;
  VisualSpec visual;
  visual.mesh = cube;
  const TriangleMesh mesh = MakeVisualMesh(visual);
  ExpectWellFormed(mesh, "visual cube");
  ExpectClosed(mesh, "visual cube");
  EXPECT_EQ(mesh.num_triangles(), 12);
  for (const Eigen::Vector3f& n : mesh.normals) EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1.0f, 1e-6f);
  // A fine sphere-like shell shares its vertices (smooth normals: one GPU vertex per vertex).
  std::vector<Eigen::Vector3d> sphere_points;
  for (int i = 0; i < 200; ++i) {
    const double z = -1 + (2.0 * i + 1) / 200, phi = 2.399963 * i;
    const double r = std::sqrt(1 - z * z);
    sphere_points.emplace_back(r * std::cos(phi), r * std::sin(phi), z);
  }
  const ConvexPolyhedron ball = ComputeConvexHull(sphere_points);
  auto shell = std::make_shared<VisualMesh>();
  shell->vertices_m = ball.vertices_G;
  shell->triangles = ball.triangles;
  visual.mesh = shell;
  const TriangleMesh smooth = MakeVisualMesh(visual);
  ExpectWellFormed(smooth, "visual sphere");
  EXPECT_EQ(smooth.num_vertices(), 200);
  for (int v = 0; v < smooth.num_vertices(); ++v) {
    EXPECT_GT(smooth.normals[v].dot(smooth.positions[v].normalized()), 0.99f);
  }
  // A primitive visual is its shape's mesh.
  VisualSpec sphere;
  sphere.shape = Shape::Sphere(0.1);
  EXPECT_EQ(MakeVisualMesh(sphere).num_triangles(),
            MakeShapeMesh(Shape::Sphere(0.1)).num_triangles());
}

// How far inside a sphere of radius r its mesh reaches: r minus the least distance from the
// centre to a facet's plane (the facets are near-square, their planes' feet inside them).
double DeepestFacet(const TriangleMesh& mesh, double r) {
  double least = r;
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    const Eigen::Vector3d a = mesh.positions[mesh.indices[3 * t]].cast<double>();
    const Eigen::Vector3d b = mesh.positions[mesh.indices[3 * t + 1]].cast<double>();
    const Eigen::Vector3d c = mesh.positions[mesh.indices[3 * t + 2]].cast<double>();
    const Eigen::Vector3d n = (b - a).cross(c - a);
    if (n.norm() < 1e-9 * r * r) continue;  // collapsed pole triangles
    least = std::min(least, std::abs(n.normalized().dot(a)));
  }
  return r - least;
}

// A sphere of r pixels on screen, at the level DetailLevelFor picks, lies within a pixel of
// the true sphere (up to 80 px; the finest level beyond), and the next coarser level would not
// (its deepest facet beyond 0.9 px: the levels' bound r sin²(π/n) is a little conservative).
TEST(PrimitiveMeshes, DetailLevelKeepsTheFacetsWithinAPixel) {
  int previous_level = kNumDetailLevels - 1;
  for (double r_px = 1; r_px <= 120; r_px += 0.5) {
    SCOPED_TRACE(r_px);
    const int level = DetailLevelFor(static_cast<float>(r_px));
    EXPECT_LE(level, previous_level);  // finer as the sphere grows
    previous_level = level;
    const Shape sphere = Shape::Sphere(r_px);  // in pixels: the mesh's error is in pixels too
    if (r_px <= 80) {
      EXPECT_LE(DeepestFacet(MakeShapeMesh(sphere, level), r_px), 1.0 + 1e-4);
    }
    if (level + 1 < kNumDetailLevels) {
      EXPECT_GT(DeepestFacet(MakeShapeMesh(sphere, level + 1), r_px), 0.9);
    }
  }
  EXPECT_EQ(DetailLevelFor(1000.0f), 0);
  EXPECT_EQ(DetailLevelFor(1.0f), kNumDetailLevels - 1);
  // Level 0 is the tessellation drawn before levels existed; flat shapes have one.
  EXPECT_EQ(MakeShapeMesh(Shape::Sphere(1.0), 0).num_triangles(),
            MakeSphereMesh(1.0f).num_triangles());
  EXPECT_FALSE(HasDetailLevels(Shape::Box(Eigen::Vector3d::Ones())));
  for (int level = 0; level < kNumDetailLevels; ++level) {
    ExpectWellFormed(MakeShapeMesh(Shape::Capsule(0.1, 0.3), level), "capsule");
    ExpectClosed(MakeShapeMesh(Shape::Cylinder(0.1, 0.3), level), "cylinder");
  }
}

}  // namespace
}  // namespace contactlab
