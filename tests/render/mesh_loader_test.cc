// Mesh loader: a small OBJ written to a temp file loads with the right triangles and bounds;
// missing and malformed files throw RenderError naming the file.
#include "render/mesh_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "render/renderer.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;

fs::path TempPath(const std::string& name) {
  return fs::temp_directory_path() /
         ("contactlab_mesh_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
          "_" + name);
}

void WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// A unit cube [-0.5, 0.5]³ with quad faces (triangulated by the loader), offset in z.
constexpr const char* kCubeObj = R"(# cube
v -0.5 -0.5 0.0
v  0.5 -0.5 0.0
v  0.5  0.5 0.0
v -0.5  0.5 0.0
v -0.5 -0.5 1.0
v  0.5 -0.5 1.0
v  0.5  0.5 1.0
v -0.5  0.5 1.0
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
)";

TEST(MeshLoader, LoadsObjCube) {
  const fs::path path = TempPath("cube.obj");
  WriteFile(path, kCubeObj);
  const TriangleMesh mesh = LoadMesh(path.string());
  fs::remove(path);
  EXPECT_EQ(mesh.num_triangles(), 12);
  EXPECT_EQ(mesh.normals.size(), mesh.positions.size());
  EXPECT_TRUE(mesh.lower_bound().isApprox(Eigen::Vector3f(-0.5f, -0.5f, 0.0f)));
  EXPECT_TRUE(mesh.upper_bound().isApprox(Eigen::Vector3f(0.5f, 0.5f, 1.0f)));
  // Creases stay sharp: every normal is a face normal (one axis), unit length.
  for (const Eigen::Vector3f& n : mesh.normals) {
    EXPECT_NEAR(n.norm(), 1.0f, 1e-5f);
    EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1.0f, 1e-5f) << n.transpose();
  }
  for (uint32_t i : mesh.indices) EXPECT_LT(i, mesh.positions.size());
  // Triangles wind counter-clockwise seen from outside: normals agree with the face normals.
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    const Eigen::Vector3f& a = mesh.positions[mesh.indices[3 * t]];
    const Eigen::Vector3f& b = mesh.positions[mesh.indices[3 * t + 1]];
    const Eigen::Vector3f& c = mesh.positions[mesh.indices[3 * t + 2]];
    const Eigen::Vector3f face = (b - a).cross(c - a).normalized();
    EXPECT_GT(face.dot(mesh.normals[mesh.indices[3 * t]]), 0.99f);
  }
}

TEST(MeshLoader, LoadsAsciiStl) {
  const fs::path path = TempPath("tri.stl");
  WriteFile(path, R"(solid t
facet normal 0 0 1
 outer loop
  vertex 0 0 0
  vertex 1 0 0
  vertex 0 1 0
 endloop
endfacet
endsolid t
)");
  const TriangleMesh mesh = LoadMesh(path.string());
  fs::remove(path);
  EXPECT_EQ(mesh.num_triangles(), 1);
  EXPECT_TRUE(mesh.normals[0].isApprox(Eigen::Vector3f::UnitZ()));
}

TEST(MeshLoader, MissingFileThrowsNamingIt) {
  const std::string path = TempPath("does_not_exist.obj").string();
  try {
    LoadMesh(path);
    FAIL() << "expected RenderError";
  } catch (const RenderError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(MeshLoader, GarbageFileThrowsNamingIt) {
  const fs::path path = TempPath("garbage.obj");
  WriteFile(path, "this is \x01\x02 not a mesh\n{{{ at all ]]]\n");
  try {
    LoadMesh(path.string());
    fs::remove(path);
    FAIL() << "expected RenderError";
  } catch (const RenderError& e) {
    fs::remove(path);
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

TEST(MeshLoader, UnknownFormatThrowsNamingIt) {
  const fs::path path = TempPath("random.xyzmesh");
  WriteFile(path, std::string(256, '\x7f'));
  EXPECT_THROW(
      {
        try {
          LoadMesh(path.string());
        } catch (const RenderError& e) {
          fs::remove(path);
          EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos);
          throw;
        }
      },
      RenderError);
}

}  // namespace
}  // namespace contactlab
