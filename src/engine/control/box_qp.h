// Dense box-constrained convex QP:  min ½ xᵀ H x + gᵀ x  subject to  l ≤ x ≤ u,
// with H symmetric positive definite and n small (≤ ~10; the differential IK uses n = 7).
//
// Method: primal active-set. Every variable is either free or held at one of its bounds (the
// working set). Each iteration minimizes the objective over the free variables with the others
// held (one Cholesky of the free block of H), then either steps to the first bound that blocks
// the way (adding it to the working set) or, at the subspace minimizer, checks the bound
// multipliers μ_i = (H x + g)_i and releases the most violated one. For strictly convex
// problems the objective strictly decreases between working-set changes, so the method
// terminates in finitely many iterations at the exact solution (up to the rounding of the
// linear solves): there is no tolerance on the optimality of x, only on the sign test of μ.
//
// The solver allocates in its constructor / Resize and never in Solve, so it can sit in a
// control loop that runs every time step.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace contactlab {

enum class BoxQpStatus {
  kSolved,               // KKT conditions hold
  kMaxIterations,        // gave up; x is feasible and the best iterate found
  kNotPositiveDefinite,  // a free block of H failed Cholesky; x is feasible but not optimal
  kInvalidBounds,        // some l_i > u_i or a NaN in the data; x untouched
};

struct BoxQpResult {
  BoxQpStatus status = BoxQpStatus::kInvalidBounds;
  int iterations = 0;  // working-set changes plus the final optimality check
  int num_active = 0;  // variables at a bound at the solution
  bool converged() const { return status == BoxQpStatus::kSolved; }
};

struct BoxQpOptions {
  // ≤ 0 picks 10 n + 20, far above what an active-set method needs for n ≤ 10 (typically
  // ≤ 2 n); it only guards against cycling on degenerate problems.
  int max_iterations = 0;
  // Relative tolerance of the multiplier sign test, scaled by ‖g‖∞ + ‖H‖max ‖x‖∞ n.
  double multiplier_tolerance = 1e-12;
};

class BoxQpSolver {
 public:
  explicit BoxQpSolver(int n = 0, BoxQpOptions options = {});

  // Sizes the scratch for n variables (allocates). Solve then never allocates.
  void Resize(int n);
  int size() const { return n_; }
  const BoxQpOptions& options() const { return options_; }

  // Solves the QP (H is read in full and assumed symmetric). Bounds may be ±infinity;
  // l_i = u_i fixes x_i.
  // If warm_start, x on entry is the initial guess (clamped into the box; variables on a bound
  // start in the working set), typically the previous solution of a slowly changing problem;
  // otherwise the solve starts from the projection of 0. On return x is the solution.
  BoxQpResult Solve(const Eigen::Ref<const Eigen::MatrixXd>& H,
                    const Eigen::Ref<const Eigen::VectorXd>& g,
                    const Eigen::Ref<const Eigen::VectorXd>& l,
                    const Eigen::Ref<const Eigen::VectorXd>& u, Eigen::Ref<Eigen::VectorXd> x,
                    bool warm_start = false);

  // After Solve: the bound multipliers (H x + g)_i of the active variables (≥ 0 at a lower
  // bound, ≤ 0 at an upper bound) and 0 for free variables.
  const Eigen::VectorXd& multipliers() const { return multipliers_; }
  // After Solve: −1 at the lower bound, +1 at the upper bound, 0 free (for a fixed variable,
  // l = u, −1).
  int active_side(int i) const { return state_[i]; }

 private:
  // Cholesky of H restricted to the nf free variables into the top-left of chol_; then solves
  // H_FF y = rhs_ in place. Returns false if the block is not positive definite.
  bool FactorAndSolveFree(const Eigen::Ref<const Eigen::MatrixXd>& H, int nf);

  int n_ = 0;
  BoxQpOptions options_;
  Eigen::MatrixXd chol_;         // n × n, lower Cholesky factor of the free block
  Eigen::VectorXd rhs_;          // n, right-hand side / solution of the free system
  Eigen::VectorXd multipliers_;  // n
  std::vector<int> free_;        // indices of free variables, capacity n
  std::vector<std::int8_t> state_;
};

}  // namespace contactlab
