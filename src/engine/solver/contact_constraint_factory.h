// The one place where the contact approximation is chosen (docs/contact-model.md §2): the
// world describes each contact of a step once — the pair's physics and where it is — and the
// factory makes the SAP, Lagged or Similar constraint for it, in storage that it owns and
// reuses from step to step (no allocation once warm).
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "engine/solver/contact_constraints.h"
#include "engine/solver/contact_settings.h"
#include "engine/solver/delassus_estimate.h"
#include "engine/solver/rigid_contact.h"

namespace contactlab {

// One contact of a step, in its contact frame (z along the normal, separating for v_n > 0).
struct ContactConfiguration {
  double signed_distance_m = 0;  // φ0 at the start of the step
  // Hydroelastic face sets (§5): the elastic force f0 = Σ A_f·p0_f, which stays finite where the
  // face stiffness k = Σ A_f·g_f → 0 (φ0 = −f0/k). Point contacts: f0 = k·(−φ0).
  std::optional<double> elastic_force_N;
  double previous_normal_velocity_m_per_s = 0;  // v_n at the previous state (Lagged's γ_n0)
};

// What the approximation of a contact does to its physics at the end of a step, for display and
// logs (docs/contact-model.md §2.5).
struct ContactModelDiagnostics {
  // The normal offset the approximation introduces while the contact slips at ‖v_t‖ (gliding):
  // SAP μ(δt + τ_d)‖v_t‖, Similar μ·δt·‖v_t‖, Lagged 0 [m].
  double gliding_offset_m = 0;
  // The normal stiffness in force (§2.5, Table I): SAP k_R/(1 + μ̃²) while sliding and k_R
  // while sticking, k_R = 1/(δt(δt + τ_d)R_n) (k, or less where the near-rigid switch
  // regularizes it) and μ̃² = μ²R_t/R_n; Lagged k; Similar k(1 + μ·d·‖v_t‖) [N/m].
  double effective_stiffness_N_per_m = 0;
  // The stiffness asked for: the pair's combined k (§6; a hydroelastic face set's Σ A_f·g_f,
  // §5) before any regularization, so that a user sees what the approximation made of it [N/m].
  double requested_stiffness_N_per_m = 0;
  // SAP's R_n is its near-rigid term β²w_n/(4π²) (§2.1): δt cannot resolve k, and the contact is
  // as stiff as δt allows, whatever k asks for.
  bool near_rigid = false;
  // The slip speed below which friction is regularized (sticks): SAP σ·w_t·μ·γ_n (its R_t·μ·γ_n),
  // Lagged and Similar the soft-norm width ε [m/s].
  double effective_stiction_tolerance_m_per_s = 0;
};

// The contact parameters a user sets live, and whether an approximation's constraints read them
// (§2.1–§2.4): SAP dissipates through the relaxation time τ_d and regularizes friction with
// σ·w_t (not v_s); Lagged and Similar dissipate through Hunt & Crossley's d and smooth friction
// over v_s, and have no τ_d; the rigid model (§8) reads only μ and the restitution ε, which no
// compliant approximation reads. The UI greys out the ones not read. The hydroelastic modulus
// E_h (§5) is a compliant geometry's, not a pair's: every convex approximation reads it through
// the pressure field's face stiffnesses; the rigid model uses point contact.
enum class ContactParameter {
  kStiffness,
  kHuntCrossley,
  kRelaxationTime,
  kFriction,
  kStictionTolerance,
  kRestitution,
  kHydroelasticModulus
};
bool UsesParameter(ContactApproximation approximation, ContactParameter parameter);
// One line on why `approximation` does not read `parameter` ("" if it does).
const char* UnusedParameterReason(ContactApproximation approximation, ContactParameter parameter);

// A point contact with a gap φ0 acts in a step only if, at the step's velocities,
// v_n − μ‖v_t‖ < −φ0/h (docs/contact-model.md §4.3): the horizon h is δt for Lagged and Similar
// (x = x0 − δt v_n; Similar's z = v_n − μ‖v_t‖_s, and ‖v_t‖_s ≤ ‖v_t‖), and δt + τ_d for SAP
// (separation y_n ≤ −μ̂ y_r ⇔ v_n − v̂_n ≥ μ‖v_t‖ with v̂_n = −φ0/(δt + τ_d)). Lagged's friction
// needs no term (γ_n0 = 0 across a gap): the test is conservative there.
double ContactHorizon(ContactApproximation approximation, const ContactProperties& pair,
                      double dt_s);
bool MayAct(double signed_distance_m, double horizon_s, double friction, double normal_velocity,
            double slip_speed);

class ContactConstraintFactory {
 public:
  // Makes room for the contacts of one step; the constraints of the previous step are dropped.
  // Addresses returned by Make stay valid until the next Reset.
  void Reset(const ContactSettings& settings, int num_contacts);
  // Whether Make needs the contact's Delassus diagonal (SAP and regularized Lagged scale with
  // it); otherwise the caller may skip its estimate and pass {}.
  bool needs_delassus_diagonal() const;
  // Contact c (0 ≤ c < num_contacts) with the pair's physical properties (§6, the stiffness that
  // of the point pair or the hydroelastic face set).
  const Constraint* Make(int c, const ContactProperties& pair, const ContactConfiguration& config,
                         double dt_s, const DelassusDiagonal& w);
  // Contact c made by Make with `pair`, after the solve: its normal impulse γ_n [N·s] and
  // slip speed ‖v_t‖ at the step's end [m/s].
  ContactModelDiagnostics Diagnose(int c, const ContactProperties& pair, double dt_s,
                                   double normal_impulse, double slip_speed) const;
  // Contact c made by Make, after the solve, at its contact velocity v_c at the step's end: the
  // region of SAP's friction cone its impulse was computed in (§2.1, SapContact::CalcRegion);
  // nullopt for Lagged and Similar, whose smooth friction has no regions (§2.5).
  std::optional<SapContact::Region> SapRegion(int c, const Eigen::Vector3d& v_c) const;

 private:
  ContactSettings settings_;
  std::vector<std::variant<std::monostate, SapContact, LaggedContact, SimilarContact, RigidContact>>
      contacts_;
};

}  // namespace contactlab
