// WritePng through stb_image_write; the program's single stb_image_write implementation lives
// here.
#include "io/png_file.h"

#include <stdexcept>
#include <string>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>
#pragma GCC diagnostic pop

namespace contactlab {

void WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba) {
  if (width <= 0 || height <= 0 ||
      rgba.size() != static_cast<size_t>(width) * static_cast<size_t>(height) * 4) {
    throw std::invalid_argument("cannot write '" + path + "': image is " + std::to_string(width) +
                                "×" + std::to_string(height) + " but holds " +
                                std::to_string(rgba.size()) + " bytes");
  }
  if (stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4) == 0) {
    throw std::runtime_error("cannot write PNG '" + path + "'");
  }
}

}  // namespace contactlab
