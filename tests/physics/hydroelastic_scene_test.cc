// Hydroelastic scenes from YAML (docs/contact-model.md §5): the per-shape keys `contact_model`,
// `hydroelastic_modulus` and `resolution`, their validation, and the built-in hydro_* scenes
// against their known answers.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "physics_test_util.h"
#include "test_support/hydro_box_scene.h"

namespace contactlab {
namespace {

constexpr double kG = 9.81;

std::string OneShape(const std::string& shape) {
  return "scene: t\n"
         "bodies:\n"
         "  - name: ground\n"
         "    type: static\n"
         "    shapes: [{type: half_space}]\n"
         "  - name: b\n"
         "    mass: 1\n"
         "    shapes:\n"
         "      - " +
         shape + "\n";
}

TEST(HydroelasticScene, ParsesShapeKeys) {
  const SceneSpec s = ParseScene(
      OneShape("{type: box, size: [0.1, 0.1, 0.05], contact_model: hydroelastic_compliant, "
               "hydroelastic_modulus: 2.0e6, resolution: 0.01}"),
      "t.yaml");
  const HydroelasticProperties& h = s.bodies[1].geometries[0].hydroelastic;
  EXPECT_EQ(h.model, ContactModel::kHydroelasticCompliant);
  EXPECT_EQ(h.modulus_Pa, 2.0e6);
  EXPECT_EQ(h.resolution_m, 0.01);

  const SceneSpec d = ParseScene(OneShape("{type: sphere, radius: 0.05}"), "t.yaml");
  const HydroelasticProperties& p = d.bodies[1].geometries[0].hydroelastic;
  EXPECT_EQ(p.model, ContactModel::kPoint);
  EXPECT_EQ(p.modulus_Pa, 1e7);  // docs/contact-model.md §2.1 default
  EXPECT_EQ(p.resolution_m, 0.0);
  EXPECT_DOUBLE_EQ(DefaultHydroelasticResolution(Shape::Sphere(0.05)), 0.02);
  EXPECT_DOUBLE_EQ(DefaultHydroelasticResolution(Shape::Box({0.05, 0.05, 0.025})), 0.01);
  EXPECT_DOUBLE_EQ(DefaultHydroelasticResolution(Shape::Cylinder(0.05, 0.02)), 0.004);

  const SceneSpec r = ParseScene(
      OneShape("{type: capsule, radius: 0.02, length: 0.1, contact_model: hydroelastic_rigid}"),
      "t.yaml");
  EXPECT_EQ(r.bodies[1].geometries[0].hydroelastic.model, ContactModel::kHydroelasticRigid);
}

void ExpectError(const std::string& shape, const std::string& fragment) {
  try {
    ParseScene(OneShape(shape), "bad.yaml");
    ADD_FAILURE() << "no error for " << shape;
  } catch (const SceneError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("bad.yaml:9:"), std::string::npos) << m;  // file and line
    EXPECT_NE(m.find(fragment), std::string::npos) << m;
  }
}

TEST(HydroelasticScene, RejectsBadValuesNamingFileLineAndField) {
  ExpectError("{type: sphere, radius: 0.05, contact_model: soft}",
              "shapes[0].contact_model: unknown model 'soft'");
  ExpectError(
      "{type: sphere, radius: 0.05, contact_model: hydroelastic_compliant, "
      "hydroelastic_modulus: -1}",
      "shapes[0].hydroelastic_modulus must be positive");
  ExpectError(
      "{type: sphere, radius: 0.05, contact_model: hydroelastic_compliant, "
      "hydroelastic_modulus: .inf}",
      "hydroelastic_modulus must be finite");
  ExpectError("{type: sphere, radius: 0.05, contact_model: hydroelastic_compliant, resolution: 0}",
              "shapes[0].resolution must be positive");
  ExpectError("{type: sphere, radius: 0.05, contact_model: hydroelastic_rigid, resolution: nan}",
              "resolution");
  ExpectError("{type: sphere, radius: 0.05, hydroelastic_modulus: 1e6}",
              "hydroelastic_modulus needs contact_model: hydroelastic_compliant");
  ExpectError("{type: sphere, radius: 0.05, resolution: 0.01}", "resolution needs contact_model");
  ExpectError("{type: half_space, contact_model: hydroelastic_compliant}",
              "a half_space cannot be hydroelastic_compliant");
}

TEST(HydroelasticScene, ValidateSceneChecksProgrammaticSpecs) {
  SceneSpec s = ParseScene(OneShape("{type: sphere, radius: 0.05}"), "t.yaml");
  GeometrySpec& g = s.bodies[1].geometries[0];
  g.hydroelastic.model = ContactModel::kHydroelasticCompliant;
  g.hydroelastic.modulus_Pa = 0;
  EXPECT_THROW(ValidateScene(s), std::invalid_argument);
  g.hydroelastic.modulus_Pa = 1e6;
  g.hydroelastic.resolution_m = -1;
  EXPECT_THROW(ValidateScene(s), std::invalid_argument);
  g.hydroelastic.resolution_m = 0.01;
  EXPECT_NO_THROW(ValidateScene(s));
  s.bodies[0].geometries[0].hydroelastic.model = ContactModel::kHydroelasticCompliant;
  EXPECT_THROW(ValidateScene(s), std::invalid_argument);  // compliant half-space
}

TEST(HydroelasticScene, BoxSceneMixesHydroelasticAndPointContact) {
  World w(testing::LoadBuiltinScene("hydro_box"));
  EXPECT_EQ(testing::RunFor(&w, 1.0), 0);
  const int box = w.scene().FindBody("box"), ball = w.scene().FindBody("ball"),
            top = w.scene().FindBody("top");
  EXPECT_NEAR(w.NetNormalForce(box).z(), 1.0 * kG, 1e-3 * kG);
  EXPECT_NEAR(w.NetNormalForce(ball).z(), 0.2 * kG, 1e-3 * 0.2 * kG);
  EXPECT_NEAR(w.NetNormalForce(top).z(), 0.3 * kG, 1e-3 * 0.3 * kG);
  ASSERT_EQ(w.hydroelastic_patches().size(), 1u);
  EXPECT_NEAR(w.hydroelastic_patches()[0].surface->TotalArea_m2(), 0.01, 1e-9);
  // Bottom-region pressure E_h δ/r with δ from the box height.
  const double delta = 0.025 - w.BodyPose(box).translation().z();
  double max_p = 0;
  for (const ContactResult& c : w.contacts()) max_p = std::max(max_p, c.pressure_Pa);
  EXPECT_NEAR(max_p, 1e5 * delta / 0.025, 1e-6 * max_p);
}

TEST(HydroelasticScene, CodeBuiltHydroBoxIsTheYamlScene) {
  // test_support/hydro_box_scene.h stands in for assets/scenes/hydro_box.yaml in the tests that
  // do not load YAML: the two must not drift apart.
  const SceneSpec yaml = testing::LoadBuiltinScene("hydro_box");
  const SceneSpec code = testing::HydroBoxScene();
  EXPECT_EQ(code.name, yaml.name);
  EXPECT_EQ(code.contact_settings.dt_s, yaml.contact_settings.dt_s);
  EXPECT_EQ(code.contact_settings.approximation, yaml.contact_settings.approximation);
  ASSERT_EQ(code.bodies.size(), yaml.bodies.size());
  for (size_t b = 0; b < yaml.bodies.size(); ++b) {
    const SceneBody &y = yaml.bodies[b], &c = code.bodies[b];
    SCOPED_TRACE(y.body.name);
    EXPECT_EQ(c.body.name, y.body.name);
    EXPECT_EQ(c.kind, y.kind);
    EXPECT_TRUE(c.initial_pose.isApprox(y.initial_pose, 1e-12));
    if (y.kind != SceneBody::Kind::kDynamic) continue;
    EXPECT_EQ(c.body.inertia.mass_kg, y.body.inertia.mass_kg);
    EXPECT_TRUE(
        c.body.inertia.inertia_about_com_B.isApprox(y.body.inertia.inertia_about_com_B, 1e-12));
    EXPECT_EQ(c.initial_velocity, y.initial_velocity);
    ASSERT_EQ(c.geometries.size(), y.geometries.size());
    for (size_t g = 0; g < y.geometries.size(); ++g) {
      const GeometrySpec &gy = y.geometries[g], &gc = c.geometries[g];
      EXPECT_EQ(gc.shape.type, gy.shape.type);
      EXPECT_EQ(gc.shape.radius_m, gy.shape.radius_m);
      EXPECT_EQ(gc.shape.half_extents_m, gy.shape.half_extents_m);
      EXPECT_TRUE(gc.X_BG.isApprox(gy.X_BG));
      EXPECT_EQ(gc.contact.stiffness_N_per_m, gy.contact.stiffness_N_per_m);
      EXPECT_EQ(gc.contact.hunt_crossley_s_per_m, gy.contact.hunt_crossley_s_per_m);
      EXPECT_EQ(gc.contact.relaxation_time_s, gy.contact.relaxation_time_s);
      EXPECT_EQ(gc.contact.friction, gy.contact.friction);
      EXPECT_EQ(gc.hydroelastic.model, gy.hydroelastic.model);
      if (gy.hydroelastic.model == ContactModel::kHydroelasticCompliant) {
        EXPECT_EQ(gc.hydroelastic.modulus_Pa, gy.hydroelastic.modulus_Pa);
        EXPECT_EQ(gc.hydroelastic.resolution_m, gy.hydroelastic.resolution_m);
      }
    }
  }
}

TEST(HydroelasticScene, SpinSceneSlipsAboveTwoThirdsMuFr) {
  // 0.37 N m > (2/3)·0.5·14.715 N·0.05 m = 0.245 N m: it spins up with I ω̇ = τ − (2/3) μ F r.
  World w(testing::LoadBuiltinScene("hydro_spin"));
  const int disk = w.scene().FindBody("disk");
  const int dof = w.multibody().velocity_start(w.multibody_index(disk));
  EXPECT_EQ(testing::RunFor(&w, 0.5), 0);
  const double w0 = w.v()[dof], t0 = w.time();
  EXPECT_EQ(testing::RunFor(&w, 0.2), 0);
  const double rate = (w.v()[dof] - w0) / (w.time() - t0);
  const double I = 0.5 * 1.0 * 0.05 * 0.05;
  const double scrub = 2.0 / 3.0 * 0.5 * 1.5 * kG * 0.05;
  EXPECT_NEAR(I * rate, 0.37 - scrub, 0.1 * scrub);
}

}  // namespace
}  // namespace contactlab
