// Live hydroelastic parameters (issue 5): a geometry's E_h and mesh resolution replaced between
// steps by a representation built elsewhere (BuildHydroelasticRepresentation, then
// World::SetHydroelasticGeometry). Known answers: the tet count of a cube's shelled mesh at two
// resolutions; the pressure of a box pressed flat by δ, p = E_h·δ/r (docs/contact-model.md §5, the
// box field ε = distance to the surface / inradius r), scaling exactly with E_h at the same
// penetration; bad values rejected with one line and nothing changed.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "engine/world/world.h"

namespace contactlab {
namespace {

// Geometry g's representation rebuilt from the one in force with a new E_h and/or resolution.
HydroelasticRepresentation Rebuild(const World& w, int g, std::optional<double> modulus_Pa,
                                   std::optional<double> resolution_m) {
  const GeometrySpec& spec = w.geometry(g);
  return BuildHydroelasticRepresentation(spec.name, spec.shape, spec.hydroelastic,
                                         {modulus_Pa, resolution_m},
                                         &w.hydroelastic_representation(g));
}

SceneBody Ground() {
  SceneBody ground;
  ground.kind = SceneBody::Kind::kStatic;
  ground.body.name = "ground";
  GeometrySpec plane;
  plane.name = "plane";
  plane.shape = Shape::HalfSpace();
  plane.contact.stiffness_N_per_m = INFINITY;
  ground.geometries.push_back(plane);
  return ground;
}

// Scene: ground (geometry 0), a compliant box (geometry 1) resting on it, a rigid-hydroelastic
// ball (geometry 2) and a point-contact ball (geometry 3) off to the side.
SceneSpec BoxScene(const Eigen::Vector3d& half, double modulus_Pa, double resolution_m) {
  SceneSpec s;
  s.name = "live";
  s.contact_settings.dt_s = 1e-3;
  s.bodies.push_back(Ground());
  auto add = [&](const std::string& name, const GeometrySpec& g, const Eigen::Vector3d& p) {
    SceneBody b;
    b.body.name = name;
    b.geometries.push_back(g);
    b.body.inertia.mass_kg = 1.0;
    b.body.inertia.inertia_about_com_B = SolidInertia(g.shape, 1.0);
    b.initial_pose.translation() = p;
    b.initial_velocity = Eigen::VectorXd::Zero(6);
    s.bodies.push_back(b);
  };
  GeometrySpec box;
  box.name = "box";
  box.shape = Shape::Box(half);
  box.hydroelastic.model = ContactModel::kHydroelasticCompliant;
  box.hydroelastic.modulus_Pa = modulus_Pa;
  box.hydroelastic.resolution_m = resolution_m;
  add("box", box, Eigen::Vector3d(0, 0, half.z()));
  GeometrySpec ball;
  ball.name = "rigid_ball";
  ball.shape = Shape::Sphere(0.02);
  ball.hydroelastic.model = ContactModel::kHydroelasticRigid;
  add("rigid_ball", ball, Eigen::Vector3d(0.5, 0, 0.02));
  ball.name = "point_ball";
  ball.hydroelastic.model = ContactModel::kPoint;
  add("point_ball", ball, Eigen::Vector3d(-0.5, 0, 0.02));
  return s;
}

constexpr int kGround = 0, kBox = 1, kRigidBall = 2, kPointBall = 3;  // geometries

TEST(HydroelasticLive, ResolutionChangeRemeshesAndKeepsTheState) {
  // A 10 cm cube (h = 5 cm, inradius r = h: its medial box is the centre, so every shell is a
  // scaled copy of the surface). At edge e the surface grid has m = 2⌈h/e⌉ intervals per side
  // (the kink at 0 is a vertex line), 12 m² triangles; n = max(2, ⌈r/e⌉) shells give one core
  // tet per triangle plus 3 per outer shell: tets = 12 m² (3n − 2).
  //   e = 25 mm: m = 4, n = 2 → 192 · 4 = 768;  e = 12.5 mm: m = 8, n = 4 → 768 · 10 = 7680.
  World w(BoxScene(Eigen::Vector3d::Constant(0.05), 1e5, 0.025));
  EXPECT_EQ(w.hydroelastic_representation(kBox).num_tets(), 768);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(w.Step());
  const Eigen::VectorXd q = w.q(), v = w.v();
  const double t = w.time();

  HydroelasticRepresentation fine = Rebuild(w, kBox, std::nullopt, 0.0125);
  EXPECT_EQ(fine.num_tets(), 7680);
  EXPECT_EQ(fine.resolution_m, 0.0125);
  EXPECT_EQ(fine.modulus_Pa, 1e5);
  w.SetHydroelasticGeometry(kBox, std::move(fine));
  EXPECT_EQ(w.hydroelastic_representation(kBox).num_tets(), 7680);
  EXPECT_EQ(w.hydroelastic_properties(kBox).resolution_m, 0.0125);
  EXPECT_EQ(w.hydroelastic_properties(kBox).modulus_Pa, 1e5);
  // The state is untouched; stepping goes on from it with the new mesh.
  EXPECT_EQ(w.q(), q);
  EXPECT_EQ(w.v(), v);
  EXPECT_EQ(w.time(), t);
  ASSERT_TRUE(w.Step());
  ASSERT_EQ(w.hydroelastic_patches().size(), 1u);
  // Reset restores the state, not the parameters (like the contact overrides).
  w.Reset();
  EXPECT_EQ(w.hydroelastic_representation(kBox).num_tets(), 7680);

  // A rigid mesh is rebuilt too: a sphere's surface gets finer.
  const int coarse_triangles = w.hydroelastic_representation(kRigidBall).num_triangles();
  HydroelasticRepresentation rigid = Rebuild(w, kRigidBall, std::nullopt, 0.002);
  w.SetHydroelasticGeometry(kRigidBall, std::move(rigid));
  EXPECT_GT(w.hydroelastic_representation(kRigidBall).num_triangles(), 4 * coarse_triangles);
  EXPECT_EQ(w.hydroelastic_properties(kRigidBall).resolution_m, 0.002);
}

// Steps once from the box pressed δ into the ground at rest; returns the patch faces.
std::vector<ContactResult> PressedFaces(World* w, double delta_m, double half_z_m) {
  Eigen::VectorXd q = w->q();
  Eigen::VectorXd v = Eigen::VectorXd::Zero(w->v().size());
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(0, 0, half_z_m - delta_m);
  w->multibody().SetFloatingPose(w->multibody_index(kBox), X, &q);
  w->SetState(q, v);
  EXPECT_TRUE(w->Step());
  std::vector<ContactResult> faces;
  for (const ContactResult& c : w->contacts()) {
    if (c.hydroelastic_patch >= 0) faces.push_back(c);
  }
  return faces;
}

TEST(HydroelasticLive, ModulusChangeScalesThePressureExactly) {
  // Box 10 × 10 × 5 cm (inradius r = 2.5 cm) pressed δ = 1 mm into the plane: every face more
  // than δ from the sides is in the bottom region, where p0_f = E_h·δ/r (the field is the exact
  // distance field there, hydroelastic/README.md). Changing E_h rescales p = E_h·ε without
  // re-meshing, so the same faces come back with p multiplied by the ratio: exactly for a
  // power of two (×4), to rounding otherwise.
  const Eigen::Vector3d half(0.05, 0.05, 0.025);
  const double r = 0.025, delta = 1e-3;
  World w(BoxScene(half, 1e5, 0.01));
  const std::vector<ContactResult> before = PressedFaces(&w, delta, half.z());
  ASSERT_GT(before.size(), 100u);
  int interior = 0;
  for (const ContactResult& c : before) {
    if (c.position_W.head<2>().cwiseAbs().maxCoeff() > half.x() - delta) continue;
    EXPECT_NEAR(c.pressure_Pa, 1e5 * delta / r, 1e-9 * 1e5 * delta / r);
    ++interior;
  }
  EXPECT_GT(interior, 100);

  const auto* old_mesh = &w.hydroelastic_representation(kBox).compliant->mesh;
  HydroelasticRepresentation stiffer = Rebuild(w, kBox, 4e5, std::nullopt);
  EXPECT_EQ(stiffer.modulus_Pa, 4e5);
  EXPECT_EQ(stiffer.resolution_m, 0.01);
  // The same mesh (vertex for vertex), the field scaled.
  EXPECT_EQ(stiffer.compliant->mesh.vertices_m, old_mesh->vertices_m);
  EXPECT_EQ(stiffer.compliant->mesh.tets, old_mesh->tets);
  EXPECT_EQ(stiffer.compliant->field.hydroelastic_modulus_Pa, 4e5);
  w.SetHydroelasticGeometry(kBox, std::move(stiffer));
  EXPECT_EQ(w.hydroelastic_properties(kBox).modulus_Pa, 4e5);

  const std::vector<ContactResult> after = PressedFaces(&w, delta, half.z());
  ASSERT_EQ(after.size(), before.size());
  for (size_t f = 0; f < after.size(); ++f) {
    EXPECT_EQ(after[f].face_area_m2, before[f].face_area_m2);
    EXPECT_EQ(after[f].pressure_Pa, 4.0 * before[f].pressure_Pa) << "face " << f;
  }

  // A ratio that is not a power of two: p = E_h δ/r to rounding.
  w.SetHydroelasticGeometry(kBox, Rebuild(w, kBox, 3e5, std::nullopt));
  const std::vector<ContactResult> third = PressedFaces(&w, delta, half.z());
  ASSERT_EQ(third.size(), before.size());
  for (size_t f = 0; f < third.size(); ++f) {
    EXPECT_NEAR(third[f].pressure_Pa, 3.0 * before[f].pressure_Pa, 1e-12 * third[f].pressure_Pa);
    if (third[f].position_W.head<2>().cwiseAbs().maxCoeff() <= half.x() - delta) {
      EXPECT_NEAR(third[f].pressure_Pa, 3e5 * delta / r, 1e-9 * 3e5 * delta / r);
    }
  }
}

// The message of the std::invalid_argument `f` throws ("" if it does not).
template <typename F>
std::string Rejection(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(HydroelasticLive, BadValuesAreRejectedWithOneLine) {
  World w(BoxScene(Eigen::Vector3d(0.05, 0.05, 0.025), 1e5, 0.01));
  const GeometrySpec& box = w.geometry(kBox);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto build = [&](int g, std::optional<double> modulus, std::optional<double> resolution) {
    return Rejection([&] { Rebuild(w, g, modulus, resolution); });
  };
  for (double bad : {0.0, -1e5, nan, inf}) {
    const std::string m = build(kBox, bad, std::nullopt);
    EXPECT_NE(m.find("geometry 'box': the hydroelastic modulus must be positive and finite"),
              std::string::npos)
        << m;
  }
  for (double bad : {0.0, -0.01, nan, inf}) {
    const std::string m = build(kBox, std::nullopt, bad);
    EXPECT_NE(m.find("the mesh resolution must be positive and finite"), std::string::npos) << m;
  }
  // Coarser than the shape (largest side 10 cm).
  EXPECT_NE(build(kBox, std::nullopt, 0.2).find("coarser than the shape"), std::string::npos);
  // Too fine: 0.5 mm would be ~ 8e7 tets; the message names the finest allowed.
  const std::string fine = build(kBox, std::nullopt, 5e-4);
  EXPECT_NE(fine.find("too fine"), std::string::npos) << fine;
  EXPECT_NE(fine.find("finest allowed"), std::string::npos) << fine;
  EXPECT_NE(build(kRigidBall, 1e6, std::nullopt).find("only a hydroelastic_compliant geometry"),
            std::string::npos);
  EXPECT_NE(build(kPointBall, std::nullopt, 0.01).find("uses point contact"), std::string::npos);
  EXPECT_NE(build(kGround, std::nullopt, 0.01).find("half-space"), std::string::npos);
  EXPECT_NE(build(kGround, 1e6, std::nullopt).find("half-space"), std::string::npos);
  // Every message is one line.
  for (const std::string& m : {fine, build(kBox, nan, std::nullopt)}) {
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }

  // A good value just inside the limit builds; the swap itself checks index and model.
  const HydroelasticRepresentation rigid = w.hydroelastic_representation(kRigidBall);
  EXPECT_THROW(w.SetHydroelasticGeometry(7, rigid), std::invalid_argument);
  EXPECT_THROW(w.SetHydroelasticGeometry(-1, rigid), std::invalid_argument);
  EXPECT_THROW(w.SetHydroelasticGeometry(kBox, rigid), std::invalid_argument);
  EXPECT_THROW(w.SetHydroelasticGeometry(kPointBall, rigid), std::invalid_argument);
  HydroelasticRepresentation empty;
  empty.model = ContactModel::kHydroelasticCompliant;
  EXPECT_THROW(w.SetHydroelasticGeometry(kBox, empty), std::invalid_argument);
  // Nothing changed.
  EXPECT_EQ(w.hydroelastic_properties(kBox).modulus_Pa, box.hydroelastic.modulus_Pa);
  EXPECT_EQ(w.hydroelastic_representation(kBox).resolution_m, 0.01);
  EXPECT_NE(w.hydroelastic_representation(kBox).compliant, nullptr);
}

}  // namespace
}  // namespace contactlab
