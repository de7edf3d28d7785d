#include "render/shader_directory.h"

namespace contactlab {

// CONTACTLAB_SHADER_DIR is defined for this file alone (CMakeLists.txt), so that the absolute
// path is in one compile command, not in every one that includes the renderer (ccache).
std::string ShaderDirectory() { return CONTACTLAB_SHADER_DIR; }

}  // namespace contactlab
