// Quickhull and the polyhedron's mass properties against known answers.
#include "engine/geometry/convex_hull.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <set>
#include <utility>

namespace contactlab {
namespace {

using V = Eigen::Vector3d;

std::vector<V> BoxCorners(const V& h, const V& offset = V::Zero()) {
  std::vector<V> corners;
  for (int i = 0; i < 8; ++i) {
    corners.push_back(
        offset + V((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z()));
  }
  return corners;
}

// Closed 2-manifold with outward triangles: every directed edge once, its reverse once.
void ExpectClosedOutward(const ConvexPolyhedron& h) {
  std::set<std::pair<int, int>> edges;
  for (const auto& t : h.triangles) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_TRUE(edges.insert({t[k], t[(k + 1) % 3]}).second) << "directed edge twice";
    }
  }
  for (const auto& [a, b] : edges) EXPECT_TRUE(edges.count({b, a})) << "open edge";
  // Outward: every vertex lies below the plane of every triangle.
  for (const auto& t : h.triangles) {
    const V n = (h.vertices_G[t[1]] - h.vertices_G[t[0]])
                    .cross(h.vertices_G[t[2]] - h.vertices_G[t[0]])
                    .normalized();
    for (const V& v : h.vertices_G) EXPECT_LE(n.dot(v - h.vertices_G[t[0]]), 1e-12);
  }
}

TEST(ConvexHull, CubeCornersWithInteriorFaceEdgeAndDuplicatePoints) {
  const V h(0.1, 0.2, 0.3);
  std::vector<V> points;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // Interior points first (so that the hull must discard them), then points on faces and
  // edges, duplicates of the corners, then the corners.
  for (int i = 0; i < 200; ++i) points.push_back(V(u(rng), u(rng), u(rng)).cwiseProduct(h) * 0.99);
  for (int axis = 0; axis < 3; ++axis) {
    for (const double s : {-1.0, 1.0}) {
      V c = V::Zero();
      c[axis] = s * h[axis];
      points.push_back(c);  // face centre
      V e = c;
      e[(axis + 1) % 3] = h[(axis + 1) % 3];
      points.push_back(e);  // edge midpoint
      V f = c;
      f[(axis + 1) % 3] = 0.3 * h[(axis + 1) % 3];
      f[(axis + 2) % 3] = -0.7 * h[(axis + 2) % 3];
      points.push_back(f);  // a point in the face
    }
  }
  for (const V& c : BoxCorners(h)) points.push_back(c);
  for (const V& c : BoxCorners(h)) points.push_back(c);

  const ConvexPolyhedron hull = ComputeConvexHull(points);
  EXPECT_EQ(hull.num_vertices(), 8);
  EXPECT_EQ(hull.triangles.size(), 12u);
  ASSERT_EQ(hull.num_faces(), 6);
  for (const auto& f : hull.faces) {
    EXPECT_EQ(f.count, 4);
    EXPECT_NEAR(f.normal_G.cwiseAbs().maxCoeff(), 1.0, 1e-15);
  }
  ExpectClosedOutward(hull);
  EXPECT_NEAR(hull.mass.volume_m3, 8 * h.prod(), 1e-15);
  EXPECT_LT(hull.mass.centroid_G.norm(), 1e-15);
  EXPECT_DOUBLE_EQ(hull.half_size_m, 0.3);
  for (const V& p : points) EXPECT_LE(HullPlaneDistance(hull, p), 1e-15);
  // Every vertex has 3 neighbours in the edge graph of a triangulated cube at least.
  for (int i = 0; i < hull.num_vertices(); ++i) {
    EXPECT_GE(hull.neighbor_offsets[i + 1] - hull.neighbor_offsets[i], 3);
  }
}

TEST(ConvexHull, RandomPointsOnASphereFormAClosedSurfaceOfEulerCharacteristicTwo) {
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  std::vector<V> points;
  for (int i = 0; i < 500; ++i) points.push_back(0.05 * V(g(rng), g(rng), g(rng)).normalized());
  const ConvexPolyhedron hull = ComputeConvexHull(points);
  // Points on a sphere are all extreme.
  EXPECT_EQ(hull.num_vertices(), 500);
  std::set<std::pair<int, int>> undirected;
  for (const auto& t : hull.triangles) {
    for (int k = 0; k < 3; ++k) {
      undirected.insert(std::minmax(t[k], t[(k + 1) % 3]));
    }
  }
  const int V_ = hull.num_vertices(), E = static_cast<int>(undirected.size()),
            F = static_cast<int>(hull.triangles.size());
  EXPECT_EQ(V_ - E + F, 2);
  ExpectClosedOutward(hull);
  for (const V& p : points) EXPECT_LE(HullPlaneDistance(hull, p), 1e-12);
  // Volume below the sphere's, close to it.
  const double sphere = 4.0 / 3.0 * std::numbers::pi * std::pow(0.05, 3);
  EXPECT_LT(hull.mass.volume_m3, sphere);
  EXPECT_GT(hull.mass.volume_m3, 0.95 * sphere);
}

TEST(ConvexHull, RejectsSetsWithoutVolume) {
  EXPECT_THROW(ComputeConvexHull({V(0, 0, 0), V(1, 0, 0), V(0, 1, 0)}), std::invalid_argument);
  EXPECT_THROW(ComputeConvexHull({V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(1, 1, 0), V(0.5, 0.2, 0)}),
               std::invalid_argument);
  EXPECT_THROW(ComputeConvexHull({V(0, 0, 0), V(1, 0, 0), V(2, 0, 0), V(3, 0, 0)}),
               std::invalid_argument);
  EXPECT_THROW(ComputeConvexHull({V(1, 1, 1), V(1, 1, 1), V(1, 1, 1), V(1, 1, 1)}),
               std::invalid_argument);
  EXPECT_THROW(ComputeConvexHull({V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(0, 0, NAN)}),
               std::invalid_argument);
}

TEST(ConvexHull, TetrahedronAndTwelveSidedPrismFaces) {
  const ConvexPolyhedron tet = ComputeConvexHull({V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(0, 0, 1)});
  EXPECT_EQ(tet.num_vertices(), 4);
  EXPECT_EQ(tet.num_faces(), 4);
  EXPECT_NEAR(tet.mass.volume_m3, 1.0 / 6.0, 1e-15);
  EXPECT_LT((tet.mass.centroid_G - V::Constant(0.25)).norm(), 1e-15);
  // A 12-gon prism: the caps are single faces of 12 corners, counterclockwise about +z / −z.
  std::vector<V> prism;
  for (int i = 0; i < 12; ++i) {
    const double a = 2 * std::numbers::pi * i / 12;
    prism.push_back(V(std::cos(a), std::sin(a), -0.5));
    prism.push_back(V(std::cos(a), std::sin(a), 0.5));
  }
  const ConvexPolyhedron p = ComputeConvexHull(prism);
  EXPECT_EQ(p.num_faces(), 14);
  int caps = 0;
  for (const auto& f : p.faces) {
    if (std::abs(f.normal_G.z()) > 0.999) {
      ++caps;
      EXPECT_EQ(f.count, 12);
      const V a = p.vertices_G[p.face_vertices[f.first]];
      const V b = p.vertices_G[p.face_vertices[f.first + 1]];
      const V c = p.vertices_G[p.face_vertices[f.first + 2]];
      EXPECT_GT((b - a).cross(c - b).dot(f.normal_G), 0.0);
      EXPECT_NEAR(f.offset_m, 0.5, 1e-15);
    } else {
      EXPECT_EQ(f.count, 4);
    }
  }
  EXPECT_EQ(caps, 2);
}

TEST(PolyhedronMassProperties, OffCentreRotatedBoxMatchesTheBoxFormula) {
  // Box of half extents h: I = m/3 diag(h_y² + h_z², h_x² + h_z², h_x² + h_y²) about its centre;
  // rotated by R: R I Rᵀ. At unit density m = 8 h_x h_y h_z.
  const V h(0.05, 0.1, 0.2), offset(0.3, -0.2, 0.7);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, V(1, 2, 3).normalized()).toRotationMatrix();
  std::vector<V> corners;
  for (const V& c : BoxCorners(h)) corners.push_back(offset + R * c);
  const ConvexPolyhedron hull = ComputeConvexHull(corners);
  const double m = 8 * h.prod();
  const V h2 = h.cwiseAbs2();
  const Eigen::Matrix3d I =
      (m / 3 * V(h2.y() + h2.z(), h2.x() + h2.z(), h2.x() + h2.y())).asDiagonal();
  EXPECT_NEAR(hull.mass.volume_m3, m, 1e-15);
  EXPECT_LT((hull.mass.centroid_G - offset).norm(), 1e-14);
  EXPECT_LT((hull.mass.unit_density_inertia - R * I * R.transpose()).norm(), 1e-16);
}

TEST(PolyhedronMassProperties, SquarePyramidHasItsCentroidAQuarterUpAndThePyramidInertia) {
  // A square pyramid (base side a, height h, apex above the base's centre): volume a²h/3, the
  // centroid h/4 above the base — not the vertex mean, h/5 above it — and about the centroid
  // I_xx = I_yy = m (a²/20 + 3h²/80), I_zz = m a²/10. Moved off the origin and rotated by R.
  const double a = 0.2, h = 0.3;
  const V base_centre(0.4, -0.1, 0.25);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.5, V(-1, 2, 1).normalized()).toRotationMatrix();
  std::vector<V> points;
  for (const V& x : {V(-a / 2, -a / 2, 0), V(a / 2, -a / 2, 0), V(a / 2, a / 2, 0),
                     V(-a / 2, a / 2, 0), V(0, 0, h)}) {
    points.push_back(base_centre + R * x);
  }
  const ConvexPolyhedron hull = ComputeConvexHull(points);
  ASSERT_EQ(hull.num_vertices(), 5);
  const double m = a * a * h / 3;
  const Eigen::Matrix3d I =
      (m * V(a * a / 20 + 3 * h * h / 80, a * a / 20 + 3 * h * h / 80, a * a / 10)).asDiagonal();
  EXPECT_NEAR(hull.mass.volume_m3, m, 1e-16);
  EXPECT_LT((hull.mass.centroid_G - (base_centre + R * V(0, 0, h / 4))).norm(), 1e-15);
  EXPECT_LT((hull.mass.unit_density_inertia - R * I * R.transpose()).norm(), 1e-13 * I.norm());
  // The same from the five points' own triangles (ComputePolyhedronMassProperties directly).
  const std::vector<std::array<int, 3>> triangles = {{0, 2, 1}, {0, 3, 2}, {0, 1, 4},
                                                     {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};
  const PolyhedronMassProperties direct = ComputePolyhedronMassProperties(points, triangles);
  EXPECT_NEAR(direct.volume_m3, m, 1e-16);
  EXPECT_LT((direct.centroid_G - (base_centre + R * V(0, 0, h / 4))).norm(), 1e-15);
  EXPECT_LT((direct.unit_density_inertia - R * I * R.transpose()).norm(), 1e-13 * I.norm());
}

}  // namespace
}  // namespace contactlab
