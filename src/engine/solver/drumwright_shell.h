// The rigid impulse model of Drumwright & Shell 2009, "A Robust and Tractable Contact Model for
// Dynamic Robotic Simulation" §3: contact impulses x that stop the
// approaching contacts exactly (Newton restitution ε), then remove as much of the post-impulse
// tangential velocity as the friction cones allow.
//   Phase 1: w_s, the minimum-norm solution of A_N w_s = −(1 + ε) b_N (SVD pseudo-inverse).
//   Phase 2: x = w + R y over the nullspace R of C = [A_N B] (the normal velocities kept), the y
//            that minimizes ‖D x + b_T‖², D = [Bᵀ A_T], subject to each contact's friction cone
//            ‖x_T,i‖² ≤ μ_i² x_N,i² and the normal-norm bound ‖x_N‖ ≤ ‖w_s‖ (the paper's
//            g(y) = (2 w_s + S y)ᵀ S y ≤ 0), by the logarithmic-barrier method with Newton steps
//            and an exact (golden-section) line search.
// This file is the solver alone, on the contacts' Delassus matrix; a step's use of it is the
// next stage of issue 38.
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
};

struct DrumwrightShellParameters {
  // Singular values below this fraction of the largest count as zero (phase 1's rank, the
  // nullspace of C).
  double rank_tolerance = 1e-10;
  // The barrier method stops when its duality-gap bound m/t is below this fraction of phase
  // 1's ‖D w + b_T‖² (plus an absolute 1e-30).
  double gap_tolerance = 1e-10;
  // The constraints are f_i ≤ s and g ≤ s with s this fraction of ‖w_s‖²: the start y = 0 lies
  // on their boundary (g(0) = 0; f_i(0) = 0 for a contact without normal impulse), and a barrier
  // needs a strictly feasible start. Solutions satisfy the cones to within s.
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
  double duality_gap = 0;          // the final m/t
  double tangential_phase1 = 0;    // ‖D w + b_T‖ [m/s]
  double tangential_residual = 0;  // ‖D x + b_T‖ [m/s]
  bool converged = true;
};

// The contacts' impulses x (3n) [N·s]. Requires b_N,i ≤ 0 for every contact (approaching or at
// rest: the caller leaves separating contacts out); throws std::invalid_argument otherwise or
// on inconsistent sizes. Non-convergence is reported in stats (x is then the last iterate,
// feasible).
Eigen::VectorXd SolveDrumwrightShell(const DrumwrightShellProblem& problem,
                                     const DrumwrightShellParameters& parameters,
                                     DrumwrightShellStats* stats);

}  // namespace contactlab
