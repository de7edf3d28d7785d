// Mesh files through assimp (io/mesh_file.h): what a file holds comes back scaled, and a file
// read before is not read again unless it changed.
#include "io/mesh_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace contactlab {
namespace {

namespace fs = std::filesystem;

// One triangle at height z (one digit, so that every z gives a file of the same size).
void WriteTriangle(const fs::path& path, int z) {
  std::ofstream(path) << "v 0 0 " << z << "\nv 1 0 " << z << "\nv 0 1 " << z << "\nf 1 2 3\n";
}

struct ScratchFolder {
  fs::path path =
      fs::temp_directory_path() / (std::string("contactlab_") +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  ScratchFolder() { fs::create_directories(path); }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

TEST(MeshFile, VerticesComeBackScaledComponentwise) {
  const ScratchFolder scratch;
  const fs::path file = scratch.path / "triangle.obj";
  WriteTriangle(file, 1);
  const MeshData mesh = LoadMeshFile(file.string(), Eigen::Vector3d(2.0, 3.0, 0.5));
  ASSERT_EQ(mesh.triangles.size(), 1u);
  ASSERT_EQ(mesh.vertices.size(), 3u);
  for (const Eigen::Vector3d& v : mesh.vertices) EXPECT_EQ(v.z(), 0.5);
  EXPECT_EQ(mesh.vertices[1].x() + mesh.vertices[2].x(), 2.0);
  EXPECT_EQ(mesh.vertices[1].y() + mesh.vertices[2].y(), 3.0);
}

// The cache is keyed by the file's size and modification time: a file rewritten with the same
// size and its old time is the same file to it (so the second read is the cached one), and a
// new modification time reads the file again.
TEST(MeshFile, AFileIsReadAgainOnlyWhenItChanged) {
  const ScratchFolder scratch;
  const fs::path file = scratch.path / "triangle.obj";
  WriteTriangle(file, 1);
  const fs::file_time_type written = fs::last_write_time(file);
  EXPECT_EQ(LoadMeshFile(file.string()).vertices[0].z(), 1.0);

  WriteTriangle(file, 2);
  fs::last_write_time(file, written);
  EXPECT_EQ(LoadMeshFile(file.string()).vertices[0].z(), 1.0) << "not taken from the cache";

  fs::last_write_time(file, written + std::chrono::seconds(1));
  EXPECT_EQ(LoadMeshFile(file.string()).vertices[0].z(), 2.0) << "a changed file not read again";
  EXPECT_EQ(LoadMeshFile(file.string(), Eigen::Vector3d(1, 1, 3)).vertices[0].z(), 6.0)
      << "another scale is another mesh";
}

}  // namespace
}  // namespace contactlab
