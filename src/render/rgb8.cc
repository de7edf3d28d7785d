#include "render/rgb8.h"

#include <cmath>

namespace contactlab {

Eigen::Vector3f ToFloat(Rgb8 c) { return Eigen::Vector3f(c.r, c.g, c.b) / 255.0f; }

Rgb8 ToRgb8(const Eigen::Vector3f& c) {
  auto to8 = [](float x) { return static_cast<uint8_t>(std::lround(255.0f * x)); };
  return Rgb8{to8(c.x()), to8(c.y()), to8(c.z())};
}

}  // namespace contactlab
