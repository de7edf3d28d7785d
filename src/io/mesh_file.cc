#include "io/mesh_file.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <spdlog/spdlog.h>

#include <assimp/Importer.hpp>
#include <filesystem>
#include <stdexcept>

namespace contactlab {

MeshData LoadMeshFile(const std::string& path, const Eigen::Vector3d& scale) {
  // assimp's own message for a missing file does not say which file; check first.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::runtime_error("mesh file '" + path + "' does not exist or is not a file");
  }
  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const unsigned flags = aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                         aiProcess_PreTransformVertices | aiProcess_SortByPType;
  const aiScene* scene = importer.ReadFile(path, flags);
  if (scene == nullptr || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0) {
    throw std::runtime_error("cannot load mesh file '" + path + "': " + importer.GetErrorString());
  }
  MeshData out;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    if ((mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) == 0) continue;
    const int base = static_cast<int>(out.vertices.size());
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D& p = mesh->mVertices[v];
      const Eigen::Vector3d x = Eigen::Vector3d(p.x, p.y, p.z).cwiseProduct(scale);
      if (!x.allFinite()) {
        throw std::runtime_error("mesh file '" + path + "' has non-finite vertices");
      }
      out.vertices.push_back(x);
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      out.triangles.push_back({base + static_cast<int>(face.mIndices[0]),
                               base + static_cast<int>(face.mIndices[1]),
                               base + static_cast<int>(face.mIndices[2])});
    }
  }
  if (out.triangles.empty()) {
    throw std::runtime_error("mesh file '" + path + "' contains no triangles");
  }
  spdlog::debug("loaded mesh '{}': {} vertices, {} triangles", path, out.vertices.size(),
                out.triangles.size());
  return out;
}

}  // namespace contactlab
