// An 8-bit sRGB colour, as the named colours are given and the screenshot tests read pixels,
// and its conversion to and from the 0–1 floats the shaders take.
#pragma once

#include <Eigen/Dense>
#include <cstdint>

namespace contactlab {

// sRGB 0–255.
struct Rgb8 {
  uint8_t r, g, b;
};

// sRGB 0–255 → sRGB 0–1 (shaders linearize themselves).
Eigen::Vector3f ToFloat(Rgb8 c);
// sRGB 0–1 → sRGB 0–255, rounded (no clamping: components must lie in [0, 1]).
Rgb8 ToRgb8(const Eigen::Vector3f& c);

}  // namespace contactlab
