// Scene files: every built-in loads; bad input gives one clear message naming file and field.
#include "io/scene_loader.h"

#include <gtest/gtest.h>
#include <spdlog/fmt/fmt.h>

#include <filesystem>
#include <string>

#include "test_support/build_paths.h"

namespace contactlab {
namespace {

const char* kValidBody = R"(
bodies:
  - name: ground
    type: static
    shapes: [{type: half_space}]
  - name: ball
    mass: 1.0
    position: [0, 0, 0.1]
    shapes: [{type: sphere, radius: 0.05}]
)";

std::string ErrorOf(const std::string& yaml) {
  try {
    ParseScene(yaml, "bad.yaml");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(SceneLoader, EveryBuiltinSceneLoads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           contactlab::testing::SourceDirectory() + "/assets/scenes")) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    EXPECT_NO_THROW(LoadSceneFile(entry.path().string()));
    ++count;
  }
  EXPECT_GE(count, 6);
}

TEST(SceneLoader, ValidSceneParses) {
  const SceneSpec s = ParseScene(std::string("dt: 0.002\n") + kValidBody, "ok.yaml");
  ASSERT_EQ(s.bodies.size(), 2u);
  EXPECT_DOUBLE_EQ(s.contact_settings.dt_s, 0.002);
  EXPECT_DOUBLE_EQ(s.bodies[1].body.inertia.mass_kg, 1.0);
  // Solid sphere inertia 2/5 m r².
  EXPECT_NEAR(s.bodies[1].body.inertia.inertia_about_com_B(0, 0), 0.4 * 0.05 * 0.05, 1e-15);
}

TEST(SceneLoader, RegularizedLaggedIsAModelAndTheOldKeyStillSelectsIt) {
  EXPECT_EQ(ParseScene(std::string("model: regularized_lagged\n") + kValidBody, "m.yaml")
                .contact_settings.approximation,
            ContactApproximation::kRegularizedLagged);
  EXPECT_EQ(
      ParseScene(std::string("model: lagged\nregularized_lagged: true\n") + kValidBody, "m.yaml")
          .contact_settings.approximation,
      ContactApproximation::kRegularizedLagged);
  const std::string error =
      ErrorOf(std::string("model: sap\nregularized_lagged: true\n") + kValidBody);
  EXPECT_NE(error.find("bad.yaml:2"), std::string::npos) << error;
  EXPECT_NE(error.find("needs model: lagged"), std::string::npos) << error;
}

TEST(SceneLoader, IntegratorAccuracyAndDtMax) {
  const auto settings = [](const std::string& keys) {
    return ParseScene(keys + kValidBody, "i.yaml").contact_settings;
  };
  EXPECT_EQ(settings("integrator: midpoint\n").integrator, TimeIntegration::Midpoint());
  EXPECT_EQ(settings("integrator: theta:0.25,1\n").integrator, TimeIntegration::Theta(0.25, 1));
  const ContactSettings controlled = settings("accuracy: 1.0e-4\ndt_max: 0.02\n");
  EXPECT_EQ(controlled.integrator, TimeIntegration::ErrorControlled(1e-4));
  EXPECT_EQ(controlled.dt_s, 0.02);
  for (const auto& [keys, message] :
       {std::pair<std::string, std::string>{"integrator: rk4\n", "bad.yaml:1"},
        {"integrator: midpoint\naccuracy: 1.0e-3\n", "accuracy applies to integrator"},
        {"dt: 0.001\ndt_max: 0.01\n", "dt and dt_max exclude each other"},
        {"accuracy: 5\n", "accuracy must be in [1e-8, 1]"},
        {"integrator: theta:2,0\n", "integrator θ must be in [0, 1]"}}) {
    const std::string error = ErrorOf(keys + kValidBody);
    EXPECT_NE(error.find(message), std::string::npos) << keys << ": " << error;
  }
}

// The rigid model's name and the restitution key of a contact block (docs/contact-model.md §8).
TEST(SceneLoader, RigidModelAndRestitution) {
  const SceneSpec s = ParseScene(R"(
model: drumwright_shell
default_contact: {restitution: 0.5}
bodies:
  - {name: ground, type: static, shapes: [{type: half_space, restitution: 0.25}]}
  - {name: ball, mass: 1.0, shapes: [{type: sphere, radius: 0.1}]}
)",
                                 "r.yaml");
  EXPECT_EQ(s.contact_settings.approximation, ContactApproximation::kDrumwrightShell);
  EXPECT_EQ(s.bodies[0].geometries[0].contact.restitution, 0.25);
  EXPECT_EQ(s.bodies[1].geometries[0].contact.restitution, 0.5);
  const std::string error = ErrorOf(R"(
bodies: [{name: ground, type: static, shapes: [{type: half_space, restitution: 1.5}]}]
)");
  EXPECT_NE(error.find("restitution"), std::string::npos) << error;
}

// contact_overrides replace every pair's value, as --stiffness and its kin do; what
// `contactlab calibrate` writes.
TEST(SceneLoader, ContactOverridesAreTheSettingsPairOverrides) {
  const SceneSpec s = ParseScene(R"(
contact_overrides: {stiffness: 2.0e5, hunt_crossley: 3, relaxation_time: 0.01, friction: 0.4,
                    restitution: 0.2}
bodies: [{name: ball, mass: 1.0, shapes: [{type: sphere, radius: 0.1}]}]
)",
                                 "o.yaml");
  EXPECT_EQ(s.contact_settings.stiffness_N_per_m, 2.0e5);
  EXPECT_EQ(s.contact_settings.hunt_crossley_s_per_m, 3);
  EXPECT_EQ(s.contact_settings.relaxation_time_s, 0.01);
  EXPECT_EQ(s.contact_settings.friction, 0.4);
  EXPECT_EQ(s.contact_settings.restitution, 0.2);
  const SceneSpec none =
      ParseScene("bodies: [{name: b, mass: 1, shapes: [{type: sphere, radius: 1}]}]", "n.yaml");
  EXPECT_FALSE(none.contact_settings.stiffness_N_per_m.has_value());
  for (const char* bad : {"contact_overrides: {stiffness: 0}", "contact_overrides: {friction: -1}",
                          "contact_overrides: {restitution: 2}", "contact_overrides: {grip: 1}",
                          "contact_overrides: 3"}) {
    const std::string error = ErrorOf(
        std::string(bad) + "\nbodies: [{name: b, mass: 1, shapes: [{type: sphere, radius: 1}]}]\n");
    EXPECT_NE(error.find("contact_overrides"), std::string::npos) << bad << ": " << error;
  }
}

TEST(SceneLoader, ContactPairsNameTwoBodiesAndTheirOwnValues) {
  const std::string bodies = R"(
bodies:
  - {name: ground, type: static, shapes: [{type: half_space}]}
  - {name: ball, mass: 1.0, shapes: [{type: sphere, radius: 0.1}]}
)";
  const SceneSpec s = ParseScene(bodies + R"(
contact_pairs: [{bodies: [ball, ground], friction: 0.3, stiffness: 1.0e5}]
)",
                                 "p.yaml");
  ASSERT_EQ(s.contact_pairs.size(), 1u);
  EXPECT_TRUE(s.contact_pairs[0].Joins(0, 1));
  EXPECT_EQ(s.contact_pairs[0].friction, 0.3);
  EXPECT_EQ(s.contact_pairs[0].stiffness_N_per_m, 1e5);
  EXPECT_FALSE(s.contact_pairs[0].hunt_crossley_s_per_m.has_value());
  const std::pair<const char*, const char*> bad[] = {
      {"contact_pairs: [{bodies: [ball, crate], friction: 0.3}]", "no body named 'crate'"},
      {"contact_pairs: [{bodies: [ball], friction: 0.3}]", "needs bodies"},
      {"contact_pairs: [{bodies: [ball, ball], friction: 0.3}]", "two distinct bodies"},
      {"contact_pairs: [{bodies: [ball, ground]}, {bodies: [ground, ball]}]", "listed twice"},
      {"contact_pairs: [{bodies: [ball, ground], friction: -1}]", "friction"},
      {"contact_pairs: [{bodies: [ball, ground], grip: 1}]", "grip"},
      {"contact_pairs: 3", "must be a list"}};
  for (const auto& [text, message] : bad) {
    const std::string error = ErrorOf(bodies + text + "\n");
    EXPECT_NE(error.find(message), std::string::npos) << text << ": " << error;
  }
}

TEST(SceneLoader, ClutterGeneratorMakesTheRequestedBodies) {
  const SceneSpec s = ParseScene(R"(
bodies: [{name: ground, type: static, shapes: [{type: half_space}]}]
generators: [{type: clutter, count: 40}]
)",
                                 "c.yaml");
  int dynamic = 0;
  for (const SceneBody& b : s.bodies) dynamic += b.kind == SceneBody::Kind::kDynamic;
  EXPECT_EQ(dynamic, 40);
}

// Whether a point (block frame) is inside any of the block's boxes.
bool InsideBlock(const SceneBody& block, const Eigen::Vector3d& p_B) {
  for (const GeometrySpec& g : block.geometries) {
    const Eigen::Vector3d p_G = g.X_BG.inverse() * p_B;
    if ((p_G.cwiseAbs() - g.shape.half_extents_m).maxCoeff() < 0) return true;
  }
  return false;
}

TEST(SceneLoader, PegBlockGeneratorMakesTheHoleAndChamferAsked) {
  for (const double clearance : {0.0005, 0.002}) {
    for (const double chamfer : {0.0, 0.003}) {
      const SceneSpec s = ParseScene(fmt::format(R"(
generators:
  - {{type: peg_block, name: block, size: [0.1, 0.12, 0.05], peg_width: 0.02,
     clearance: {}, chamfer: {}, stiffness: .inf}}
)",
                                                 clearance, chamfer),
                                     "p.yaml");
      ASSERT_EQ(s.bodies.size(), 1u);
      const SceneBody& b = s.bodies[0];
      EXPECT_EQ(b.kind, SceneBody::Kind::kStatic);
      EXPECT_EQ(b.geometries.size(), chamfer > 0 ? 12u : 4u);
      const double h = 0.02 + clearance, e = 1e-6;
      for (const Eigen::Vector3d axis : {Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY()}) {
        for (const double depth : {0.01, 0.03, 0.049}) {
          const Eigen::Vector3d down(0, 0, -depth);
          // The hole is exactly h wide below the chamfer; the walls are solid beyond it.
          EXPECT_FALSE(InsideBlock(b, down + (0.5 * h - e) * axis)) << clearance << " " << depth;
          EXPECT_TRUE(InsideBlock(b, down + (0.5 * h + e) * axis)) << clearance << " " << depth;
          EXPECT_TRUE(InsideBlock(b, down + 0.0499 * axis));
        }
        EXPECT_FALSE(InsideBlock(b, -0.051 * Eigen::Vector3d::UnitZ() + 0.03 * axis));  // below
        // The chamfer: a 45° face from the wall's inner top edge (h/2, −c) to (h/2 + c, 0);
        // without one, the edge is square (the same point is solid).
        const double c = chamfer > 0 ? chamfer : 1e-3;
        const Eigen::Vector3d mid = (0.5 * h + 0.5 * c) * axis - 0.5 * c * Eigen::Vector3d::UnitZ();
        const Eigen::Vector3d n = (-axis + Eigen::Vector3d::UnitZ()).normalized();  // into the air
        EXPECT_EQ(InsideBlock(b, mid + 1e-5 * n), chamfer == 0.0);
        EXPECT_TRUE(InsideBlock(b, mid - 1e-5 * n));
      }
      EXPECT_TRUE(InsideBlock(b, Eigen::Vector3d(0.049, 0.059, -0.001)));  // outer corner
      EXPECT_FALSE(InsideBlock(b, Eigen::Vector3d(0.051, 0, -0.01)));
    }
  }
}

TEST(SceneLoader, PegBlockThatCannotBeBuiltIsReported) {
  EXPECT_NE(ErrorOf("generators: [{type: peg_block, size: [0.1, 0.1, 0.05], clearance: 0.09}]")
                .find("generators[0]: the hole"),
            std::string::npos);
  EXPECT_NE(ErrorOf("generators: [{type: peg_block, chamfer: 0.03}]").find("chamfer"),
            std::string::npos);
  EXPECT_NE(ErrorOf("generators: [{type: peg_block, clearance: -1}]").find("clearance"),
            std::string::npos);
  EXPECT_NE(ErrorOf("generators: [{type: peg_block, holes: 2}]").find("holes"), std::string::npos);
}

struct BadCase {
  const char* name;
  std::string yaml;
  std::string expected_fragment;  // the field the message must name
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

class SceneLoaderBadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(SceneLoaderBadInput, ClearOneLineError) {
  const BadCase& c = GetParam();
  const std::string message = ErrorOf(c.yaml);
  ASSERT_FALSE(message.empty()) << "accepted bad input";
  EXPECT_NE(message.find("bad.yaml"), std::string::npos) << message;
  EXPECT_NE(message.find(c.expected_fragment), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
}

std::string WithBall(const std::string& ball_fields) {
  return std::string(R"(
bodies:
  - name: ball
)") + ball_fields;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SceneLoaderBadInput,
    ::testing::Values(
        BadCase{"MalformedYaml", "bodies: [ {name: x, \n  - oops", "malformed YAML"},
        BadCase{"UnknownShape", WithBall("    mass: 1\n    shapes: [{type: torus, radius: 1}]\n"),
                "torus"},
        BadCase{"UnknownJoint",
                WithBall("    mass: 1\n    joint: ball_socket\n    shapes: [{type: sphere, "
                         "radius: 1}]\n"),
                "ball_socket"},
        BadCase{"NegativeMass", WithBall("    mass: -1\n    shapes: [{type: sphere, radius: 1}]\n"),
                "mass"},
        BadCase{"ZeroMass", WithBall("    mass: 0\n    shapes: [{type: sphere, radius: 1}]\n"),
                "mass"},
        BadCase{"InertiaNotPositiveDefinite",
                WithBall("    mass: 1\n    inertia: [1, -1, 1]\n    shapes: [{type: sphere, "
                         "radius: 1}]\n"),
                "inertia"},
        BadCase{"InertiaNotSymmetric",
                WithBall("    mass: 1\n    inertia: [1, 0.5, 0, 0, 1, 0, 0, 0, 1]\n"), "inertia"},
        BadCase{"NanStiffness",
                WithBall("    mass: 1\n    shapes: [{type: sphere, radius: 1, stiffness: .nan}]\n"),
                "stiffness"},
        BadCase{"NegativeStiffness",
                WithBall("    mass: 1\n    shapes: [{type: sphere, radius: 1, stiffness: -5}]\n"),
                "stiffness"},
        BadCase{"NegativeFriction",
                WithBall("    mass: 1\n    shapes: [{type: sphere, radius: 1, friction: -0.1}]\n"),
                "friction"},
        BadCase{"NanFriction",
                WithBall("    mass: 1\n    shapes: [{type: sphere, radius: 1, friction: .nan}]\n"),
                "friction"},
        BadCase{"NegativeTimeStep", std::string("dt: -0.001\n") + kValidBody, "dt"},
        BadCase{"ZeroTimeStep", std::string("dt: 0\n") + kValidBody, "dt"},
        BadCase{"NanTimeStep", std::string("dt: .nan\n") + kValidBody, "dt"},
        BadCase{"TextForNumber",
                WithBall("    mass: heavy\n    shapes: [{type: sphere, radius: 1}]\n"), "mass"},
        BadCase{"UnknownField", WithBall("    mas: 1\n"), "mas"},
        BadCase{"NegativeRadius",
                WithBall("    mass: 1\n    shapes: [{type: sphere, radius: -1}]\n"), "radius"},
        BadCase{"UnknownParent",
                WithBall("    mass: 1\n    parent: nobody\n    joint: revolute\n    shapes: "
                         "[{type: sphere, radius: 1}]\n"),
                "nobody"},
        BadCase{"UnknownModel", std::string("model: pgs\n") + kValidBody, "pgs"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(SceneLoader, MissingFileIsReported) {
  try {
    LoadSceneFile("/nonexistent/scene.yaml");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/scene.yaml"), std::string::npos);
  }
}

TEST(SceneLoader, UnknownBuiltinListsTheBuiltins) {
  try {
    ResolveScenePath("no_such_scene");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("falling_sphere"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace contactlab
