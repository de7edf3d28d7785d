// Where the GLSL shaders are (the source tree's shaders/, as configured).
#pragma once

#include <string>

namespace contactlab {

std::string ShaderDirectory();

}  // namespace contactlab
