// PNG files: the screenshots and plot exports of the GUI, and the figures of headless tools.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace contactlab {

// Writes RGBA8 rows (top to bottom) as a PNG. Throws std::invalid_argument if rgba does not hold
// width × height pixels, std::runtime_error (one line naming the path) if the file can't be
// written.
void WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace contactlab
