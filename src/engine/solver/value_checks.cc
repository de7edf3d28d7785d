#include "engine/solver/value_checks.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <stdexcept>

namespace contactlab {

void CheckPositive(double value, const std::string& what) {
  if (!(std::isfinite(value) && value > 0)) {
    throw std::invalid_argument(
        fmt::format("{} must be a positive finite number, got {}", what, value));
  }
}

void CheckNonNegative(double value, const std::string& what) {
  if (!(std::isfinite(value) && value >= 0)) {
    throw std::invalid_argument(
        fmt::format("{} must be a non-negative finite number, got {}", what, value));
  }
}

}  // namespace contactlab
