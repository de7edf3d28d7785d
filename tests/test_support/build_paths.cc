#include "test_support/build_paths.h"

namespace contactlab::testing {

std::string ContactlabBinary() { return CONTACTLAB_BINARY; }
std::string SourceDirectory() { return CONTACTLAB_SOURCE_DIR; }

}  // namespace contactlab::testing
