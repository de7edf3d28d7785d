// Screenshots to PNG files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace contactlab {

// Writes RGBA8 rows (top to bottom) as a PNG. Throws RenderError (render/render_error.h) if the
// file can't be written.
void WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace contactlab
