// libFuzzer target: URDF text (written to a file, as the loader reads files) → AddUrdfRobot.
// A SceneError is a clean rejection; anything else is a finding.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "io/asset_directory.h"
#include "io/scene_loader.h"
#include "io/urdf_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace contactlab;
  spdlog::set_level(spdlog::level::off);
  // Beside the Panda's meshes, so that the seed corpus's mesh references resolve.
  static const std::string path =
      AssetDirectory() + "/robots/.fuzz_" + std::to_string(::getpid()) + ".urdf";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data), size);
  SceneSpec scene;
  try {
    AddUrdfRobot(path, UrdfOptions{}, &scene);
  } catch (const SceneError&) {
  }
  return 0;
}
