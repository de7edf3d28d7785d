// A box given as a mesh file (`type: mesh`) behaves like the `box` primitive (issue 15): the same
// resting contact force on the ground, and the same slide down an incline (a = g(sin α − μ cos α)),
// within 1 %, in point contact (the mesh's convex hull) and in hydroelastic contact (a rigid cube,
// the mesh's own triangles, on a compliant slab).
#include <gtest/gtest.h>
#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "physics_test_util.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;

constexpr double kG = 9.81;

// A 0.1 m cube as an OBJ file (8 vertices, 12 outward triangles).
const char* kCubeObj = R"(v -0.05 -0.05 -0.05
v 0.05 -0.05 -0.05
v -0.05 0.05 -0.05
v 0.05 0.05 -0.05
v -0.05 -0.05 0.05
v 0.05 -0.05 0.05
v -0.05 0.05 0.05
v 0.05 0.05 0.05
f 1 3 4
f 1 4 2
f 5 6 8
f 5 8 7
f 1 2 6
f 1 6 5
f 3 7 8
f 3 8 4
f 1 5 7
f 1 7 3
f 2 4 8
f 2 8 6
)";

struct Incline {
  double alpha_deg = 0;
  std::string shape;  // the box's shape entry
  std::string contact;
};

// A 1 kg cube resting on (or sliding down) a plane tilted by α about y, μ = 0.2. In point
// contact the plane is a half-space; in hydroelastic contact the cube is rigid (a mesh: its own
// triangles) on the top face of a compliant static slab 1 × 0.4 × 0.1 m (E_h = 1e7 Pa).
SceneSpec MakeScene(const fs::path& dir, const Incline& c) {
  const double a = c.alpha_deg * std::numbers::pi / 180;
  const Eigen::Vector3d n(std::sin(a), 0, std::cos(a));
  // The cube starts pressed 0.1 mm into the plane: starting exactly on it, whether the first
  // step sees contact would hang on the last bit of the position (a box primitive then fell
  // 1e-17 m, hit, and slid 1 % less).
  const Eigen::Vector3d p = (0.05 - 1e-4) * n, slab = -0.05 * n;
  const std::string ground =
      c.contact.empty()
          ? fmt::format(
                "position: [0, 0, 0]\n    shapes: [{{type: half_space, normal: [{}, 0, {}], "
                "friction: 0.2}}]",
                n.x(), n.z())
          : fmt::format(
                "position: [{}, 0, {}]\n    rpy_deg: [0, {}, 0]\n    shapes: [{{type: box, "
                "size: [1, 0.4, 0.1], friction: 0.2, contact_model: "
                "hydroelastic_compliant, hydroelastic_modulus: 1e7}}]",
                slab.x(), slab.z(), c.alpha_deg);
  const std::string text = fmt::format(R"(
dt: 0.001
bodies:
  - name: ground
    type: static
    {}
  - name: cube
    mass: 1.0
    position: [{}, 0, {}]
    rpy_deg: [0, {}, 0]
    shapes: [{{{}, friction: 0.2, {}}}]
)",
                                       ground, p.x(), p.z(), c.alpha_deg, c.shape, c.contact);
  std::ofstream(dir / "cube.obj") << kCubeObj;
  std::ofstream(dir / "incline.yaml") << text;
  return LoadSceneFile((dir / "incline.yaml").string());
}

struct Outcome {
  double normal_force_N = 0;
  double slide_m = 0;
};

Outcome RunIncline(const fs::path& dir, const Incline& c) {
  World world(MakeScene(dir, c));
  const Eigen::Vector3d p0 = world.BodyPose(1).translation();
  EXPECT_EQ(testing::RunFor(&world, 0.5), 0);
  return {world.NetNormalForce(1).norm(), (world.BodyPose(1).translation() - p0).norm()};
}

class MeshBoxTest : public ::testing::TestWithParam<const char*> {
 protected:
  fs::path dir = fs::temp_directory_path() /
                 (std::string("contactlab_mesh_box_") + (*GetParam() ? "hydro" : "point"));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

TEST_P(MeshBoxTest, RestsAndSlidesLikeTheBoxPrimitive) {
  const std::string contact = GetParam();
  const std::string mesh = "type: mesh, file: cube.obj";
  const std::string box = "type: box, size: [0.1, 0.1, 0.1]";
  const Outcome rest_mesh = RunIncline(dir, {0, mesh, contact}),
                rest_box = RunIncline(dir, {0, box, contact});
  EXPECT_NEAR(rest_mesh.normal_force_N, kG, 1e-3 * kG);
  EXPECT_NEAR(rest_mesh.normal_force_N, rest_box.normal_force_N, 1e-2 * rest_box.normal_force_N);
  const double alpha = 20;
  const Outcome slide_mesh = RunIncline(dir, {alpha, mesh, contact});
  const Outcome slide_box = RunIncline(dir, {alpha, box, contact});
  const double a = alpha * std::numbers::pi / 180;
  const double analytic = 0.5 * kG * (std::sin(a) - 0.2 * std::cos(a)) * 0.5 * 0.5;
  std::printf("%s: slid %.5f m (mesh) and %.5f m (box) in 0.5 s; analytic %.5f m\n",
              contact.empty() ? "point" : "hydroelastic", slide_mesh.slide_m, slide_box.slide_m,
              analytic);
  EXPECT_NEAR(slide_mesh.slide_m, slide_box.slide_m, 1e-2 * slide_box.slide_m);
  EXPECT_NEAR(slide_mesh.slide_m, analytic, 1e-2 * analytic);
}

INSTANTIATE_TEST_SUITE_P(Contact, MeshBoxTest,
                         ::testing::Values("", "contact_model: hydroelastic_rigid"),
                         [](const auto& info) {
                           return std::string(*info.param ? "Hydroelastic" : "Point");
                         });

}  // namespace
}  // namespace contactlab
