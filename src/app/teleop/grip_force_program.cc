#include "app/teleop/grip_force_program.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>

namespace contactlab {

double GripForceAt(const GripForceSquareWave& wave, double t_s) {
  const double phase_s = t_s - std::floor(t_s / wave.period_s) * wave.period_s;
  return phase_s < wave.duty * wave.period_s ? wave.high_N : wave.low_N;
}

std::string GripForceProgramLabel(const GripForceSquareWave& wave) {
  return fmt::format("square wave {:g}-{:g} N, {:g} s, {:g} %", wave.low_N, wave.high_N,
                     wave.period_s, 100 * wave.duty);
}

}  // namespace contactlab
