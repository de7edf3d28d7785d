// A box given as a mesh file (`type: mesh`) behaves like the `box` primitive (issue 15): the same
// resting contact force on the ground, and the same slide down an incline (a = g(sin α − μ cos α)),
// within 1 %, in point contact (the mesh's convex hull) and in hydroelastic contact (a rigid cube,
// the mesh's own triangles, on a compliant slab).
#include <gtest/gtest.h>
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
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

// An L of three 5 cm cubes (a non-convex solid), as tets (cells cut into the six of Kuhn's
// subdivision, conforming across cells) in a VTK file, and as its boundary triangles in an OBJ.
struct LShape {
  std::vector<Eigen::Vector3d> points;
  std::vector<std::array<int, 4>> tets;
  std::vector<std::array<int, 3>> surface;
  LShape() {
    // Cells of 2.5 cm (two per cube side), so that the tet mesh has interior vertices: with every
    // vertex on the boundary the field ε would be 0 throughout.
    const double h = 0.025;
    auto id = [](int i, int j, int k) { return (k * 5 + j) * 5 + i; };
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 5; ++j)
        for (int i = 0; i < 5; ++i) points.emplace_back(h * i, h * j, h * k);
    const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int k = 0; k < 2; ++k) {
      for (int j = 0; j < 4; ++j) {
        for (int i = 0; i < 4; ++i) {
          if (i >= 2 && j >= 2) continue;  // the L's missing cube
          for (const auto& a : axes) {
            int c[3] = {i, j, k};
            std::array<int, 4> t;
            t[0] = id(c[0], c[1], c[2]);
            for (int s = 0; s < 3; ++s) {
              ++c[a[s]];
              t[s + 1] = id(c[0], c[1], c[2]);
            }
            tets.push_back(t);
          }
        }
      }
    }
    // Faces of one tet only, turned away from the tet's fourth vertex.
    std::map<std::array<int, 3>, std::pair<int, std::array<int, 4>>> faces;
    for (const auto& t : tets) {
      for (int skip = 0; skip < 4; ++skip) {
        std::array<int, 3> f;
        for (int k = 0, n = 0; k < 4; ++k)
          if (k != skip) f[n++] = t[k];
        std::array<int, 3> key = f;
        std::sort(key.begin(), key.end());
        auto& entry = faces[key];
        ++entry.first;
        entry.second = {f[0], f[1], f[2], t[skip]};
      }
    }
    for (const auto& [key, entry] : faces) {
      if (entry.first != 1) continue;
      const auto& [a, b, c, opposite] = entry.second;
      const Eigen::Vector3d n = (points[b] - points[a]).cross(points[c] - points[a]);
      surface.push_back(n.dot(points[opposite] - points[a]) < 0 ? std::array{a, b, c}
                                                                : std::array{a, c, b});
    }
  }
  std::string Obj() const {
    std::string s;
    for (const auto& p : points) s += fmt::format("v {} {} {}\n", p.x(), p.y(), p.z());
    for (const auto& f : surface) s += fmt::format("f {} {} {}\n", f[0] + 1, f[1] + 1, f[2] + 1);
    return s;
  }
  std::string Vtk() const {
    std::string s = fmt::format(
        "# vtk DataFile Version 3.0\nL\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS {} double\n",
        points.size());
    for (const auto& p : points) s += fmt::format("{} {} {}\n", p.x(), p.y(), p.z());
    s += fmt::format("CELLS {} {}\n", tets.size(), 5 * tets.size());
    for (const auto& t : tets) s += fmt::format("4 {} {} {} {}\n", t[0], t[1], t[2], t[3]);
    s += fmt::format("CELL_TYPES {}\n", tets.size());
    for (size_t i = 0; i < tets.size(); ++i) s += "10\n";
    return s;
  }
};

// A non-convex compliant part from its own tet mesh (volume_mesh: FILE.vtk): the L, lying on a
// rigid plane, comes to rest on a pressure patch that carries its weight; without its tets it is
// refused.
TEST(MeshShape, ANonConvexCompliantPartTakesItsTetsFromAVtkFile) {
  const fs::path dir = fs::temp_directory_path() / "contactlab_mesh_l_shape";
  fs::create_directories(dir);
  const LShape l;
  std::ofstream(dir / "l.obj") << l.Obj();
  std::ofstream(dir / "l.vtk") << l.Vtk();
  const std::string scene = R"(
dt: 0.001
bodies:
  - name: ground
    type: static
    shapes: [{type: half_space}]
  - name: l
    mass: 1.0
    position: [0, 0, -0.00001]
    shapes: [{type: mesh, file: l.obj, contact_model: hydroelastic_compliant,
              hydroelastic_modulus: 1e6, VOLUME}]
)";
  const auto load = [&](const std::string& volume) {
    std::string text = scene;
    text.replace(text.find("VOLUME"), 6, volume);
    std::ofstream(dir / "l.yaml") << text;
    return LoadSceneFile((dir / "l.yaml").string());
  };
  try {
    load("resolution: 0.01");
    ADD_FAILURE() << "a non-convex compliant mesh without its tets was accepted";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("volume_mesh"), std::string::npos) << e.what();
  }
  const SceneSpec spec = load("volume_mesh: l.vtk");
  ASSERT_TRUE(spec.bodies[1].geometries[0].hydroelastic.volume_mesh);
  EXPECT_EQ(spec.bodies[1].geometries[0].hydroelastic.volume_mesh->num_tets(), 144);
  World world(spec);
  EXPECT_EQ(world.inputs().hydroelastic[1].num_tets(), 144);
  // It settles (tilted by 8°: the field is 0 in every tet without an interior vertex, so only
  // the cells around the mesh's five interior vertices bear pressure, not centred under the L's
  // centre of mass — a coarse tet mesh's pressure field, not the shape's).
  ASSERT_EQ(testing::RunFor(&world, 3.0), 0);
  EXPECT_NEAR(world.NetNormalForce(1).norm(), kG, 1e-3 * kG);
  ASSERT_EQ(world.hydroelastic_patches().size(), 1u);
  EXPECT_LT(world.BodyVelocity(1).norm(), 5e-3) << world.BodyVelocity(1).transpose();
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

}  // namespace
}  // namespace contactlab
