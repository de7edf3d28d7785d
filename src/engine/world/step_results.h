// Stage "results" of a step: what the solver's impulses mean for the user — per contact its
// force, slip and state, per body the net contact force, per hydroelastic patch the sum of its
// faces' forces.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/solver/convex_solver.h"
#include "engine/world/contact_candidates.h"
#include "engine/world/problem_builder.h"
#include "engine/world/world_model.h"

namespace contactlab {

// One contact point of the last step, with the force the solver applied. A hydroelastic
// contact surface contributes one ContactResult per face set (docs/contact-model.md §5).
struct ContactResult {
  int geometry_a = -1, geometry_b = -1;
  int body_a = -1, body_b = -1;  // scene body indices
  Eigen::Vector3d position_W;    // where the force acts
  Eigen::Vector3d normal_W;      // from A into B
  // At the start of the step; for hydroelastic faces the penetration their pressure implies
  // (negative; NaN where not defined), below.
  double signed_distance_m = 0;
  // Force on B (minus on A) averaged over the step [N], split into normal and friction.
  Eigen::Vector3d normal_force_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d friction_force_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d slip_velocity_W = Eigen::Vector3d::Zero();  // v_t of B relative to A at end
  double normal_velocity = 0;                                 // v_n at end of step
  // kStick / kSlip: pressed (γ_n > 0) and, under SAP, its impulse from the stiction / sliding
  // region of the friction cone (docs/contact-model.md §2.1), v_s playing no part; under Lagged
  // and Similar, slipping at most / more than 2·v_s (§2.5). kSeparating: no force and opening
  // (v_n > 0); kMargin: no force, within the contact margin, not opening.
  enum class State { kStick, kSlip, kSeparating, kMargin } state = State::kMargin;
  // Diagnostics of the convex approximation (docs/contact-model.md §2.5): the signed distance
  // φ0 + δt·v_n at the end of the step, the normal offset the
  // approximation introduces while slipping (gliding: SAP μ(δt + τ_d)‖v_t‖, Similar μδt‖v_t‖,
  // Lagged 0), the normal stiffness in force (§2.5 Table I) and the slip speed below which
  // friction sticks (ContactModelDiagnostics).
  double signed_distance_end_m = 0;
  double gliding_offset_m = 0;
  double effective_stiffness_N_per_m = 0;
  double effective_stiction_tolerance_m_per_s = 0;
  // The stiffness the pair asked for (the combined k of §6, a face set's Σ A_f·g_f) and whether
  // SAP's near-rigid rule replaced it (ContactModelDiagnostics): what the GUI sets the effective
  // stiffness against.
  double requested_stiffness_N_per_m = 0;
  bool near_rigid = false;
  // Hydroelastic faces only (§5): index into World::hydroelastic_patches() and of the face in
  // that patch's surface (both −1 for a point contact), the face area A_f [m²] and the
  // pressure p0_f at its centroid [Pa] at the start of the step. For a face,
  // signed_distance_m is −δ_f, the penetration the pressure field implies
  // (hydroelastic::ContactFace::penetration_m; NaN where not defined), not the solver's
  // φ0_f = −p0_f/g_f, which is a spring's rest offset and grows without bound where the
  // normal runs across the field (docs/contact-model.md §5); signed_distance_end_m is
  // −δ_f + δt·v_n. Small polygons are merged (kFanPolygonSize): the
  // contact then stands for faces [hydroelastic_face, hydroelastic_face +
  // hydroelastic_num_faces) (one polygon's fan), or, with hydroelastic_num_faces = 0, for all
  // of the patch's tiny polygons with this normal (hydroelastic_face: the first of them); area
  // and pressure are then the set's total area and mean pressure, position_W its centre of
  // pressure and δ the faces' area-weighted mean (FaceSum::Penetration).
  int hydroelastic_patch = -1;
  int hydroelastic_face = -1;
  int hydroelastic_num_faces = 0;
  double face_area_m2 = 0;
  double pressure_Pa = 0;
};

struct StepResults {
  std::vector<ContactResult> contacts;
  // Per scene body: the net contact force over the last step, normal and friction parts [N].
  std::vector<Eigen::Vector3d> net_normal_force, net_friction_force;
  void ZeroForces();
  void Clear();  // no contacts, zero forces (Reset)
};

// Fills `results` (and the patches' force sums) from the solved step, its per-row impulses γ
// and constraint velocities v_c (the solver's, or the rigid stage's): γ/δt is the mean force,
// v_c the contact velocity at the step's end; a pressed contact sticks in SAP's stiction region,
// or under Lagged and Similar when its slip is within twice their soft-norm width ε (v_s, or
// regularized Lagged's max(v_s, σ·w_t·μ·γ_n0)).
void CollectStepResults(const WorldModel& model, const std::vector<ContactCandidate>& candidates,
                        const ProblemBuilder& builder,
                        const Eigen::Ref<const Eigen::VectorXd>& impulses,
                        const Eigen::Ref<const Eigen::VectorXd>& constraint_velocities, double dt_s,
                        std::vector<HydroelasticPatch>* patches, StepResults* results);

}  // namespace contactlab
