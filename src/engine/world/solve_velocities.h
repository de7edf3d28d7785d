// Stage "solve" of a step (docs/contact-model.md §4): the velocities at the step's end, the
// minimizer of the convex problem by Newton's method, warm-started at v0.
#pragma once

#include <Eigen/Dense>

#include "engine/solver/convex_solver.h"

namespace contactlab {

// Returns false when the solver had invalid input or returned a non-finite velocity (the caller
// keeps its state and reports it). Non-convergence is logged and reported in *stats; the step
// is still taken. v0 may be *v_next (a warm start from the last solution).
bool SolveVelocities(ConvexSolver* solver, const ConvexProblem& problem, const Eigen::VectorXd& v0,
                     double t, Eigen::VectorXd* v_next, ConvexSolverStats* stats);

}  // namespace contactlab
