// `type: mesh` shapes in scene files (src/io/scene_mesh_shape.cc, src/io/mesh_file.cc): the file is
// read relative to the scene, scaled, split into its objects for point contact and kept whole for
// hydroelastic contact; a body weighs as the closed mesh (divergence theorem) — checked against
// the analytic box, cylinder and sphere within their tessellation error; a mesh that does not
// bound a solid, and a missing file, are one line naming the file and what is wrong.
#include "io/scene_mesh_shape.h"

#include <gtest/gtest.h>
#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "io/scene_loader.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;
using Eigen::Vector3d;
constexpr double kPi = std::numbers::pi;

struct Obj {
  std::vector<Vector3d> v;
  std::vector<std::array<int, 3>> f;  // 0-based, counterclockwise seen from outside
  void Append(const Obj& o) {
    const int base = static_cast<int>(v.size());
    v.insert(v.end(), o.v.begin(), o.v.end());
    for (auto t : o.f) f.push_back({t[0] + base, t[1] + base, t[2] + base});
  }
  std::string Text(const char* object = nullptr) const {
    std::string s = object ? fmt::format("o {}\n", object) : "";
    for (const Vector3d& p : v) s += fmt::format("v {} {} {}\n", p.x(), p.y(), p.z());
    return s;
  }
  std::string Faces(int offset = 0) const {
    std::string s;
    for (auto t : f)
      s += fmt::format("f {} {} {}\n", t[0] + 1 + offset, t[1] + 1 + offset, t[2] + 1 + offset);
    return s;
  }
};

// A box of half extents h centred at c.
Obj Box(const Vector3d& h, const Vector3d& c = Vector3d::Zero()) {
  Obj o;
  for (int i = 0; i < 8; ++i) {
    o.v.push_back(
        c + Vector3d((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z()));
  }
  o.f = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
         {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  return o;
}

// A cylinder of radius r and length L along z, n sides (a prism on a regular n-gon).
Obj Cylinder(double r, double L, int n) {
  Obj o;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * kPi * i / n;
    o.v.push_back(Vector3d(r * std::cos(a), r * std::sin(a), -L / 2));
    o.v.push_back(Vector3d(r * std::cos(a), r * std::sin(a), L / 2));
  }
  o.v.push_back(Vector3d(0, 0, -L / 2));
  o.v.push_back(Vector3d(0, 0, L / 2));
  const int bottom = 2 * n, top = 2 * n + 1;
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    o.f.push_back({2 * i, 2 * j, 2 * j + 1});
    o.f.push_back({2 * i, 2 * j + 1, 2 * i + 1});
    o.f.push_back({bottom, 2 * j, 2 * i});
    o.f.push_back({top, 2 * i + 1, 2 * j + 1});
  }
  return o;
}

// A UV sphere of radius r: `rings` latitude bands, `sides` longitudes.
Obj Sphere(double r, int rings, int sides) {
  Obj o;
  o.v.push_back(Vector3d(0, 0, -r));
  for (int k = 1; k < rings; ++k) {
    const double polar = kPi * k / rings;
    for (int i = 0; i < sides; ++i) {
      const double a = 2 * kPi * i / sides;
      o.v.push_back(r * Vector3d(std::sin(polar) * std::cos(a), std::sin(polar) * std::sin(a),
                                 -std::cos(polar)));
    }
  }
  o.v.push_back(Vector3d(0, 0, r));
  auto at = [&](int ring, int i) { return 1 + (ring - 1) * sides + (i % sides); };
  const int top = static_cast<int>(o.v.size()) - 1;
  for (int i = 0; i < sides; ++i) {
    o.f.push_back({0, at(1, i + 1), at(1, i)});
    o.f.push_back({top, at(rings - 1, i), at(rings - 1, i + 1)});
    for (int k = 1; k < rings - 1; ++k) {
      o.f.push_back({at(k, i), at(k, i + 1), at(k + 1, i + 1)});
      o.f.push_back({at(k, i), at(k + 1, i + 1), at(k + 1, i)});
    }
  }
  return o;
}

struct MeshScene {
  fs::path dir =
      fs::temp_directory_path() / (std::string("contactlab_") +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  MeshScene() { fs::create_directories(dir); }
  ~MeshScene() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
  }
  void WriteObj(const std::string& name, const Obj& o) const { Write(name, o.Text() + o.Faces()); }
  // A scene with one dynamic body of the given shape entry.
  SceneSpec Load(const std::string& shape, const std::string& mass = "density: 1000") const {
    const std::string text =
        fmt::format("bodies:\n  - name: part\n    {}\n    shapes: [{}]\n", mass, shape);
    Write("scene.yaml", text);
    return LoadSceneFile((dir / "scene.yaml").string());
  }
  std::string ErrorOf(const std::string& shape) const {
    try {
      Load(shape);
    } catch (const SceneError& e) {
      return e.what();
    }
    return "";
  }
};

TEST(SceneMeshShape, ABoxMeshWeighsAndSizesAsTheBoxPrimitive) {
  MeshScene s;
  s.WriteObj("box.obj", Box(Vector3d(0.5, 1, 1.5), Vector3d(1, 0, 0)));  // off its frame's origin
  const SceneSpec mesh = s.Load("{type: mesh, file: box.obj, scale: 0.1, position: [0, 0, 1]}");
  const SceneSpec box = s.Load("{type: box, size: [0.1, 0.2, 0.3], position: [0.1, 0, 1]}");
  const SpatialInertiaSpec& m = mesh.bodies[0].body.inertia;
  const SpatialInertiaSpec& b = box.bodies[0].body.inertia;
  EXPECT_NEAR(m.mass_kg, b.mass_kg, 1e-12 * b.mass_kg);
  EXPECT_TRUE(m.com_B.isApprox(b.com_B, 1e-12)) << m.com_B.transpose();
  EXPECT_TRUE(m.inertia_about_com_B.isApprox(b.inertia_about_com_B, 1e-12));
  ASSERT_EQ(mesh.bodies[0].geometries.size(), 1u);
  const Shape& shape = mesh.bodies[0].geometries[0].shape;
  ASSERT_TRUE(shape.mesh);
  EXPECT_TRUE(shape.mesh->convex);
  EXPECT_EQ(shape.mesh->triangles.size(), 12u);
}

// Tessellations of known volume: the n-gon prism ½ n r² sin(2π/n) L, and bounds for the sphere
// (between the inscribed polyhedron and the ball); the analytic solid is the limit.
TEST(SceneMeshShape, CylinderAndSphereMeshesWeighAsTheirSolidsWithinTheTessellationError) {
  MeshScene s;
  const double r = 0.05, L = 0.2, rho = 1000;
  for (const int n : {16, 64, 256}) {
    s.WriteObj("cylinder.obj", Cylinder(r, L, n));
    const SceneSpec mesh = s.Load("{type: mesh, file: cylinder.obj}");
    const double prism = 0.5 * n * r * r * std::sin(2 * kPi / n) * L;
    const double mass = mesh.bodies[0].body.inertia.mass_kg;
    EXPECT_NEAR(mass, rho * prism, 1e-6 * mass) << n;  // assimp reads vertices as float
    // The gap to the solid cylinder closes as 1/n²: 2π³/(3n²) relative.
    const double cylinder = rho * kPi * r * r * L;
    EXPECT_NEAR(mass / cylinder, 1 - 2 * std::pow(kPi, 2) / (3 * n * n), 2 * std::pow(kPi / n, 4))
        << n;
    const Eigen::Matrix3d I = mesh.bodies[0].body.inertia.inertia_about_com_B;
    EXPECT_NEAR(I(2, 2) / (0.5 * mass * r * r), 1, 8.0 / (n * n)) << n;
    EXPECT_NEAR(I(0, 0) / (mass * (3 * r * r + L * L) / 12), 1, 8.0 / (n * n)) << n;
    EXPECT_NEAR(I(0, 1), 0, 1e-6 * I(2, 2)) << n;
  }
  double previous_error = 1;
  for (const int n : {8, 16, 32}) {
    s.WriteObj("sphere.obj", Sphere(r, n, 2 * n));
    const SceneSpec mesh = s.Load("{type: mesh, file: sphere.obj}");
    const double ball = rho * 4.0 / 3.0 * kPi * r * r * r;
    const double mass = mesh.bodies[0].body.inertia.mass_kg;
    EXPECT_LT(mass, ball) << n;  // inscribed
    const double error = 1 - mass / ball;
    EXPECT_LT(error, 0.6 * previous_error) << n;  // converging (second order: ×¼ per halving)
    previous_error = error;
    const double I = mesh.bodies[0].body.inertia.inertia_about_com_B(0, 0);
    EXPECT_NEAR(I / (0.4 * mass * r * r), 1, 2 * error) << n;
    EXPECT_LT(mesh.bodies[0].body.inertia.com_B.norm(), 1e-7 * r);
  }
  EXPECT_LT(previous_error, 0.02);
}

TEST(SceneMeshShape, ObjectsAreConvexPiecesForPointContactAndOneSurfaceForHydroelastic) {
  MeshScene s;
  const Obj a = Box(Vector3d(0.1, 0.1, 0.1), Vector3d(-0.2, 0, 0));
  const Obj b = Box(Vector3d(0.1, 0.1, 0.1), Vector3d(0.2, 0, 0));
  s.Write("two.obj", a.Text("left") + a.Faces() + b.Text("right") + b.Faces(8));
  const SceneSpec point = s.Load("{type: mesh, name: pair, file: two.obj}");
  ASSERT_EQ(point.bodies[0].geometries.size(), 2u);
  EXPECT_EQ(point.bodies[0].geometries[0].name, "pair_0");
  // To float precision (assimp reads vertices as float).
  EXPECT_NEAR(point.bodies[0].geometries[0].shape.mesh->mass.centroid_G.x(), -0.2, 1e-7);
  EXPECT_NEAR(point.bodies[0].geometries[1].shape.mesh->mass.centroid_G.x(), 0.2, 1e-7);
  EXPECT_NEAR(point.bodies[0].body.inertia.mass_kg, 1000 * 2 * 0.008, 1e-6 * 16);  // both pieces
  const SceneSpec rigid =
      s.Load("{type: mesh, name: pair, file: two.obj, contact_model: hydroelastic_rigid}");
  ASSERT_EQ(rigid.bodies[0].geometries.size(), 1u);
  EXPECT_EQ(rigid.bodies[0].geometries[0].shape.mesh->triangles.size(), 24u);
  EXPECT_FALSE(rigid.bodies[0].geometries[0].shape.mesh->convex);
}

TEST(SceneMeshShape, AMeshThatBoundsNoSolidIsOneLineNamingTheFileAndTheDefect) {
  MeshScene s;
  Obj open = Box(Vector3d::Constant(0.1));
  open.f.pop_back();
  s.WriteObj("open.obj", open);
  Obj inside_out = Box(Vector3d::Constant(0.1));
  for (auto& t : inside_out.f) std::swap(t[1], t[2]);
  s.WriteObj("inside_out.obj", inside_out);
  Obj degenerate = Box(Vector3d::Constant(0.1));
  degenerate.v.push_back(degenerate.v[0]);  // a zero-area sliver on an edge
  degenerate.f.push_back({0, 1, 8});
  s.WriteObj("degenerate.obj", degenerate);
  Obj fin = Box(Vector3d::Constant(0.1));
  fin.v.push_back(Vector3d(0.3, 0, 0));
  fin.f.push_back({1, 3, 8});  // a third triangle on the edge 1–3
  fin.f.push_back({3, 1, 8});
  s.WriteObj("fin.obj", fin);
  Obj flipped = Box(Vector3d::Constant(0.1));
  std::swap(flipped.f[0][1], flipped.f[0][2]);
  s.WriteObj("flipped.obj", flipped);
  s.WriteObj("concave.obj", [] {
    Obj o = Box(Vector3d(0.1, 0.1, 0.1), Vector3d(-0.15, 0, 0));
    o.Append(Box(Vector3d(0.1, 0.1, 0.1), Vector3d(0.15, 0, 0)));
    return o;
  }());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{type: mesh, file: open.obj}", "'open.obj' is open"},
      {"{type: mesh, file: inside_out.obj}", "'inside_out.obj' is inside-out"},
      {"{type: mesh, file: degenerate.obj}", "degenerate"},
      {"{type: mesh, file: fin.obj}", "'fin.obj' is not a manifold"},
      {"{type: mesh, file: flipped.obj}", "not consistently oriented"},
      {"{type: mesh, file: missing.obj}", "missing.obj"},
      {"{type: mesh}", "needs file"},
      {"{type: mesh, file: open.obj, scale: -1}", "scale"},
      {"{type: box, size: [1, 1, 1], file: open.obj}", "file and scale belong to a mesh"},
      {"{type: mesh, file: concave.obj, contact_model: hydroelastic_compliant}",
       "non-convex mesh cannot be hydroelastic_compliant"},
  };
  for (const auto& [shape, fragment] : cases) {
    const std::string message = s.ErrorOf(shape);
    EXPECT_NE(message.find(fragment), std::string::npos) << shape << "\n -> " << message;
    EXPECT_NE(message.find("scene.yaml:"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace contactlab
