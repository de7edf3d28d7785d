#include "engine/world/step_size_controller.h"

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace {

constexpr double kSafety = 0.9;
constexpr double kMinShrink = 0.1;
constexpr double kMaxGrow = 5.0;
constexpr double kHysteresisLow = 0.9;   // a rejected step shrinks at least this much
constexpr double kHysteresisHigh = 1.2;  // an accepted step grows only by at least this much
constexpr double kErrorOrder = 2;

}  // namespace

StepSizeDecision DecideStepSize(double dt_s, double error, const StepSizeLimits& limits) {
  const bool finite = std::isfinite(error);
  const bool accept = finite && error <= limits.accuracy;
  double next = !finite      ? kMinShrink * dt_s
                : error == 0 ? kMaxGrow * dt_s
                             : kSafety * dt_s * std::pow(limits.accuracy / error, 1 / kErrorOrder);
  if (accept) {
    next = next < kHysteresisHigh * dt_s ? dt_s : next;
  } else {
    next = std::min(next, kHysteresisLow * dt_s);
  }
  next = std::clamp(next, kMinShrink * dt_s, kMaxGrow * dt_s);
  next = std::clamp(next, limits.dt_min_s, limits.dt_max_s);
  if (!accept && dt_s <= limits.dt_min_s) return {true, limits.dt_min_s, true};
  return {accept, next, false};
}

}  // namespace contactlab
