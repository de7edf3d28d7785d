#include "engine/solver/contact_parameters.h"

namespace contactlab {

const char* ContactApproximationName(ContactApproximation a) {
  switch (a) {
    case ContactApproximation::kSap:
      return "sap";
    case ContactApproximation::kLagged:
      return "lagged";
    case ContactApproximation::kSimilar:
      return "similar";
    case ContactApproximation::kRegularizedLagged:
      return "regularized_lagged";
    case ContactApproximation::kDrumwrightShell:
      return "drumwright_shell";
  }
  return "?";
}

bool IsRigidModel(ContactApproximation a) { return a == ContactApproximation::kDrumwrightShell; }

std::optional<ContactApproximation> ParseContactApproximation(const std::string& s) {
  if (s == "sap") return ContactApproximation::kSap;
  if (s == "lagged") return ContactApproximation::kLagged;
  if (s == "similar") return ContactApproximation::kSimilar;
  if (s == "regularized_lagged") return ContactApproximation::kRegularizedLagged;
  if (s == "drumwright_shell") return ContactApproximation::kDrumwrightShell;
  return std::nullopt;
}

}  // namespace contactlab
