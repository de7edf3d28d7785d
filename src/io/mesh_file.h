// Mesh files (OBJ, STL, DAE, PLY: anything assimp reads) as plain vertices and triangles for
// the engine, which knows nothing of file formats (docs/architecture.md).
#pragma once

#include <Eigen/Dense>
#include <array>
#include <string>
#include <vector>

#include "io/bounded_child.h"

namespace contactlab {

struct MeshData {
  std::vector<Eigen::Vector3d> vertices;  // in the file's frame, scaled [m]
  std::vector<std::array<int, 3>> triangles;
};

// All meshes of the file merged with their node transforms applied, triangulated, coordinates
// multiplied componentwise by `scale`. Throws std::runtime_error with one line naming `path`
// when the file is missing, unreadable or malformed, holds no triangles or non-finite
// vertices, or when reading it exceeds `budget` (assimp runs in a child process under it).
// A file read before (same path, size, modification time and scale) is not read again.
MeshData LoadMeshFile(const std::string& path,
                      const Eigen::Vector3d& scale = Eigen::Vector3d::Ones(),
                      const ChildBudget& budget = {});

// LoadMeshFile's import without the bounded child (no missing-file check either): for
// fuzz_mesh_file, which runs it under libFuzzer's own time and memory limits and so sees
// assimp's failures one by one. Everything else calls LoadMeshFile.
MeshData ReadMeshFileInThisProcess(const std::string& path, const Eigen::Vector3d& scale);

}  // namespace contactlab
