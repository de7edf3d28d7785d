#include "input/space_mouse_mapping.h"

#include <algorithm>
#include <cmath>

namespace contactlab {

std::array<double, 6> MapSpaceMouseAxes(const std::array<int, 6>& raw,
                                        const SpaceMouseConfig& config) {
  std::array<double, 6> deflection{};
  for (int i = 0; i < 6; ++i) {
    const double db = std::max(0, config.deadband_counts[i]);
    const double v = raw[i];
    const double magnitude = std::abs(v) - db;
    if (magnitude <= 0.0) continue;
    const double range = std::max(config.full_scale_counts - db, 1.0);
    deflection[i] = std::copysign(std::min(magnitude / range, 1.0), v);
  }

  std::array<double, 6> out{};
  for (int o = 0; o < 6; ++o) {
    const AxisSource& src = config.mapping[o];
    if (src.raw_axis < 0 || src.raw_axis > 5) continue;  // unmapped output axis
    out[o] = src.sign * deflection[src.raw_axis];
  }
  if (config.lock_translation) out[0] = out[1] = out[2] = 0.0;
  if (config.lock_rotation) out[3] = out[4] = out[5] = 0.0;

  if (config.dominant_axis) {
    int best = -1;
    double best_abs = 0.0;
    for (int o = 0; o < 6; ++o) {
      if (std::abs(out[o]) > best_abs) {  // ties keep the lower index: deterministic
        best_abs = std::abs(out[o]);
        best = o;
      }
    }
    for (int o = 0; o < 6; ++o) {
      if (o != best) out[o] = 0.0;
    }
  }
  for (int o = 0; o < 6; ++o) out[o] *= config.sensitivity[o];
  return out;
}

void SpaceMouseToTwist(const std::array<int, 6>& raw, const SpaceMouseConfig& config,
                       TeleopCommand* command) {
  const std::array<double, 6> d = MapSpaceMouseAxes(raw, config);
  command->linear_m_per_s = Eigen::Vector3d(d[0], d[1], d[2]) * config.max_linear_m_per_s;
  command->angular_rad_per_s = Eigen::Vector3d(d[3], d[4], d[5]) * config.max_angular_rad_per_s;
}

}  // namespace contactlab
