// Hydroelastic faces → contact candidates (docs/contact-model.md §5), on hand-made surfaces:
// a large polygon gives one candidate per fan face with k_f = A_f·g_f and φ0_f = −p0_f/g_f; a
// small polygon is one candidate and a tiny one is pooled with the others of its normal, both
// keeping Σ A_f, Σ A_f·g_f and Σ A_f·p0_f exactly at the centre of pressure.
#include "engine/world/hydroelastic_faces.h"

#include <gtest/gtest.h>

#include <cmath>

namespace contactlab {
namespace {

using hydroelastic::ContactFace;
using hydroelastic::ContactSurface;

// One fan face: area A, centroid c, pressure p0, pressure gradients g_A (compliant), g_B = ∞.
ContactFace Face(double area_m2, const Eigen::Vector3d& c, double pressure_Pa, double g_A,
                 const Eigen::Vector3d& n = Eigen::Vector3d::UnitZ()) {
  ContactFace f;
  f.area_m2 = area_m2;
  f.centroid_W = c;
  f.normal_W = n;
  f.pressure_Pa = pressure_Pa;
  f.g_A_Pa_per_m = g_A;
  f.g_B_Pa_per_m = hydroelastic::kRigidPressureGradient;
  return f;
}

// Marks faces [first, first + count) as one polygon of the given size.
void Polygon(ContactSurface* s, int first, int count, double size) {
  s->faces[first].polygon_faces = count;
  s->faces[first].polygon_size = size;
}

TEST(HydroelasticFaces, LargePolygonGivesOneCandidatePerFace) {
  ContactSurface s;
  s.faces = {Face(2e-4, {0, 0, 0}, 1e4, 1e6), Face(1e-4, {0.01, 0, 0}, 3e4, 2e6)};
  Polygon(&s, 0, 2, 0.5);
  TinyPolygonPools pools;
  std::vector<ContactCandidate> out;
  AppendFaceContacts(s, 3, 7, 1, &pools, &out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].geometry_a, 3);
  EXPECT_EQ(out[1].geometry_b, 7);
  EXPECT_EQ(out[1].patch, 1);
  EXPECT_EQ(out[1].face, 1);
  EXPECT_EQ(out[1].num_faces, 1);
  EXPECT_DOUBLE_EQ(out[1].face_stiffness_N_per_m, 1e-4 * 2e6);   // k_f = A_f g_f (g_B = ∞)
  EXPECT_DOUBLE_EQ(out[1].face_elastic_force_N, 1e-4 * 3e4);     // f0 = A_f p0_f
  EXPECT_DOUBLE_EQ(out[1].point.signed_distance_m, -3e4 / 2e6);  // φ0 = −p0/g
  EXPECT_TRUE(out[1].point.p_A_W.isApprox(Eigen::Vector3d(0.01, 0, 0)));
}

TEST(HydroelasticFaces, SmallPolygonIsOneCandidateAtItsCentreOfPressure) {
  ContactSurface s;
  s.faces = {Face(1e-6, {0, 0, 0}, 1e4, 1e6), Face(3e-6, {0.004, 0, 0}, 3e4, 1e6)};
  Polygon(&s, 0, 2, 0.5 * kFanPolygonSize);
  TinyPolygonPools pools;
  std::vector<ContactCandidate> out;
  AppendFaceContacts(s, 0, 1, 0, &pools, &out);
  ASSERT_EQ(out.size(), 1u);
  const double f0 = 1e-6 * 1e4 + 3e-6 * 3e4;  // 0.1 N
  EXPECT_EQ(out[0].num_faces, 2);
  EXPECT_DOUBLE_EQ(out[0].face_area_m2, 4e-6);
  EXPECT_DOUBLE_EQ(out[0].face_stiffness_N_per_m, 4e-6 * 1e6);
  EXPECT_DOUBLE_EQ(out[0].face_elastic_force_N, f0);
  EXPECT_DOUBLE_EQ(out[0].point.signed_distance_m, -f0 / 4.0);
  // Centre of pressure Σ A p0 c / Σ A p0 = 0.004·0.09/0.1 along x.
  EXPECT_NEAR(out[0].point.p_A_W.x(), 0.004 * 0.09 / 0.1, 1e-15);
}

TEST(HydroelasticFaces, TinyPolygonsArePooledPerNormal) {
  const Eigen::Vector3d up = Eigen::Vector3d::UnitZ(), side = Eigen::Vector3d::UnitX();
  ContactSurface s;
  s.faces = {Face(1e-9, {0, 0, 0}, 1e3, 1e6, up), Face(2e-9, {1, 0, 0}, 1e3, 1e6, side),
             Face(3e-9, {0, 1, 0}, 1e3, 1e6, up)};
  for (int f = 0; f < 3; ++f) Polygon(&s, f, 1, 0.5 * kTinyPolygonSize);
  TinyPolygonPools pools;
  std::vector<ContactCandidate> out;
  AppendFaceContacts(s, 0, 1, 0, &pools, &out);
  ASSERT_EQ(out.size(), 2u);  // one pool for +z (faces 0 and 2), one for +x (face 1)
  EXPECT_EQ(out[0].num_faces, 0);
  EXPECT_EQ(out[0].face, 0);
  EXPECT_DOUBLE_EQ(out[0].face_area_m2, 4e-9);
  EXPECT_DOUBLE_EQ(out[0].face_stiffness_N_per_m, 4e-9 * 1e6);
  EXPECT_TRUE(out[0].point.normal_W.isApprox(up));
  EXPECT_EQ(out[1].face, 1);
  EXPECT_DOUBLE_EQ(out[1].face_area_m2, 2e-9);
  EXPECT_TRUE(out[1].point.normal_W.isApprox(side));
}

// The penetration a candidate reports (docs/contact-model.md §5) is its faces' own
// (hydroelastic::ContactFace::penetration_m), area-weighted over a merged set, the faces
// without one left out; a set none of whose faces has one has none (NaN) — whatever the
// solver's φ0 = −f0/k, which here, with g along n̂ a thousandth of |∇p|, is kilometres.
TEST(HydroelasticFaces, CandidatesReportTheFacesPenetrationAreaWeighted) {
  ContactSurface s;
  s.faces = {Face(1e-6, {0, 0, 0}, 1e4, 10.0), Face(3e-6, {0.004, 0, 0}, 3e4, 10.0),
             Face(2e-6, {0.008, 0, 0}, 2e4, 10.0), Face(1e-4, {0.02, 0, 0}, 2e4, 10.0),
             Face(1e-4, {0.03, 0, 0}, 2e4, 10.0)};
  s.faces[0].penetration_m = 1e-5;
  s.faces[1].penetration_m = 3e-5;
  s.faces[2].penetration_m = NAN;  // a flat field: no depth
  s.faces[3].penetration_m = 2e-5;
  s.faces[4].penetration_m = NAN;
  Polygon(&s, 0, 3, 0.5 * kFanPolygonSize);  // one small polygon: one candidate
  Polygon(&s, 3, 1, 0.5);
  Polygon(&s, 4, 1, 0.5);
  TinyPolygonPools pools;
  std::vector<ContactCandidate> out;
  AppendFaceContacts(s, 0, 1, 0, &pools, &out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_DOUBLE_EQ(out[0].face_penetration_m, (1e-6 * 1e-5 + 3e-6 * 3e-5) / 4e-6);
  EXPECT_LT(out[0].point.signed_distance_m, -1e3);  // the solver's φ0: a spring's rest offset
  EXPECT_DOUBLE_EQ(out[1].face_penetration_m, 2e-5);
  EXPECT_TRUE(std::isnan(out[2].face_penetration_m));
}

TEST(HydroelasticFaces, FaceWithoutGradientAlongTheNormalIsSkipped) {
  ContactSurface s;
  s.faces = {Face(1e-4, {0, 0, 0}, 1e4, 0.0)};  // g_A = 0: no spring
  Polygon(&s, 0, 1, 0.5);
  TinyPolygonPools pools;
  std::vector<ContactCandidate> out;
  AppendFaceContacts(s, 0, 1, 0, &pools, &out);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace contactlab
