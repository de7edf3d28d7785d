// Rigid faces (docs/contact-model.md §5): the coplanar triangles of a surface mesh merged into
// convex polygons must partition the surface exactly — every triangle in one face, each face
// planar, strictly convex and of at most kMaxCorners corners.
#include "engine/hydroelastic/rigid_faces.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace contactlab::hydroelastic {
namespace {

using V = Eigen::Vector3d;

double FaceArea(const TriangleSurfaceMesh& mesh, const RigidFace& f) {
  V twice = V::Zero();
  const V& o = mesh.vertices_m[f.corners[0]];
  for (int i = 1; i + 1 < f.num_corners; ++i) {
    twice += (mesh.vertices_m[f.corners[i]] - o).cross(mesh.vertices_m[f.corners[i + 1]] - o);
  }
  return 0.5 * twice.dot(f.normal);
}

// Strictly inside the face's prism (in-plane edge tests against the outward edge normals).
bool Inside(const TriangleSurfaceMesh& mesh, const RigidFace& f, const V& p) {
  for (int i = 0; i < f.num_corners; ++i) {
    const V& a = mesh.vertices_m[f.corners[i]];
    const V& b = mesh.vertices_m[f.corners[(i + 1) % f.num_corners]];
    if (!((b - a).cross(f.normal).dot(p - a) < -1e-12 * (b - a).norm())) return false;
  }
  return std::abs(f.normal.dot(p - mesh.vertices_m[f.corners[0]])) < 1e-12;
}

void ExpectPartition(const TriangleSurfaceMesh& mesh, const std::vector<RigidFace>& faces) {
  double area = 0;
  for (const RigidFace& f : faces) {
    ASSERT_GE(f.num_corners, 3);
    ASSERT_LE(f.num_corners, RigidFace::kMaxCorners);
    EXPECT_NEAR(f.normal.norm(), 1.0, 1e-12);
    const auto x = [&](int i) -> const V& {
      return mesh.vertices_m[f.corners[(i + f.num_corners) % f.num_corners]];
    };
    for (int i = 0; i < f.num_corners; ++i) {
      EXPECT_NEAR(f.normal.dot(x(i) - x(0)), 0.0, 1e-12);                      // planar
      EXPECT_GT((x(i) - x(i - 1)).cross(x(i + 1) - x(i)).dot(f.normal), 0.0);  // convex
    }
    for (int i = f.num_corners; i < RigidFace::kMaxCorners; ++i) {
      EXPECT_EQ(f.corners[i], f.corners[0]);
    }
    area += FaceArea(mesh, f);
  }
  EXPECT_NEAR(area, mesh.TotalArea(), 1e-12 * mesh.TotalArea());
  // Every triangle's centroid lies in exactly one face, of the triangle's normal.
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    const auto& k = mesh.triangles[t];
    const V c = (mesh.vertices_m[k[0]] + mesh.vertices_m[k[1]] + mesh.vertices_m[k[2]]) / 3;
    int holders = 0;
    for (const RigidFace& f : faces) {
      if (!Inside(mesh, f, c)) continue;
      ++holders;
      EXPECT_LT((f.normal - mesh.FaceNormal(t)).norm(), 1e-12) << "triangle " << t;
    }
    EXPECT_EQ(holders, 1) << "triangle " << t;
  }
}

TEST(RigidFaces, ABoxIsSixQuadsAtAnyResolution) {
  for (double edge : {1.0, 0.05, 0.013}) {
    SCOPED_TRACE(edge);
    const TriangleSurfaceMesh mesh = MakeBoxSurfaceMesh(V(0.1, 0.15, 0.05), edge);
    const auto faces = MergeCoplanarTriangles(mesh);
    ASSERT_EQ(faces.size(), 6u);
    for (const RigidFace& f : faces) EXPECT_EQ(f.num_corners, 4);
    ExpectPartition(mesh, faces);
  }
}

TEST(RigidFaces, ASphereHasNoCoplanarNeighbours) {
  const TriangleSurfaceMesh mesh = MakeSphereSurfaceMesh(0.1, 0.03);
  const auto faces = MergeCoplanarTriangles(mesh);
  EXPECT_EQ(static_cast<int>(faces.size()), mesh.num_triangles());
  ExpectPartition(mesh, faces);
}

TEST(RigidFaces, ACylinderCapBecomesWedgesOfAtMostEightCorners) {
  const TriangleSurfaceMesh mesh = MakeCylinderSurfaceMesh(0.5, 0.1, 0.03);
  const auto faces = MergeCoplanarTriangles(mesh);
  // The caps' rings merge radially; a disk is more than one face of ≤ 8 corners.
  EXPECT_LT(static_cast<int>(faces.size()), mesh.num_triangles() / 4);
  int cap_faces = 0;
  for (const RigidFace& f : faces) cap_faces += std::abs(f.normal.z()) > 0.5;
  EXPECT_GT(cap_faces, 2);
  ExpectPartition(mesh, faces);
}

TEST(RigidFaces, ANonConvexPlanarRegionSplitsIntoConvexFaces) {
  // An L of three unit squares in z = 0 (an open surface: merging needs no closed mesh).
  TriangleSurfaceMesh mesh;
  mesh.vertices_m = {V(0, 0, 0), V(1, 0, 0), V(2, 0, 0), V(0, 1, 0),
                     V(1, 1, 0), V(2, 1, 0), V(0, 2, 0), V(1, 2, 0)};
  mesh.triangles = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}, {3, 4, 7}, {3, 7, 6}};
  const auto faces = MergeCoplanarTriangles(mesh);
  EXPECT_EQ(faces.size(), 2u);  // an L is two rectangles at best
  ExpectPartition(mesh, faces);
}

// A prism over a regular n-gon (circumradius 0.1 m, height 0.05 m), its caps triangulated as fans
// from corner 0 and each side as two triangles.
TriangleSurfaceMesh RegularPrism(int n) {
  TriangleSurfaceMesh mesh;
  for (const double z : {0.0, 0.05}) {
    for (int i = 0; i < n; ++i) {
      const double angle = 2 * std::numbers::pi * i / n;
      mesh.vertices_m.push_back(V(0.1 * std::cos(angle), 0.1 * std::sin(angle), z));
    }
  }
  for (int i = 1; i + 1 < n; ++i) {
    mesh.triangles.push_back({0, i + 1, i});          // bottom, outward −z
    mesh.triangles.push_back({n, n + i, n + i + 1});  // top, outward +z
  }
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    mesh.triangles.push_back({i, j, n + j});
    mesh.triangles.push_back({i, n + j, n + i});
  }
  return mesh;
}

// kMaxCorners = 8 is a face's largest number of corners, included: an octagonal prism's caps are
// one face of 8 corners each (2 caps + 8 rectangles = 10 faces); a nonagon's cap, 9 corners, is
// more than one face.
TEST(RigidFaces, AnOctagonalCapIsOneFaceOfEightCornersANonagonalCapIsNot) {
  const TriangleSurfaceMesh octagonal = RegularPrism(8);
  const auto faces = MergeCoplanarTriangles(octagonal);
  ASSERT_EQ(faces.size(), 10u);
  int caps = 0;
  for (const RigidFace& f : faces) {
    if (std::abs(f.normal.z()) > 0.5) {
      ++caps;
      EXPECT_EQ(f.num_corners, 8);
    } else {
      EXPECT_EQ(f.num_corners, 4);
    }
  }
  EXPECT_EQ(caps, 2);
  ExpectPartition(octagonal, faces);

  const TriangleSurfaceMesh nonagonal = RegularPrism(9);
  const auto nonagon_faces = MergeCoplanarTriangles(nonagonal);
  int top_faces = 0, bottom_faces = 0;
  for (const RigidFace& f : nonagon_faces) {
    top_faces += f.normal.z() > 0.5;
    bottom_faces += f.normal.z() < -0.5;
  }
  EXPECT_GE(top_faces, 2);
  EXPECT_GE(bottom_faces, 2);
  ExpectPartition(nonagonal, nonagon_faces);
}

}  // namespace
}  // namespace contactlab::hydroelastic
