// libFuzzer target: a VTK legacy tet mesh → ParseVtkVolumeMesh and the compliant geometry built
// from it. std::runtime_error / std::invalid_argument are clean rejections.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/hydroelastic/vtk_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace contactlab::hydroelastic;
  try {
    VtkVolumeMesh vtk =
        ParseVtkVolumeMesh(std::string(reinterpret_cast<const char*>(data), size), "fuzz.vtk");
    MakeCompliantGeometry(std::move(vtk), 1e6);
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
