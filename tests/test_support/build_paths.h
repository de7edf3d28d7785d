// The configured paths tests need: the contactlab executable they run and the source tree (its
// assets/ and tests/data/). Defined in build_paths.cc, the one test file compiled with them
// (tests/CMakeLists.txt): in every test file's compile command they would make a clone in
// another folder miss ccache for the whole suite.
#pragma once

#include <string>

namespace contactlab::testing {

std::string ContactlabBinary();
std::string SourceDirectory();

}  // namespace contactlab::testing
