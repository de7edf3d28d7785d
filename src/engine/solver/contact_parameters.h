// The contact approximations of the convex problem and the physical parameters of a contact
// pair (docs/contact-model.md §2, §6). Plain data shared by the scene description and the
// constraint factory.
#pragma once

#include <optional>
#include <string>

namespace contactlab {

// SAP (§2.1), Lagged (§2.3) or Similar (§2.4).
// kRegularizedLagged: Lagged with the regularized stiction width ε = max(v_s, σ·w_t·μ·γ_n0)
// (docs/contact-model.md §2.3, ICF paper §VIII eq. 26).
// kDrumwrightShell: not a compliant approximation but the rigid impulse model of Drumwright &
// Shell (§8), which reads only μ and the restitution ε.
enum class ContactApproximation { kSap, kLagged, kSimilar, kRegularizedLagged, kDrumwrightShell };
// "sap", "lagged", "similar", "regularized_lagged", "drumwright_shell".
const char* ContactApproximationName(ContactApproximation a);
// Parses one of those names; std::nullopt otherwise.
std::optional<ContactApproximation> ParseContactApproximation(const std::string& s);
// Whether `a` is the rigid model (§8): no stiffness, no pressure field (every pair a point
// contact), its contact impulses from the rigid stage rather than the convex solve.
bool IsRigidModel(ContactApproximation a);

// A geometry's contact properties, and a pair's after combination (§6). Defaults follow §2.1.
struct ContactProperties {
  double stiffness_N_per_m = 1e6;     // k ∈ (0, ∞]; ∞: rigid
  double hunt_crossley_s_per_m = 50;  // d ∈ [0, ∞): Hunt & Crossley dissipation (Lagged, Similar)
  double relaxation_time_s = 0.1;     // τ_d ∈ [0, ∞): SAP's dissipation time scale
  double friction = 0.5;              // μ ∈ [0, ∞)
  double restitution = 0;             // ε ∈ [0, 1]: Newton's coefficient (rigid model only, §8)
};

}  // namespace contactlab
