// The rigid impulse model of Drumwright & Shell 2009, "A Robust and Tractable Contact Model for
// Dynamic Robotic Simulation" §3 (docs/contact-model.md §8): contact impulses x that give the
// contacts their post-impact normal velocities exactly (Newton restitution ε), then remove as
// much of the post-impulse tangential velocity as the friction cones allow.
//   Phase 1: w_s, the minimum-norm solution of A_N w_s = v_N⁺ − b_N (SVD pseudo-inverse), with
//            v_N⁺ = −ε b_N (Newton's law), or the contact's gap velocity (below) where larger or
//            where ε = 0.
//   Phase 2: x = w + R y over the nullspace R of C = [A_N B] (the normal velocities kept), the y
//            that minimizes ‖D x + b_T‖², D = [Bᵀ A_T], subject to each contact's friction cone
//            ‖x_T,i‖² ≤ μ_i² x_N,i² and a bound on the normal impulses (NormalBound), by the
//            logarithmic-barrier method with Newton steps and an exact (golden-section) line
//            search; then, where it is feasible, the unconstrained least-squares minimizer (a
//            sticking contact then sticks exactly, not to within the barrier's gap).
// This file is the solver alone, on the contacts' Delassus matrix; a step's use of it is
// engine/world/rigid_contact_stage.h.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace contactlab {

// n contacts, rows 3i, 3i + 1, 3i + 2 of contact i in its frame (t̂1, t̂2, n̂) as the rest of the
// engine orders them; v_c = A x + b, n̂ pointing so that v_n > 0 separates.
struct DrumwrightShellProblem {
  Eigen::MatrixXd A;             // 3n × 3n, J M⁻¹ Jᵀ: symmetric positive semi-definite [1/kg]
  Eigen::VectorXd b;             // 3n, the contact velocities without impulses [m/s]
  std::vector<double> friction;  // μ_i ≥ 0
  std::vector<double> restitution;  // ε_i ∈ [0, 1]
  // Per contact, g_i = −φ0/δt: the normal velocity that closes its gap, or undoes its
  // penetration, exactly by the step's end [m/s]. v_N⁺ = g_i for ε_i = 0 (an inelastic contact
  // lands on the surface, not short of it), max(−ε_i b_N, g_i) otherwise. Empty: g = 0, the
  // paper's law.
  std::vector<double> gap_velocity;
};

// What bounds the normal impulses in phase 2, which could otherwise grow along A_N's nullspace
// (a squeeze) to buy friction (docs/contact-model.md §8).
enum class NormalBound {
  // Σ x_N ≤ Σ w_s and x_N,i ≥ min(0, w_s,i): the normal impulses may be redistributed at the
  // same total, as a box's friction torque needs; the default.
  kTotal,
  // The paper's g(y) = (2 w_s + S y)ᵀ S y ≤ 0, ‖x_N‖ ≤ ‖w_s‖: no redistribution, so no friction
  // whose torque needs one (a box keeps sliding).
  kPaperNorm,
};

struct DrumwrightShellParameters {
  NormalBound normal_bound = NormalBound::kTotal;
  // Singular values below this fraction of the largest count as zero (phase 1's rank, the
  // nullspace of C).
  double rank_tolerance = 1e-10;
  // The barrier method stops when its duality-gap bound m/t is below this fraction of phase
  // 1's ‖D w + b_T‖² (plus an absolute 1e-30).
  double gap_tolerance = 1e-10;
  // The constraints are f_i ≤ s and g ≤ s with s this fraction of ‖w_s‖² (the linear bounds of
  // kTotal within √s): the start y = 0 lies on their boundary (g(0) = 0; f_i(0) = 0 for a
  // contact without normal impulse), and a barrier needs a strictly feasible start. Solutions
  // satisfy the cones to within s.
  double slack = 1e-12;
  double barrier_growth = 10;
  int max_outer_iterations = 60;
  int max_inner_iterations = 200;
};

struct DrumwrightShellStats {
  int num_contacts = 0;
  int phase1_rank = 0;             // rank of A_N
  double phase1_residual = 0;      // ‖A_N w_s + (1 + ε) b_N‖ [m/s]
  int nullspace_dimension = 0;     // columns of R
  int outer_iterations = 0;        // barrier parameter updates
  int inner_iterations = 0;        // Newton steps, summed
  int capped_minimizations = 0;    // inner minimizations stopped at max_inner_iterations
  double duality_gap = 0;          // the final m/t
  double tangential_phase1 = 0;    // ‖D w + b_T‖ [m/s]
  double tangential_residual = 0;  // ‖D x + b_T‖ [m/s]
  bool least_squares = false;      // the unconstrained minimizer was feasible and taken
  bool converged = true;
};

// The contacts' impulses x (3n) [N·s]: the caller chooses the contacts that act (the paper's
// approaching ones, b_N < 0; a contact whose v_N⁺ is below b_N gets pulled unless the others'
// impulses serve). Throws std::invalid_argument on inconsistent sizes. Non-convergence is reported
// in stats (x is then the last iterate, feasible).
Eigen::VectorXd SolveDrumwrightShell(const DrumwrightShellProblem& problem,
                                     const DrumwrightShellParameters& parameters,
                                     DrumwrightShellStats* stats);

}  // namespace contactlab
