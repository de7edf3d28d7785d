// libFuzzer target: a mesh file through assimp → LoadMeshFile. The first byte picks the format
// (the file's extension: obj, stl, ply, dae, gltf), the rest is the file. std::runtime_error
// is a clean rejection.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>

#include "io/mesh_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  spdlog::set_level(spdlog::level::off);
  if (size == 0) return 0;
  static const char* kExtensions[] = {"obj", "stl", "ply", "dae", "gltf"};
  const std::string path =
      "/tmp/contactlab_fuzz_" + std::to_string(::getpid()) + "." + kExtensions[data[0] % 5];
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    contactlab::LoadMeshFile(path, Eigen::Vector3d::Ones(), contactlab::ChildBudget{1, 5});
  } catch (const std::runtime_error&) {
  }
  return 0;
}
