// Volume meshes and their ε fields against the exact shapes and fields.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "engine/hydroelastic/hydroelastic_geometry.h"
#include "engine/hydroelastic/volume_mesh_generators.h"

namespace contactlab::hydroelastic {
namespace {

using V = Eigen::Vector3d;

// Checks shared by every generator: positive tets, ε ∈ [0, 1] with max 1, ε = 0 exactly on
// every boundary vertex and nowhere else, and a conforming mesh (boundary faces = the surface:
// a non-conforming interface would show up as extra boundary area).
void CheckCommon(const VolumeMeshWithEpsilon& m, double surface_area) {
  ASSERT_EQ(m.epsilon.size(), m.mesh.vertices_m.size());
  for (int t = 0; t < m.mesh.num_tets(); ++t) ASSERT_GT(m.mesh.TetVolume(t), 0.0) << t;
  const auto on_surface = m.mesh.SurfaceVertexMask();
  double max_eps = 0.0;
  for (int v = 0; v < m.mesh.num_vertices(); ++v) {
    EXPECT_GE(m.epsilon[v], 0.0);
    EXPECT_LE(m.epsilon[v], 1.0);
    if (on_surface[v]) {
      EXPECT_EQ(m.epsilon[v], 0.0) << m.mesh.vertices_m[v].transpose();
    } else {
      EXPECT_GT(m.epsilon[v], 0.0);
    }
    max_eps = std::max(max_eps, m.epsilon[v]);
  }
  EXPECT_EQ(max_eps, 1.0);
  double boundary_area = 0.0;
  for (const auto& f : m.mesh.BoundaryFaces()) {
    boundary_area += 0.5 * (m.mesh.vertices_m[f[1]] - m.mesh.vertices_m[f[0]])
                               .cross(m.mesh.vertices_m[f[2]] - m.mesh.vertices_m[f[0]])
                               .norm();
  }
  EXPECT_NEAR(boundary_area, surface_area, 1e-9 * surface_area);
}

double BoxEpsilon(const V& h, const V& x) { return (h - x.cwiseAbs()).minCoeff() / h.minCoeff(); }

TEST(BoxVolumeMesh, ExactVolumeAndExactDistanceFieldPerTet) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (const V& h : {V(0.1, 0.1, 0.1), V(0.1, 0.15, 0.05), V(0.3, 0.05, 0.08)}) {
    for (double edge : {1.0, 0.04, 0.013}) {
      SCOPED_TRACE(::testing::Message() << "h " << h.transpose() << " edge " << edge);
      const auto m = MakeBoxVolumeMesh(h, edge);
      CheckCommon(m, 8.0 * (h.x() * h.y() + h.y() * h.z() + h.z() * h.x()));
      EXPECT_NEAR(m.mesh.TotalVolume(), 8.0 * h.prod(), 1e-10 * h.prod());  // round-off only
      // ε at vertices and, because each shell-layer tet lies in one face's region, at any point
      // of those tets: the linear interpolant equals (distance to the boundary)/r. (Tets of the
      // core fan touch the centre, the only vertex with ε = 1.)
      for (int v = 0; v < m.mesh.num_vertices(); ++v) {
        ASSERT_NEAR(m.epsilon[v], BoxEpsilon(h, m.mesh.vertices_m[v]), 1e-12);
      }
      double max_err = 0.0;
      int checked = 0;
      for (int t = 0; t < m.mesh.num_tets(); t += 3) {
        const auto& k = m.mesh.tets[t];
        if (std::max({m.epsilon[k[0]], m.epsilon[k[1]], m.epsilon[k[2]], m.epsilon[k[3]]}) == 1.0) {
          continue;
        }
        ++checked;
        double w[4], sum = 0.0;
        for (double& wi : w) sum += (wi = u(rng));
        V x = V::Zero();
        double e = 0.0;
        for (int i = 0; i < 4; ++i) {
          x += w[i] / sum * m.mesh.vertices_m[k[i]];
          e += w[i] / sum * m.epsilon[k[i]];
        }
        max_err = std::max(max_err, std::abs(e - BoxEpsilon(h, x)));
      }
      EXPECT_LT(max_err, 1e-12);
      EXPECT_GT(checked, m.mesh.num_tets() / 8);
    }
  }
}

TEST(SphereVolumeMesh, VolumeConvergesAndFieldIsRadial) {
  const double R = 0.1, exact = 4.0 / 3.0 * std::numbers::pi * R * R * R;
  double prev_err = 1e9;
  for (double edge : {0.06, 0.03, 0.015, 0.0075}) {
    SCOPED_TRACE(edge);
    const auto m = MakeSphereVolumeMesh(R, edge);
    const auto surface = MakeSphereSurfaceMesh(R, edge);
    CheckCommon(m, surface.TotalArea());
    // The tets fill exactly the inscribed polyhedron.
    EXPECT_NEAR(m.mesh.TotalVolume(), surface.EnclosedVolume(), 1e-12 * exact);
    for (int v = 0; v < m.mesh.num_vertices(); ++v) {
      ASSERT_NEAR(m.epsilon[v], 1.0 - m.mesh.vertices_m[v].norm() / R, 1e-12);
    }
    const double err = std::abs(m.mesh.TotalVolume() - exact) / exact;
    EXPECT_LT(err, 0.5 * prev_err);  // O(edge²): halving the edge quarters it
    prev_err = err;
  }
  EXPECT_LT(prev_err, 3e-3);
}

TEST(CylinderAndCapsuleVolumeMesh, VolumeConverges) {
  struct Case {
    bool capsule;
    double R, L;
  };
  for (const Case& c : {Case{false, 0.05, 0.3}, Case{false, 0.1, 0.04}, Case{true, 0.05, 0.2},
                        Case{true, 0.05, 0.0}}) {
    SCOPED_TRACE(::testing::Message() << c.capsule << " R " << c.R << " L " << c.L);
    const double pi = std::numbers::pi;
    const double exact =
        c.capsule ? pi * c.R * c.R * c.L + 4.0 / 3.0 * pi * std::pow(c.R, 3) : pi * c.R * c.R * c.L;
    double prev_err = 1e9;
    for (double edge : {0.04, 0.02, 0.01}) {
      const auto m = c.capsule ? MakeCapsuleVolumeMesh(c.R, c.L, edge)
                               : MakeCylinderVolumeMesh(c.R, c.L, edge);
      const auto surface = c.capsule ? MakeCapsuleSurfaceMesh(c.R, c.L, edge)
                                     : MakeCylinderSurfaceMesh(c.R, c.L, edge);
      CheckCommon(m, surface.TotalArea());
      EXPECT_NEAR(m.mesh.TotalVolume(), surface.EnclosedVolume(), 1e-12 * exact);
      const double err = std::abs(m.mesh.TotalVolume() - exact) / exact;
      EXPECT_LT(err, prev_err);
      prev_err = err;
    }
    EXPECT_LT(prev_err, 0.02);
  }
}

TEST(CapsuleVolumeMesh, FieldIsDistanceToAxisSegment) {
  const double R = 0.05, L = 0.2;
  const auto m = MakeCapsuleVolumeMesh(R, L, 0.01);
  for (int v = 0; v < m.mesh.num_vertices(); ++v) {
    const V& x = m.mesh.vertices_m[v];
    const V q(0, 0, std::clamp(x.z(), -L / 2, L / 2));
    ASSERT_NEAR(m.epsilon[v], 1.0 - (x - q).norm() / R, 1e-12);
  }
}

TEST(ConvexVolumeMesh, CubeFromTriangleSoupFansToCentre) {
  // 12 triangles of the unit cube [0, 1]³, in arbitrary winding.
  std::vector<std::array<V, 3>> soup;
  for (int a = 0; a < 3; ++a) {
    for (double s : {0.0, 1.0}) {
      V p[4];
      for (int k = 0; k < 4; ++k) {
        p[k][a] = s;
        p[k][(a + 1) % 3] = (k == 1 || k == 2) ? 1.0 : 0.0;
        p[k][(a + 2) % 3] = (k >= 2) ? 1.0 : 0.0;
      }
      soup.push_back({p[0], p[1], p[2]});
      soup.push_back({p[0], p[3], p[2]});
    }
  }
  for (int shells : {1, 3}) {
    const auto m = MakeConvexVolumeMesh(soup, shells);
    CheckCommon(m, 6.0);
    EXPECT_NEAR(m.mesh.TotalVolume(), 1.0, 1e-12);
    EXPECT_EQ(m.mesh.num_tets(), 12 * (3 * shells - 2));
    // ε = 1 − (gauge of x about the centre) = 1 − 2 max|x − c|.
    for (int v = 0; v < m.mesh.num_vertices(); ++v) {
      const V d = m.mesh.vertices_m[v] - V::Constant(0.5);
      EXPECT_NEAR(m.epsilon[v], 1.0 - 2.0 * d.cwiseAbs().maxCoeff(), 1e-12);
    }
  }
}

TEST(CompliantGeometry, PressureIsModulusTimesEpsilonWithPerTetGradient) {
  const double E = 2e5;
  const auto g = MakeCompliantGeometry(Shape::Box(V(0.1, 0.2, 0.05)), E, 0.02);
  EXPECT_EQ(g.field.hydroelastic_modulus_Pa, E);
  double max_p = 0.0;
  for (double p : g.field.pressure_Pa) max_p = std::max(max_p, p);
  EXPECT_DOUBLE_EQ(max_p, E);
  for (int t = 0; t < g.mesh.num_tets(); ++t) {
    for (int v : g.mesh.tets[t]) {
      ASSERT_NEAR(g.tet_pressure[t](g.mesh.vertices_m[v]), g.field.pressure_Pa[v], 1e-9 * E);
    }
    // Distance field: |∇ε| = 1/r in every shell-layer tet (one face region each).
    const auto& k = g.mesh.tets[t];
    bool core = false;
    for (int v : k) core |= g.field.pressure_Pa[v] == E;
    if (core) continue;
    ASSERT_NEAR(g.tet_pressure[t].gradient.norm(), E / 0.05, 1e-6 * E / 0.05);
  }
  EXPECT_THROW(MakeCompliantGeometry(Shape::HalfSpace(), E, 0.02), std::invalid_argument);
  EXPECT_THROW(MakeCompliantGeometry(Shape::Box(V(0.1, 0.2, 0.05)), -1.0, 0.02),
               std::invalid_argument);
}

}  // namespace
}  // namespace contactlab::hydroelastic
