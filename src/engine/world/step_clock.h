// The wall clock the step's stages are timed with (StepStats: geometry, solve, total).
#pragma once

#include <chrono>

namespace contactlab {

using StepClock = std::chrono::steady_clock;

// Milliseconds of wall time since t0.
inline double MillisecondsSince(StepClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(StepClock::now() - t0).count();
}

// Writes the milliseconds of wall time from its construction to its destruction to *ms: a stage
// is timed by one line, whichever way it returns.
class ScopedTimer {
 public:
  explicit ScopedTimer(double* ms) : ms_(ms), t0_(StepClock::now()) {}
  ~ScopedTimer() { *ms_ = MillisecondsSince(t0_); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double* ms_;
  StepClock::time_point t0_;
};

}  // namespace contactlab
