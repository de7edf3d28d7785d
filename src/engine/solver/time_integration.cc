#include "engine/solver/time_integration.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace contactlab {
namespace {

// The number that is all of text, or nullopt.
std::optional<double> ParseNumber(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<TimeIntegration> ParseTimeIntegration(const std::string& text) {
  if (text == "symplectic_euler") return TimeIntegration{};
  if (text == "implicit_euler") return TimeIntegration::ImplicitEuler();
  if (text == "midpoint") return TimeIntegration::Midpoint();
  if (text == "error_controlled") return TimeIntegration::ErrorControlled(1e-3);
  const std::string prefix = "theta:";
  if (text.rfind(prefix, 0) != 0) return std::nullopt;
  const size_t comma = text.find(',', prefix.size());
  if (comma == std::string::npos) return std::nullopt;
  const auto theta_q = ParseNumber(text.substr(prefix.size(), comma - prefix.size()));
  const auto theta_v = ParseNumber(text.substr(comma + 1));
  if (!theta_q || !theta_v) return std::nullopt;
  return TimeIntegration::Theta(*theta_q, *theta_v);
}

std::string TimeIntegrationName(const TimeIntegration& integration) {
  switch (integration.scheme) {
    case TimeIntegration::Scheme::kSymplecticEuler:
      return "symplectic_euler";
    case TimeIntegration::Scheme::kErrorControlled:
      return "error_controlled";
    case TimeIntegration::Scheme::kTheta:
      break;
  }
  // By the weights alone: the accuracy is error control's, not the θ-method's.
  const auto weights_are = [&integration](const TimeIntegration& named) {
    return integration.theta_q == named.theta_q && integration.theta_v == named.theta_v;
  };
  if (weights_are(TimeIntegration::ImplicitEuler())) return "implicit_euler";
  if (weights_are(TimeIntegration::Midpoint())) return "midpoint";
  return fmt::format("theta:{},{}", integration.theta_q, integration.theta_v);
}

void ValidateTimeIntegration(const TimeIntegration& integration, const std::string& integrator_name,
                             const std::string& accuracy_name) {
  for (const double theta : {integration.theta_q, integration.theta_v}) {
    if (!(theta >= 0 && theta <= 1)) {
      throw std::invalid_argument(
          fmt::format("{} θ must be in [0, 1], got {}", integrator_name, theta));
    }
  }
  if (!(integration.accuracy >= 1e-8 && integration.accuracy <= 1)) {
    throw std::invalid_argument(
        fmt::format("{} must be in [1e-8, 1], got {}", accuracy_name, integration.accuracy));
  }
}

}  // namespace contactlab
