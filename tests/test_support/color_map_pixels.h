// Pixel tests of the hydroelastic patch layer: whether a pixel has a colour of the pressure
// colour map (render/color_map.h).
#pragma once

#include <cstdint>
#include <cstdlib>

#include "render/color_map.h"

namespace contactlab::testing {

// Whether an RGB pixel is within ±tolerance per channel of some colour of the pressure map.
inline bool IsColorMapPixel(const uint8_t* rgb, int tolerance = 2) {
  static const auto table = PressureColorMapTable();
  for (int k = 0; k < 256; ++k) {
    if (std::abs(rgb[0] - table[3 * k]) <= tolerance &&
        std::abs(rgb[1] - table[3 * k + 1]) <= tolerance &&
        std::abs(rgb[2] - table[3 * k + 2]) <= tolerance) {
      return true;
    }
  }
  return false;
}

}  // namespace contactlab::testing
