#include "render/force_arrow_length.h"

#include <cmath>

namespace contactlab {

float MaxForceArrowLength(float pixel_size_m, float view_height_px) {
  return kMaxForceArrowViewFraction * pixel_size_m * view_height_px;
}

float DrawnForceArrowLength(float scaled_length_m, float max_length_m) {
  if (!(scaled_length_m > 0) || !std::isfinite(scaled_length_m)) return 0.0f;
  if (!(max_length_m > 0) || !std::isfinite(max_length_m)) return scaled_length_m;
  const float knee = 0.5f * max_length_m;
  if (scaled_length_m <= knee) return scaled_length_m;
  // Above the knee the remaining half is approached as 1 − e^(−x): continuous in value and slope.
  const float room = max_length_m - knee;
  return knee + room * -std::expm1(-(scaled_length_m - knee) / room);
}

}  // namespace contactlab
