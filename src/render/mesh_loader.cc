#include "render/mesh_loader.h"

#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <spdlog/spdlog.h>

#include <assimp/Importer.hpp>
#include <filesystem>

#include "render/renderer.h"

namespace contactlab {

TriangleMesh LoadMesh(const std::string& path) {
  // assimp's own message for a missing file is vague about which file; check first.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw RenderError("mesh file '" + path + "' does not exist or is not a file");
  }
  Assimp::Importer importer;
  // Points and lines (e.g. OBJ 'l' records) are not drawable surfaces: drop them.
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  // Smooth normals only across edges flatter than this, so boxes and CAD parts keep their
  // creases while tessellated curved surfaces look round.
  importer.SetPropertyFloat(AI_CONFIG_PP_GSN_MAX_SMOOTHING_ANGLE, 35.0f);
  const unsigned flags = aiProcess_Triangulate | aiProcess_GenSmoothNormals |
                         aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices |
                         aiProcess_SortByPType | aiProcess_FindDegenerates |
                         aiProcess_FindInvalidData;
  const aiScene* scene = importer.ReadFile(path, flags);
  if (scene == nullptr || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0) {
    throw RenderError("cannot load mesh '" + path + "': " + importer.GetErrorString());
  }
  TriangleMesh out;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    if ((mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) == 0) continue;
    const uint32_t base = static_cast<uint32_t>(out.positions.size());
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D& p = mesh->mVertices[v];
      Eigen::Vector3f n = Eigen::Vector3f::UnitZ();
      if (mesh->HasNormals()) {
        const aiVector3D& a = mesh->mNormals[v];
        n = Eigen::Vector3f(a.x, a.y, a.z);
        // Degenerate faces can leave NaN or zero normals; keep the vertex drawable.
        if (!n.allFinite() || n.squaredNorm() < 1e-12f) n = Eigen::Vector3f::UnitZ();
        n.normalize();
      }
      out.positions.emplace_back(p.x, p.y, p.z);
      out.normals.push_back(n);
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      out.AddTriangle(base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2]);
    }
  }
  if (out.indices.empty()) throw RenderError("mesh file '" + path + "' contains no triangles");
  for (const Eigen::Vector3f& p : out.positions) {
    if (!p.allFinite()) throw RenderError("mesh file '" + path + "' has non-finite vertices");
  }
  spdlog::debug("loaded mesh '{}': {} vertices, {} triangles", path, out.num_vertices(),
                out.num_triangles());
  return out;
}

}  // namespace contactlab
