#include "io/mesh_file.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <spdlog/spdlog.h>

#include <assimp/Importer.hpp>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "io/bounded_child.h"

namespace contactlab {

MeshData MeshData::Object(int k) const {
  const int first = object_first_triangle[k];
  const int end =
      k + 1 < num_objects() ? object_first_triangle[k + 1] : static_cast<int>(triangles.size());
  MeshData out;
  std::map<int, int> renumbered;
  for (int t = first; t < end; ++t) {
    std::array<int, 3> tri;
    for (int c = 0; c < 3; ++c) {
      const auto [it, added] = renumbered.emplace(triangles[t][c], out.vertices.size());
      if (added) out.vertices.push_back(vertices[triangles[t][c]]);
      tri[c] = it->second;
    }
    out.triangles.push_back(tri);
  }
  out.object_first_triangle = {0};
  return out;
}

namespace {

// Appends node's meshes (with its transform X_FN from the file's frame F) as one object, then
// its children's as objects of their own.
void AddNodeObjects(const aiScene& scene, const aiNode& node, const aiMatrix4x4& X_FP,
                    const std::string& path, const Eigen::Vector3d& scale, MeshData* out) {
  const aiMatrix4x4 X_FN = X_FP * node.mTransformation;
  const int first_triangle = static_cast<int>(out->triangles.size());
  for (unsigned i = 0; i < node.mNumMeshes; ++i) {
    const aiMesh* mesh = scene.mMeshes[node.mMeshes[i]];
    if ((mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) == 0) continue;
    const int base = static_cast<int>(out->vertices.size());
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D p = X_FN * mesh->mVertices[v];
      const Eigen::Vector3d x = Eigen::Vector3d(p.x, p.y, p.z).cwiseProduct(scale);
      if (!x.allFinite()) {
        throw std::runtime_error("mesh file '" + path + "' has non-finite vertices");
      }
      out->vertices.push_back(x);
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      out->triangles.push_back({base + static_cast<int>(face.mIndices[0]),
                                base + static_cast<int>(face.mIndices[1]),
                                base + static_cast<int>(face.mIndices[2])});
    }
  }
  if (static_cast<int>(out->triangles.size()) > first_triangle) {
    out->object_first_triangle.push_back(first_triangle);
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c) {
    AddNodeObjects(scene, *node.mChildren[c], X_FN, path, scale, out);
  }
}

}  // namespace

// The import itself, in the bounded child: assimp's scene into MeshData, node by node.
MeshData ReadMeshFileInThisProcess(const std::string& path, const Eigen::Vector3d& scale) {
  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const unsigned flags =
      aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType;
  const aiScene* scene = importer.ReadFile(path, flags);
  // assimp reports running out of the child's memory budget as this text: say it plainly.
  if (scene == nullptr && std::string(importer.GetErrorString()) == "std::bad_alloc") {
    throw std::bad_alloc();
  }
  if (scene == nullptr || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0) {
    throw std::runtime_error("cannot load mesh file '" + path + "': " + importer.GetErrorString());
  }
  MeshData out;
  if (scene->mRootNode != nullptr) {
    AddNodeObjects(*scene, *scene->mRootNode, aiMatrix4x4(), path, scale, &out);
  }
  if (out.triangles.empty()) {
    throw std::runtime_error("mesh file '" + path + "' contains no triangles");
  }
  return out;
}

namespace {

// MeshData through the pipe: vertex count, coordinates, triangle count, indices, object count,
// first triangles.
std::string Serialize(const MeshData& mesh) {
  std::string bytes;
  const auto put = [&](const void* data, size_t size) {
    bytes.append(static_cast<const char*>(data), size);
  };
  const uint64_t nv = mesh.vertices.size(), nt = mesh.triangles.size();
  put(&nv, sizeof nv);
  for (const Eigen::Vector3d& v : mesh.vertices) put(v.data(), 3 * sizeof(double));
  put(&nt, sizeof nt);
  for (const std::array<int, 3>& t : mesh.triangles) put(t.data(), sizeof t);
  const uint64_t no = mesh.object_first_triangle.size();
  put(&no, sizeof no);
  put(mesh.object_first_triangle.data(), no * sizeof(int));
  return bytes;
}

MeshData Deserialize(const std::string& bytes) {
  size_t at = 0;
  const auto get = [&](void* data, size_t size) {
    if (at + size > bytes.size()) throw std::logic_error("mesh reader: short answer");
    std::memcpy(data, bytes.data() + at, size);
    at += size;
  };
  MeshData mesh;
  uint64_t nv = 0, nt = 0;
  get(&nv, sizeof nv);
  mesh.vertices.resize(nv);
  for (Eigen::Vector3d& v : mesh.vertices) get(v.data(), 3 * sizeof(double));
  get(&nt, sizeof nt);
  mesh.triangles.resize(nt);
  for (std::array<int, 3>& t : mesh.triangles) get(t.data(), sizeof t);
  uint64_t no = 0;
  get(&no, sizeof no);
  mesh.object_first_triangle.resize(no);
  get(mesh.object_first_triangle.data(), no * sizeof(int));
  return mesh;
}

// The meshes read so far, by file and scale. A scene switch or reload (the GUI's, a dropped
// file, the soak's) would otherwise start a child process per mesh again, each a fork of a
// large process. A file whose size or modification time changed is read again.
class ReadMeshes {
 public:
  using Key = std::tuple<std::string, std::uintmax_t, std::filesystem::file_time_type::rep, double,
                         double, double>;

  static Key KeyOf(const std::string& path, const Eigen::Vector3d& scale) {
    std::error_code ec;
    const std::uintmax_t size_bytes = std::filesystem::file_size(path, ec);
    const auto modified = std::filesystem::last_write_time(path, ec).time_since_epoch().count();
    return {path, size_bytes, modified, scale.x(), scale.y(), scale.z()};
  }
  std::optional<MeshData> Find(const Key& key) {
    const std::lock_guard lock(mutex_);
    const auto it = meshes_.find(key);
    if (it == meshes_.end()) return std::nullopt;
    return it->second;
  }
  void Add(const Key& key, const MeshData& mesh) {
    const std::lock_guard lock(mutex_);
    meshes_.emplace(key, mesh);
  }

 private:
  std::mutex mutex_;  // scenes load on the GUI thread and in tests' own threads
  std::map<Key, MeshData> meshes_;
};

ReadMeshes& ReadSoFar() {
  static ReadMeshes read;
  return read;
}

}  // namespace

MeshData LoadMeshFile(const std::string& path, const Eigen::Vector3d& scale,
                      const ChildBudget& budget) {
  // assimp's own message for a missing file does not say which file; check first.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::runtime_error("mesh file '" + path + "' does not exist or is not a file");
  }
  const ReadMeshes::Key key = ReadMeshes::KeyOf(path, scale);
  if (std::optional<MeshData> read = ReadSoFar().Find(key)) return std::move(*read);
  // assimp runs in a bounded child process (io/bounded_child.h): a malformed file can make it
  // loop or allocate without end, and that must cost the user one error line, not the machine.
  const ChildResult r =
      RunInBoundedChild([&] { return Serialize(ReadMeshFileInThisProcess(path, scale)); }, budget);
  if (!r.ok) {
    // The reader's own messages name the file already.
    if (r.failure.find(path) != std::string::npos) throw std::runtime_error(r.failure);
    throw std::runtime_error("cannot load mesh file '" + path + "': " + r.failure);
  }
  MeshData out = Deserialize(r.bytes);
  ReadSoFar().Add(key, out);
  spdlog::debug("loaded mesh '{}': {} vertices, {} triangles", path, out.vertices.size(),
                out.triangles.size());
  return out;
}

}  // namespace contactlab
