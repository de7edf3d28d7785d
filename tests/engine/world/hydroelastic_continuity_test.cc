// Continuity of the hydroelastic patch under motion (docs/contact-model.md §5; pressure-field paper
// §VI-B.2): a compliant box moved slowly across a rigid round table — sliding, sliding tilted,
// and turning about the vertical — sees tet ∩ face polygons appear and vanish every few steps,
// yet the net force and moment of the patch must not jump. The table is a cylinder: its cap's
// triangles merge into thin radial wedges (a disk of ~100 corners is no face of ≤ 8;
// rigid_faces.h), whose seams meet at the centre and sweep through the box's tets as it moves (a
// box table's top would be one face, cutting nothing).
//
// Why the force is exact and the moment nearly so. Each face lies inside one tet, where the
// pressure is linear, and is integrated at its centroid c: exact for the force ∫p n̂ dA, so the
// force does not depend on how the table's triangles cut the slice through the box at all (only
// rounding changes from step to step). The moment integrand (x − o) × n̂ p(x) is quadratic; the
// centroid rule's error on a face T (area A_f, diameter D_f) is
//   e_f = ∫_T (x − c) × n̂ (∇_t p · (x − c)) dA,
// ∇_t p the pressure gradient along the face (its normal part does not enter). The box's field
// is the distance-to-surface field over the inradius r (hydroelastic/README.md): |∇p| = E_h/r in
// every tet, and ∇_t p ≠ 0 only
//  - in side-region tets: there ∇p is the side's inward normal, across the strip of the slice
//    within `w` (the slice's depth) of the sides, and the face is part of that strip, so
//    |∇_t p · (x − c)| ≤ (E_h/r) w and |e_f| ≤ (E_h/r) A_f D_f w;
//  - when the box is tilted by θ, (E_h/r) sin θ in every bottom-region tet, where
//    |e_f| ≤ (E_h/r) sin θ ∫_T |x − c|² dA = (E_h/r) sin θ A_f (a² + b² + c²)/36
//        ≤ (E_h/r) sin θ A_f D_f² / 12   (a, b, c the sides of T).
// The exact moment about the box centre is the same at every step (the motion carries the
// pressure distribution with the box), so between two steps the moment may change by at most
// twice the summed error bound:
//   |ΔM| ≤ 2 (E_h/r) (A_strip w D + A sin θ D² / 12),   A_strip = perimeter · w,
// D the diameter of a tet (faces are pieces of tets): D² = 2 e² + (r/n)² for the grid spacing
// e ≤ resolution on the surface and the n = ⌈r/resolution⌉ shells. A polygon appearing with a
// finite area (the failure this guards against) would jump the force by A_f p, far above the
// force's rounding tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "engine/world/world.h"

namespace contactlab {
namespace {

const Eigen::Vector3d kHalf(0.05, 0.05, 0.025);  // box 10 × 10 × 5 cm
constexpr double kModulus = 1e5;                 // E_h [Pa]
constexpr double kResolution = 0.01;             // tet mesh edge [m]
constexpr double kInradius = 0.025;              // r
constexpr double kDepth = 1e-3;                  // δ: the box centre's depth into the table [m]

SceneSpec BoxOnMeshTable() {
  SceneSpec s;
  s.name = "continuity";
  s.contact_settings.dt_s = 1e-3;
  SceneBody table;
  table.kind = SceneBody::Kind::kStatic;
  table.body.name = "table";
  GeometrySpec top;
  top.name = "table";
  top.shape = Shape::Cylinder(0.5, 0.1);
  top.X_BG.translation() = Eigen::Vector3d(0, 0, -0.05);  // top face at z = 0
  top.contact.stiffness_N_per_m = INFINITY;
  top.hydroelastic.model = ContactModel::kHydroelasticRigid;
  top.hydroelastic.resolution_m = 0.03;  // 3 cm triangles: ~100 wedges round the centre
  table.geometries.push_back(top);
  s.bodies.push_back(table);
  SceneBody box;
  box.body.name = "box";
  GeometrySpec g;
  g.name = "box";
  g.shape = Shape::Box(kHalf);
  g.hydroelastic.model = ContactModel::kHydroelasticCompliant;
  g.hydroelastic.modulus_Pa = kModulus;
  g.hydroelastic.resolution_m = kResolution;
  box.geometries.push_back(g);
  box.body.inertia.mass_kg = 1.0;
  box.body.inertia.inertia_about_com_B = SolidInertia(g.shape, 1.0);
  box.initial_pose.translation() = Eigen::Vector3d(0, 0, kHalf.z());
  box.initial_velocity = Eigen::VectorXd::Zero(6);
  s.bodies.push_back(box);
  return s;
}

struct Motion {
  Eigen::Vector2d velocity_m_per_s = Eigen::Vector2d::Zero();  // of the box centre
  double spin_rad_per_s = 0;                                   // about the vertical
  double tilt_rad = 0;                                         // about the box's y axis
};

struct PatchWrench {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();   // on the box [N]
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();  // on the box, about its centre [N m]
  int faces = 0;
};

// Poses the box (at rest) along the prescribed motion at step k, steps, and returns the wrench
// of the patch the step computed at that pose.
PatchWrench StepAt(World* w, const Motion& m, int k) {
  const double t = k * w->dt();
  const int box = w->scene().FindBody("box");
  // Centre depth δ below the table top along the (tilted) box axis.
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = (Eigen::AngleAxisd(m.spin_rad_per_s * t, Eigen::Vector3d::UnitZ()) *
                Eigen::AngleAxisd(m.tilt_rad, Eigen::Vector3d::UnitY()))
                   .toRotationMatrix();
  X.translation().head<2>() = Eigen::Vector2d(0.013, -0.007) + m.velocity_m_per_s * t;
  X.translation().z() = (kHalf.z() - kDepth) * std::cos(m.tilt_rad);
  Eigen::VectorXd q = w->q();
  w->multibody().SetFloatingPose(w->multibody_index(box), X, &q);
  w->SetState(q, Eigen::VectorXd::Zero(w->v().size()));
  EXPECT_TRUE(w->Step());
  PatchWrench r;
  EXPECT_EQ(w->hydroelastic_patches().size(), 1u);
  if (w->hydroelastic_patches().empty()) return r;
  const hydroelastic::ContactSurface& s = *w->hydroelastic_patches()[0].surface;
  // A is the compliant box, B the table: the box gets minus the force on B.
  r.force = -s.NetForceOnB_W();
  r.moment = -s.NetMomentOnB_W(X.translation());
  r.faces = static_cast<int>(s.faces.size());
  return r;
}

// The bound above for this mesh; `strip_width_m` is w, the slice's largest depth.
double MomentJumpTolerance(double tilt_rad, double strip_width_m) {
  const double n = std::ceil(kInradius / kResolution);  // shells
  const double D = std::sqrt(2 * kResolution * kResolution + (kInradius / n) * (kInradius / n));
  const double area = 4 * kHalf.x() * kHalf.y();
  const double strip_area = 4 * (2 * kHalf.x()) * strip_width_m;
  return 2 * (kModulus / kInradius) *
         (strip_area * strip_width_m * D + area * std::sin(tilt_rad) * D * D / 12);
}

void ExpectContinuous(const Motion& m, double moment_tolerance, double exact_force_z = 0) {
  World w(BoxOnMeshTable());
  constexpr int kSteps = 300;
  PatchWrench previous = StepAt(&w, m, 0);
  ASSERT_GT(previous.faces, 0);
  const double F = previous.force.z();
  if (exact_force_z > 0) {
    EXPECT_NEAR(F, exact_force_z, 1e-9 * exact_force_z);
  }
  int face_count_changes = 0;
  double max_force_jump = 0, max_moment_jump = 0;
  for (int k = 1; k < kSteps; ++k) {
    const PatchWrench now = StepAt(&w, m, k);
    if (now.faces != previous.faces) ++face_count_changes;
    // The force does not depend on the partition: only rounding (a lost or doubled polygon of
    // a 1 cm tet would be ~1e-2 F).
    const double force_jump = (now.force - previous.force).norm();
    const double moment_jump = (now.moment - previous.moment).norm();
    EXPECT_LE(force_jump, 1e-9 * F) << "step " << k;
    EXPECT_LE(moment_jump, moment_tolerance) << "step " << k;
    if (exact_force_z > 0) {
      EXPECT_NEAR(now.force.z(), exact_force_z, 1e-9 * exact_force_z) << "step " << k;
      EXPECT_LE(now.force.head<2>().norm(), 1e-9 * exact_force_z) << "step " << k;
    }
    max_force_jump = std::max(max_force_jump, force_jump);
    max_moment_jump = std::max(max_moment_jump, moment_jump);
    previous = now;
  }
  // The motion really does make polygons appear and vanish.
  EXPECT_GT(face_count_changes, 20);
  std::printf(
      "F = %.6f N, max |ΔF| = %.3g N, max |ΔM| = %.3g N m (tolerance %.3g), %d face-count "
      "changes\n",
      F, max_force_jump, max_moment_jump, moment_tolerance, face_count_changes);
}

// Flat box pressed δ: p = (E_h/r)·min(δ, distance to the nearest side) over the a × b bottom, so
// F = (E_h/r)·[δ (a − 2δ)(b − 2δ) + ∫_0^δ s·2((a − 2s) + (b − 2s)) ds]
//   = (E_h/r)·[δ (a − 2δ)(b − 2δ) + (a + b) δ² − (8/3) δ³].
double FlatForce() {
  const double a = 2 * kHalf.x(), b = 2 * kHalf.y(), d = kDepth;
  return kModulus / kInradius *
         (d * (a - 2 * d) * (b - 2 * d) + (a + b) * d * d - 8.0 / 3.0 * d * d * d);
}

TEST(HydroelasticContinuity, SlidingFlat) {
  Motion m;
  m.velocity_m_per_s = Eigen::Vector2d(0.1, 0.037);  // 0.1 mm per step, 3 cm in all
  ExpectContinuous(m, MomentJumpTolerance(0, kDepth), FlatForce());
}

TEST(HydroelasticContinuity, SlidingTilted) {
  Motion m;
  m.velocity_m_per_s = Eigen::Vector2d(0.1, 0.037);
  m.tilt_rad = 1.0 * std::numbers::pi / 180;  // the depth varies 0.13 … 1.87 mm across the box
  const double deepest = kDepth + kHalf.x() * std::sin(m.tilt_rad);
  ExpectContinuous(m, MomentJumpTolerance(m.tilt_rad, deepest));
}

TEST(HydroelasticContinuity, TurningAboutTheVertical) {
  Motion m;
  m.spin_rad_per_s = 1.0;  // 1 mrad per step, 17° in all
  ExpectContinuous(m, MomentJumpTolerance(0, kDepth), FlatForce());
}

}  // namespace
}  // namespace contactlab
