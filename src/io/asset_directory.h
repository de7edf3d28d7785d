// Where the built-in assets (scenes, robots, objects, teleop scripts) are: $CONTACTLAB_ASSETS if
// set, else the source tree's assets/ as configured.
#pragma once

#include <string>

namespace contactlab {

std::string AssetDirectory();

}  // namespace contactlab
