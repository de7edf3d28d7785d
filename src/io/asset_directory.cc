#include "io/asset_directory.h"

#include <cstdlib>

namespace contactlab {

// CONTACTLAB_ASSET_DIR is defined for this file alone (CMakeLists.txt): an absolute path in the
// compile command of every file would make each clone compile everything anew (ccache hashes
// the command line).
std::string AssetDirectory() {
  if (const char* env = std::getenv("CONTACTLAB_ASSETS")) return env;
  return CONTACTLAB_ASSET_DIR;
}

}  // namespace contactlab
