// The one exception type of the renderer's GL and file work.
#pragma once

#include <stdexcept>

namespace contactlab {

// A shader that does not compile or link (the message names the file and carries the compiler
// log) or cannot be read, an incomplete framebuffer. (PNG files are io's, io/png_file.h: a
// headless tool writes them too.)
class RenderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace contactlab
