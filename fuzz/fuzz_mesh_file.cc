// libFuzzer target: a mesh file through assimp → ReadMeshFileInThisProcess (LoadMeshFile's
// import without its bounded child, so that libFuzzer sees each failure). The first byte picks
// the format (the file's extension: obj, stl, ply, dae, gltf), the rest is the file.
// std::runtime_error and std::bad_alloc are clean rejections. assimp's own aborts and runaways
// are findings that LoadMeshFile contains in its child (io/bounded_child.h); scripts/fuzz.sh
// runs this target in libFuzzer's fork mode so that they do not end the run.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <new>
#include <stdexcept>
#include <string>

#include "io/mesh_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  spdlog::set_level(spdlog::level::off);
  if (size == 0) return 0;
  static const char* kExtensions[] = {"obj", "stl", "ply", "dae", "gltf"};
  // Under TMPDIR: scripts/fuzz.sh gives the run a folder of its own and removes it afterwards
  // (a job killed by a timeout leaves its file behind).
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("contactlab_fuzz_" + std::to_string(::getpid()) + "." + kExtensions[data[0] % 5]))
          .string();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    contactlab::ReadMeshFileInThisProcess(path, Eigen::Vector3d::Ones());
  } catch (const std::runtime_error&) {
  } catch (const std::bad_alloc&) {
  }
  return 0;
}
