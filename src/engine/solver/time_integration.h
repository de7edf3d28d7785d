// How a step advances time (docs/contact-model.md §1.1–§1.2), one of the live settings: the
// symplectic Euler step of every release so far; the SAP paper's θ-method (§II-C/D of Castro et
// al. 2022), whose named members are implicit Euler and the symplectic midpoint rule; or
// error-controlled convex stepping by step doubling (after Kurtz & Castro's CENIC, 2025), where
// the user sets an accuracy and δt_max and the step size follows the error.
#pragma once

#include <optional>
#include <string>

namespace contactlab {

struct TimeIntegration {
  enum class Scheme {
    // q = q0 + δt N(q0) v, joint springs and dampers linearly implicit (A = M + δt D + δt² K):
    // the default, bit for bit the step of every earlier release.
    kSymplecticEuler,
    // The θ-method with weights (θ_q, θ_v) (§1.1).
    kTheta,
    // Symplectic Euler steps of a size the error estimate chooses (§1.2); ContactSettings::dt_s
    // is then δt_max.
    kErrorControlled,
  };
  Scheme scheme = Scheme::kSymplecticEuler;
  // kTheta: the weight of the step's end velocity in the position update,
  // q = q0 + δt N(q0) (θ_q v + (1 − θ_q) v0), and of the step's end state where the non-contact
  // forces are evaluated (q^θ = θ_v q + (1 − θ_v) q0, v^θ = θ_v v + (1 − θ_v) v0). Each ∈ [0, 1].
  double theta_q = 1, theta_v = 0;
  // kErrorControlled: the accuracy ε ∈ [1e-8, 1], a bound on each step's local error estimate,
  // max(‖Δq‖∞, δt_max ‖Δv‖∞) in metres and radians (§1.2).
  double accuracy = 1e-3;
  bool operator==(const TimeIntegration&) const = default;

  static TimeIntegration Theta(double theta_q, double theta_v) {
    return {Scheme::kTheta, theta_q, theta_v};
  }
  static TimeIntegration ImplicitEuler() { return Theta(1, 1); }
  static TimeIntegration Midpoint() { return Theta(0.5, 0.5); }
  static TimeIntegration ErrorControlled(double accuracy) {
    return {Scheme::kErrorControlled, 1, 0, accuracy};
  }
};

// "symplectic_euler", "implicit_euler", "midpoint", "theta:θq,θv" or "error_controlled" (with
// the default accuracy); nullopt for anything else (ranges are ValidateTimeIntegration's).
std::optional<TimeIntegration> ParseTimeIntegration(const std::string& text);
// The inverse: the named members by name, any other θ pair as "theta:θq,θv".
std::string TimeIntegrationName(const TimeIntegration& integration);

// Throws std::invalid_argument "<integrator_name> …" or "<accuracy_name> …" for a θ outside
// [0, 1] or an accuracy outside [1e-8, 1] (or not finite).
void ValidateTimeIntegration(const TimeIntegration& integration, const std::string& integrator_name,
                             const std::string& accuracy_name);

}  // namespace contactlab
