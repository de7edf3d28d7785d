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
  // The file's objects (an OBJ's `o`/`g`, a glTF or COLLADA node with meshes) in order: object
  // k is triangles [object_first_triangle[k], object_first_triangle[k + 1]) (the last one runs
  // to the end), with vertices of its own.
  std::vector<int> object_first_triangle;
  int num_objects() const { return static_cast<int>(object_first_triangle.size()); }
  // Object k alone, its vertices renumbered from 0.
  MeshData Object(int k) const;
};

// All meshes of the file with their node transforms applied, triangulated, coordinates
// multiplied componentwise by `scale`, one object per node that has meshes. Throws
// std::runtime_error with one line naming `path` when the file is missing, unreadable or malformed,
// holds no triangles or non-finite vertices, or when reading it exceeds `budget` (assimp runs in a
// child process under it). A file read before (same path, size, modification time and scale) is not
// read again.
MeshData LoadMeshFile(const std::string& path,
                      const Eigen::Vector3d& scale = Eigen::Vector3d::Ones(),
                      const ChildBudget& budget = {});

// LoadMeshFile's import without the bounded child (no missing-file check either): for
// fuzz_mesh_file, which runs it under libFuzzer's own time and memory limits and so sees
// assimp's failures one by one. Everything else calls LoadMeshFile.
MeshData ReadMeshFileInThisProcess(const std::string& path, const Eigen::Vector3d& scale);

}  // namespace contactlab
