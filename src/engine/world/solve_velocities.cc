#include "engine/world/solve_velocities.h"

#include <spdlog/spdlog.h>

namespace contactlab {

bool SolveVelocities(ConvexSolver* solver, const ConvexProblem& problem, const Eigen::VectorXd& v0,
                     double t, Eigen::VectorXd* v_next, ConvexSolverStats* stats) {
  *v_next = v0;  // warm start (§4)
  *stats = solver->Solve(problem, v_next);
  // A failed step, not a non-converged one; the caller reports it (World::failure()).
  if (stats->invalid_input || stats->constraint_non_finite || !v_next->allFinite()) return false;
  if (!stats->converged) {
    spdlog::warn(
        "step at t = {:.6f} s: solver did not converge ({} iterations, residual {:.3e} "
        "> {:.3e})",
        t, stats->iterations, stats->residual, stats->tolerance);
  }
  return true;
}

}  // namespace contactlab
