// libFuzzer target: scene YAML text → ParseScene, then a World built from it and two steps.
// A clean rejection (SceneError, or std::invalid_argument from the World) is fine; anything
// else — a crash, a sanitizer report, another exception escaping, a hang — is a finding.
#include <spdlog/spdlog.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/world/world.h"
#include "io/scene_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace contactlab;
  spdlog::set_level(spdlog::level::off);
  SceneSpec scene;
  try {
    scene = ParseScene(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  } catch (const SceneError&) {
    return 0;
  }
  try {
    World world(scene);
    for (int i = 0; i < 2 && world.Step(); ++i) {
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
