// The wall clock the step's stages are timed with (StepStats: geometry, solve, total).
#pragma once

#include <chrono>

namespace contactlab {

using StepClock = std::chrono::steady_clock;

// Milliseconds of wall time since t0.
inline double MillisecondsSince(StepClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(StepClock::now() - t0).count();
}

}  // namespace contactlab
