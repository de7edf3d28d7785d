// Contact surfaces against known answers (docs/contact-model.md §5).
#include "engine/hydroelastic/contact_surface.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>

#include "hydroelastic_test_utils.h"
#include "test_support/poses.h"

namespace contactlab::hydroelastic {
namespace {

using contactlab::testing::Pose;
using contactlab::testing::Rot;
using testing::BoxOnPlaneForce;
using V = Eigen::Vector3d;

constexpr double kE = 1e6;  // hydroelastic modulus [Pa]

TEST(CompliantBoxOnHalfSpace, FaceCrossSectionWithExactPressureAndForce) {
  const V h(0.1, 0.15, 0.05);  // inradius r = h_z: ε = 1 at depth 0.05 below the bottom
  const RigidGeometry ground = RigidGeometry::HalfSpace();
  ContactSurfaceScratch scratch;
  ContactSurface s;
  for (double edge : {0.05, 0.02, 0.01}) {
    const auto box = MakeCompliantGeometry(Shape::Box(h), kE, edge);
    for (double delta : {0.0007, 0.004, 0.013}) {
      SCOPED_TRACE(::testing::Message() << "edge " << edge << " δ " << delta);
      // Ground rotated about z and shifted: must not matter.
      const auto X_WB = Pose(V(0.3, -0.2, 0.0), Rot(0.3, V::UnitZ()));
      ComputeContactSurface(box, Pose(V(0, 0, h.z() - delta)), ground, X_WB, &scratch, &s);
      ASSERT_FALSE(s.empty());
      EXPECT_NEAR(s.TotalArea_m2(), 4.0 * h.x() * h.y(), 1e-12);
      // Pressure E δ/r on every face farther than δ from the sides (the medial-axis field).
      for (const auto& f : s.faces) {
        EXPECT_NEAR(f.centroid_W.z(), 0.0, 1e-12);
        EXPECT_LT((f.normal_W - V(0, 0, -1)).norm(), 1e-12);  // from the box into the ground
        const V c = f.centroid_W;
        const double to_side = std::min(h.x() - std::abs(c.x()), h.y() - std::abs(c.y()));
        if (to_side > delta + edge) {
          EXPECT_NEAR(f.pressure_Pa, kE * delta / h.z(), 1e-9 * kE);
          EXPECT_NEAR(f.g_A_Pa_per_m, kE / h.z(), 1e-6 * kE / h.z());
          EXPECT_EQ(f.g_B_Pa_per_m, kRigidPressureGradient);
        }
      }
      // Net force on the ground: −F ẑ with F = E/r ∫₀^δ (2h_x − 2t)(2h_y − 2t) dt exactly; it
      // differs from E ε(δ) A only by the strip within δ of the sides.
      const V force = s.NetForceOnB_W();
      const double exact = BoxOnPlaneForce(h, kE, delta);
      EXPECT_NEAR(force.z(), -exact, 1e-9 * exact);
      EXPECT_NEAR(force.head<2>().norm(), 0.0, 1e-9 * exact);
      const double uniform = kE * delta / h.z() * 4.0 * h.x() * h.y();
      EXPECT_NEAR(exact / uniform, 1.0, (h.x() + h.y()) * delta / (2 * h.x() * h.y()) + 1e-12);
      // Centred load: no moment about the bottom-face centre, up to the one-point quadrature of
      // ∫ x p dA on the faces of the edge strips where p varies (zero on the uniform part).
      EXPECT_LT(s.NetMomentOnB_W(V(0, 0, 0)).norm(), 1e-3 * exact * h.x());
    }
  }
}

// On a rigid box's top face (its triangles merged into one quad, rigid_faces.h) as on the
// half-space: the same area and force; and over the table's corner, what the face's edges cut.
TEST(CompliantBoxOnRigidBox, TopFaceActsAsThePlaneWithinItsEdges) {
  const V h(0.1, 0.15, 0.05);
  const V table_half(0.5, 0.4, 0.05);
  ContactSurfaceScratch scratch;
  ContactSurface s;
  for (double table_edge : {1.0, 0.07}) {
    const auto table = MakeRigidGeometry(Shape::Box(table_half), table_edge);
    const auto box = MakeCompliantGeometry(Shape::Box(h), kE, 0.02);
    const double delta = 0.004;
    const auto X_WB = Pose(V(0, 0, -table_half.z()));  // top face at z = 0
    SCOPED_TRACE(::testing::Message() << "table edge " << table_edge);
    ComputeContactSurface(box, Pose(V(0.1, -0.05, h.z() - delta)), table, X_WB, &scratch, &s);
    EXPECT_NEAR(s.TotalArea_m2(), 4.0 * h.x() * h.y(), 1e-12);
    const double exact = BoxOnPlaneForce(h, kE, delta);
    EXPECT_NEAR(s.NetForceOnB_W().z(), -exact, 1e-9 * exact);
    // Centred on the table's corner: the table's top edges clip the slices to the quadrant of
    // the bottom over the table, which carries a quarter of the force (the box's field is exact
    // on the mesh and symmetric about its centre). The surface also takes in the table's two
    // side faces where the box reaches δ below the top (strips h_y δ and h_x δ), whose
    // pressure pushes sideways only.
    ComputeContactSurface(box, Pose(V(table_half.x(), table_half.y(), h.z() - delta)), table, X_WB,
                          &scratch, &s);
    EXPECT_NEAR(s.TotalArea_m2(), h.x() * h.y() + (h.x() + h.y()) * delta, 1e-12);
    EXPECT_NEAR(s.NetForceOnB_W().z(), -0.25 * exact, 1e-9 * exact);
  }
}

TEST(CompliantBoxOnHalfSpace, EquilibriumDepthBalancesWeight) {
  const V h(0.05, 0.05, 0.05);
  const double density = 500.0, g = 9.81;
  const double weight = density * 8.0 * h.prod() * g;
  // Newton on F(δ) = weight with the exact force law.
  double delta = weight * h.z() / (kE * 4 * h.x() * h.y());
  for (int i = 0; i < 30; ++i) {
    const double dF = 4.0 * kE / h.z() * (h.x() - delta) * (h.y() - delta);
    delta -= (BoxOnPlaneForce(h, kE, delta) - weight) / dF;
  }
  const auto box = MakeCompliantGeometry(Shape::Box(h), kE, 0.01);
  ContactSurfaceScratch scratch;
  ContactSurface s;
  ComputeContactSurface(box, Pose(V(0, 0, h.z() - delta)), RigidGeometry::HalfSpace(),
                        Pose(V::Zero()), &scratch, &s);
  EXPECT_NEAR(-s.NetForceOnB_W().z(), weight, 1e-9 * weight);
  EXPECT_GT(delta, 0.0);
  EXPECT_LT(delta, 1e-3);
}

// Sphere of radius R with ε = 1 − |x|/R cut by a plane at depth δ: a disk of radius a,
// a² = 2Rδ − δ², and F = E(π a² − 2π(R³ − (R − δ)³)/(3R)).
TEST(CompliantSphereOnHalfSpace, DiskAreaAndForceConverge) {
  const double R = 0.1;
  double prev_area_err = 1e9, prev_force_err = 1e9;
  for (double delta : {0.01, 0.03}) {
    prev_area_err = prev_force_err = 1e9;
    const double hh = R - delta;
    const double area = std::numbers::pi * (2 * R * delta - delta * delta);
    const double force = kE * (area - 2 * std::numbers::pi * (R * R * R - hh * hh * hh) / (3 * R));
    for (double edge : {0.04, 0.02, 0.01, 0.005}) {
      SCOPED_TRACE(::testing::Message() << "δ " << delta << " edge " << edge);
      const auto sphere = MakeCompliantGeometry(Shape::Sphere(R), kE, edge);
      ContactSurfaceScratch scratch;
      ContactSurface s;
      ComputeContactSurface(sphere, Pose(V(0.01, 0.02, hh), Rot(0.7, V(1, 2, 3))),
                            RigidGeometry::HalfSpace(), Pose(V::Zero()), &scratch, &s);
      const double area_err = std::abs(s.TotalArea_m2() - area) / area;
      const V F = s.NetForceOnB_W();
      const double force_err = std::abs(-F.z() - force) / force;
      EXPECT_LT(F.head<2>().norm(), 1e-9 * force);
      // The patch is a (polygonal) disk: every vertex within the true disk radius + round-off.
      for (const auto& v : s.vertices_W) {
        EXPECT_LT((v - V(0.01, 0.02, 0)).head<2>().norm(),
                  std::sqrt(area / std::numbers::pi) + 1e-9);
      }
      spdlog::info("sphere δ {} edge {}: area err {:.2e}, force err {:.2e}, {} faces", delta, edge,
                   area_err, force_err, s.faces.size());
      EXPECT_LT(area_err, prev_area_err);
      EXPECT_LT(force_err, prev_force_err);
      prev_area_err = area_err;
      prev_force_err = force_err;
    }
    EXPECT_LT(prev_area_err, 0.02);
    EXPECT_LT(prev_force_err, 0.03);
  }
}

// A compliant box slides and yaws across a coarse rigid box (its top triangles enter and leave
// the overlap) while tilting into a rigid half-space: the polygons change combinatorially, the
// force and moment must not jump.
TEST(Continuity, ForceAndMomentChangeSmoothlyAsPolygonsAppearAndVanish) {
  const V h(0.05, 0.04, 0.03);
  const auto box = MakeCompliantGeometry(Shape::Box(h), kE, 0.01);
  const auto table = MakeRigidGeometry(Shape::Box(V(0.5, 0.5, 0.05)), 0.07);
  const auto ground = RigidGeometry::HalfSpace();
  ContactSurfaceScratch scratch;
  ContactSurface s;
  for (int which = 0; which < 2; ++which) {
    SCOPED_TRACE(which == 0 ? "rigid mesh" : "half-space");
    const RigidGeometry& rigid = which == 0 ? table : ground;
    const auto X_WR = which == 0 ? Pose(V(0, 0, -0.05)) : Pose(V::Zero());
    V prev_force = V::Zero(), prev_moment = V::Zero(), prev_dF = V::Zero(), prev_dM = V::Zero();
    double max_d2F = 0.0, max_d2M = 0.0;
    size_t min_faces = 1 << 30, max_faces = 0;
    double max_dF = 0.0, max_dM = 0.0, F_scale = 0.0;
    const int steps = 400;
    for (int i = 0; i <= steps; ++i) {
      const double t = double(i) / steps;
      // 4 cm slide, 0.3 rad yaw, tilt from 0 to 0.12 rad about a horizontal axis (one edge
      // lifts off, the slice crosses tet layers).
      const Eigen::Matrix3d R = Rot(0.3 * t, V::UnitZ()) * Rot(0.12 * t, V(1, 0.3, 0));
      const auto X_WA = Pose(V(0.04 * t, 0.01 * t, h.z() - 0.004), R);
      ComputeContactSurface(box, X_WA, rigid, X_WR, &scratch, &s);
      const V force = s.NetForceOnB_W();
      const V moment = s.NetMomentOnB_W(X_WA.translation());
      min_faces = std::min(min_faces, s.faces.size());
      max_faces = std::max(max_faces, s.faces.size());
      F_scale = std::max(F_scale, force.norm());
      if (i > 0) {
        const V dF = force - prev_force, dM = moment - prev_moment;
        max_dF = std::max(max_dF, dF.norm());
        max_dM = std::max(max_dM, dM.norm());
        if (i > 1) {
          max_d2F = std::max(max_d2F, (dF - prev_dF).norm());
          max_d2M = std::max(max_d2M, (dM - prev_dM).norm());
        }
        prev_dF = dF;
        prev_dM = dM;
      }
      prev_force = force;
      prev_moment = moment;
    }
    // Per step (0.1 mm, 0.75 mrad yaw, 0.3 mrad tilt) F changes smoothly by < 0.1%. One slice
    // polygon (~0.3 cm² at p ≈ 1.3e5 Pa) popping in or out with finite area would jump by ~ 4 N
    // (one of its fan triangles by ~ 1 N); a jump J shows up as J in the second difference,
    // which for a smooth path is O(step²) — so bound it well below 1 N.
    EXPECT_GT(max_faces, min_faces + 100);  // the tessellation did change
    EXPECT_LT(max_dF, 1e-3 * F_scale);
    EXPECT_LT(max_dM, 1e-3 * F_scale * h.norm());
    EXPECT_LT(max_d2F, 0.05);
    EXPECT_LT(max_d2M, 0.05 * h.norm());
    spdlog::info(
        "continuity ({}): F ≈ {:.1f} N, max |ΔF| {:.3g} N, |Δ²F| {:.3g} N, |ΔM| {:.3g} N m, "
        "|Δ²M| {:.3g} N m, faces {}–{}",
        which == 0 ? "mesh" : "half-space", F_scale, max_dF, max_d2F, max_dM, max_d2M, min_faces,
        max_faces);
  }
}

TEST(CompliantCompliant, SwappingBodiesNegatesTheWrench) {
  const auto sphere = MakeCompliantGeometry(Shape::Sphere(0.08), 2e5, 0.015);
  const auto box = MakeCompliantGeometry(Shape::Box(V(0.1, 0.07, 0.05)), 1e6, 0.015);
  const auto X_WA = Pose(V(0.01, 0.02, 0.05 + 0.08 - 0.012), Rot(0.4, V(1, 1, 0)));
  const auto X_WB = Pose(V(0.0, 0.0, 0.0), Rot(0.2, V(0, 1, 1)));
  ContactSurfaceScratch scratch;
  ContactSurface ab, ba;
  ComputeContactSurface(sphere, X_WA, box, X_WB, &scratch, &ab);
  ComputeContactSurface(box, X_WB, sphere, X_WA, &scratch, &ba);
  ASSERT_GT(ab.faces.size(), 10u);
  const V o(0.02, -0.01, 0.03);
  const V F = ab.NetForceOnB_W();
  EXPECT_GT(F.norm(), 10.0);
  EXPECT_LT((F + ba.NetForceOnB_W()).norm(), 1e-9 * F.norm());
  EXPECT_LT((ab.NetMomentOnB_W(o) + ba.NetMomentOnB_W(o)).norm(), 1e-9 * F.norm() * 0.1);
  EXPECT_NEAR(ab.TotalArea_m2(), ba.TotalArea_m2(), 1e-12);
  // The sphere sits on the box: the force on the box (B) points down, mostly.
  EXPECT_LT(F.normalized().z(), -0.9);
  // On the equal-pressure surface both pressures agree: check with each body's own field.
  ab.SwapBodies();
  EXPECT_LT((ab.NetForceOnB_W() - ba.NetForceOnB_W()).norm(), 1e-9 * F.norm());
}

TEST(CompliantCompliant, IdenticalBoxesFaceToFaceMeetMidway) {
  const V h(0.1, 0.1, 0.05);
  const auto box = MakeCompliantGeometry(Shape::Box(h), kE, 0.02);
  const double delta = 0.0062;  // total overlap: each box is compressed by δ/2
  ContactSurfaceScratch scratch;
  ContactSurface s;
  ComputeContactSurface(box, Pose(V::Zero()), box, Pose(V(0, 0, 2 * h.z() - delta)), &scratch, &s);
  ASSERT_FALSE(s.empty());
  double flat_area = 0.0;
  for (const auto& f : s.faces) {
    if (std::abs(f.normal_W.z() - 1.0) > 1e-9) continue;  // the tilted edge strips
    EXPECT_NEAR(f.centroid_W.z(), h.z() - delta / 2, 1e-12);
    EXPECT_NEAR(f.pressure_Pa, kE * (delta / 2) / h.z(), 1e-9 * kE);
    EXPECT_NEAR(f.g_A_Pa_per_m, f.g_B_Pa_per_m, 1e-9 * f.g_A_Pa_per_m);
    flat_area += f.area_m2;
  }
  // The midplane covers the face except strips of width δ/2 along the sides.
  const double inner = 4 * (h.x() - delta / 2) * (h.y() - delta / 2);
  EXPECT_NEAR(flat_area, inner, 1e-9);
  const V F = s.NetForceOnB_W();
  EXPECT_GT(F.z(), 0.0);  // pushes B (the upper box) up
  // Within δ/2 of the sides both fields are E(h_x − |x|)/r, equal in a whole volume: the
  // equal-pressure "surface" is not defined there and the tilted pieces the tet pairs give
  // depend on the mesh diagonals, so the lateral force is small but not zero.
  EXPECT_LT(F.head<2>().norm(), 0.02 * F.z());
  // Between the interior load and the exact box-on-plane load at δ/2 (the strips carry less).
  EXPECT_GT(F.z(), kE * (delta / 2) / h.z() * inner);
  EXPECT_LT(F.z(), kE * (delta / 2) / h.z() * 4 * h.x() * h.y());
}

// How deep a point (in the box's frame) lies in a box: its distance to the nearest face.
double DepthInBox(const V& half, const V& x_B) { return (half - x_B.cwiseAbs()).minCoeff(); }

// Two compliant blocks of different moduli overlapping by δ: every face's penetration is how
// deep its centroid lies in A plus how deep in B (the box field is E_h·distance/r in each face's
// region, exactly); away from B's rim that is the overlap δ itself, at the pressure of the two
// fields in series, p = δ/(r_A/E_A + r_B/E_B), where the solver's −φ0 = p/g_f is δ too.
TEST(FacePenetration, TwoCompliantBlocksPenetrateByTheirOverlap) {
  const V h_A(0.1, 0.1, 0.02), h_B(0.04, 0.04, 0.01);  // inradii r = h_z
  const double E_A = 1e6, E_B = 4e6, delta = 0.001;
  const auto A = MakeCompliantGeometry(Shape::Box(h_A), E_A, 0.01);  // two shells
  const auto B = MakeCompliantGeometry(Shape::Box(h_B), E_B, 0.005);
  const auto X_WB = Pose(V(0.013, -0.021, h_A.z() + h_B.z() - delta));
  ContactSurfaceScratch scratch;
  ContactSurface s;
  ComputeContactSurface(A, Pose(V::Zero()), B, X_WB, &scratch, &s);
  ASSERT_GT(s.faces.size(), 10u);
  const double p_series = delta / (h_A.z() / E_A + h_B.z() / E_B);
  int interior = 0;
  for (const ContactFace& f : s.faces) {
    const V c_B = X_WB.inverse() * f.centroid_W;
    EXPECT_NEAR(f.penetration_m, DepthInBox(h_A, f.centroid_W) + DepthInBox(h_B, c_B), 1e-12);
    if (std::min(h_B.x() - std::abs(c_B.x()), h_B.y() - std::abs(c_B.y())) > delta) {
      EXPECT_NEAR(f.penetration_m, delta, 1e-12);
      EXPECT_NEAR(f.pressure_Pa, p_series, 1e-9 * p_series);
      EXPECT_NEAR(-ComputeFacePointContact(f).phi0_m, delta, 1e-12);
      ++interior;
    }
  }
  EXPECT_GT(interior, static_cast<int>(s.faces.size()) / 2);
}

// A rigid box tilted by 1 mrad and sunk a few µm into a compliant pad, as the peg between
// peg_in_hole's pads: on its sides, which cut the pad's thin overlap layer, n̂ runs across the
// pad's field, so g_f = |∇p·n̂| ≈ 7e-4·E_h/r and the solver's −φ0_f = p0_f/g_f is a thousand
// times the overlap; the penetration is still the depth of the face below the pad's surface.
TEST(FacePenetration, ARigidBoxTiltedIntoAPadPenetratesByItsDepth) {
  const V h(0.02, 0.02, 0.006), h_B(0.01, 0.01, 0.04);
  const auto pad = MakeCompliantGeometry(Shape::Box(h), 2e7, 0.003);
  const auto box = MakeRigidGeometry(Shape::Box(h_B), 1.0);
  const Eigen::Matrix3d R = Rot(1e-3, V(1, 1, 0));
  const V bottom_centre(0.001, -0.002, h.z() - 3e-6);
  const auto X_WB = Pose(bottom_centre + R * V(0, 0, h_B.z()), R);
  ContactSurfaceScratch scratch;
  ContactSurface s;
  ComputeContactSurface(pad, Pose(V::Zero()), box, X_WB, &scratch, &s);
  ASSERT_GT(s.faces.size(), 4u);
  double max_penetration = 0, max_spring_offset = 0;
  int sides = 0;
  for (const ContactFace& f : s.faces) {
    EXPECT_NEAR(f.penetration_m, h.z() - f.centroid_W.z(), 1e-13);
    EXPECT_GE(f.penetration_m, 0.0);
    max_penetration = std::max(max_penetration, f.penetration_m);
    const FacePointContact c = ComputeFacePointContact(f);
    if (c.valid) max_spring_offset = std::max(max_spring_offset, -c.phi0_m);
    sides += std::abs(f.normal_W.z()) < 0.01;
  }
  EXPECT_GT(sides, 0);
  EXPECT_LT(max_penetration, 2e-5);  // 3 µm + the tilt over the half diagonal, 14 µm
  EXPECT_GT(max_spring_offset, 100 * max_penetration);
}

// A tet whose field is flat (p = E_h at every vertex: a plateau deep inside a body) or nearly
// so says nothing about how deep a point lies: its p/|∇p| is infinite, or farther than any
// point of the tet can be deep. The face has no penetration (NaN), rather than kilometres.
TEST(FacePenetration, AFlatFieldGivesNone) {
  VolumeMesh mesh;
  mesh.vertices_m = {V(0, 0, 0), V(0.01, 0, 0), V(0, 0.01, 0), V(0, 0, 0.01)};
  mesh.tets = {{0, 1, 2, 3}};
  ContactSurfaceScratch scratch;
  ContactSurface s;
  for (double base : {kE, kE * (1 - 1e-9)}) {  // rising towards the half-space's outside
    SCOPED_TRACE(base);
    const auto tet =
        CompliantGeometry::Create(mesh, PressureField::FromPressure({base, base, base, kE}));
    ComputeContactSurface(tet, Pose(V::Zero()), RigidGeometry::HalfSpace(), Pose(V(0, 0, 0.005)),
                          &scratch, &s);
    ASSERT_FALSE(s.empty());
    for (const ContactFace& f : s.faces) {
      EXPECT_GT(f.pressure_Pa, 0.9 * kE);
      EXPECT_TRUE(std::isnan(f.penetration_m)) << f.penetration_m;
    }
  }
}

TEST(FacePointContact, SolverQuantitiesAreConsistentAndFinite) {
  const auto box = MakeCompliantGeometry(Shape::Box(V(0.1, 0.1, 0.05)), kE, 0.02);
  ContactSurfaceScratch scratch;
  ContactSurface s;
  ComputeContactSurface(box, Pose(V(0, 0, 0.05 - 0.003)), RigidGeometry::HalfSpace(),
                        Pose(V::Zero()), &scratch, &s);
  ASSERT_FALSE(s.empty());
  int no_stiffness = 0;
  for (const auto& f : s.faces) {
    const auto c = ComputeFacePointContact(f);
    if (f.g_A_Pa_per_m < 1e-6 * kE) {
      // Faces in the side regions of the box field, whose gradient is horizontal: pushing
      // deeper does not raise their pressure, so they carry no normal stiffness.
      EXPECT_FALSE(c.valid);
      EXPECT_EQ(c.stiffness_N_per_m, 0.0);
      EXPECT_EQ(c.phi0_m, 0.0);
      ++no_stiffness;
      continue;
    }
    ASSERT_TRUE(c.valid);
    EXPECT_EQ(c.g_Pa_per_m, f.g_A_Pa_per_m);  // rigid partner: g_f = g of the compliant one
    EXPECT_NEAR(c.stiffness_N_per_m * -c.phi0_m, f.area_m2 * f.pressure_Pa,
                1e-12 * f.area_m2 * f.pressure_Pa);
    EXPECT_LE(c.phi0_m, 0.0);
  }
  EXPECT_GT(no_stiffness, 0);
  EXPECT_LT(no_stiffness, static_cast<int>(s.faces.size()) / 2);
  // Faces of the bottom face's region (the one nearest the box's axis, say): penetration
  // x0 = p0/g = δ exactly (distance field).
  const auto central = std::min_element(s.faces.begin(), s.faces.end(), [](auto& a, auto& b) {
    return a.centroid_W.template head<2>().norm() < b.centroid_W.template head<2>().norm();
  });
  EXPECT_NEAR(ComputeFacePointContact(*central).phi0_m, -0.003, 1e-12);

  ContactFace f;
  f.area_m2 = 1e-3;
  f.pressure_Pa = 2e4;
  f.g_A_Pa_per_m = 3e6;
  f.g_B_Pa_per_m = 6e6;
  auto c = ComputeFacePointContact(f);
  EXPECT_NEAR(c.g_Pa_per_m, 2e6, 1e-6);  // springs in series
  EXPECT_NEAR(c.stiffness_N_per_m, 2e3, 1e-9);
  EXPECT_NEAR(c.phi0_m, -0.01, 1e-15);
  // Tiny area, huge/zero/infinite gradients: finite everything.
  for (double area : {0.0, 1e-300, 1e-30}) {
    for (double gA : {0.0, 1e-300, 1.0, 1e300, kRigidPressureGradient}) {
      for (double gB : {0.0, 1e6, kRigidPressureGradient}) {
        f.area_m2 = area;
        f.g_A_Pa_per_m = gA;
        f.g_B_Pa_per_m = gB;
        c = ComputeFacePointContact(f);
        EXPECT_TRUE(std::isfinite(c.g_Pa_per_m) && std::isfinite(c.phi0_m) &&
                    std::isfinite(c.stiffness_N_per_m))
            << area << " " << gA << " " << gB;
        if (gA == 0.0 || gB == 0.0 || gA == 1e-300) {
          EXPECT_FALSE(c.valid);
          EXPECT_EQ(c.stiffness_N_per_m, 0.0);
        }
      }
    }
  }
}

}  // namespace
}  // namespace contactlab::hydroelastic
