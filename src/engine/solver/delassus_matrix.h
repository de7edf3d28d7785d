// The Delassus matrix W = J A⁻¹ Jᵀ of some of a problem's constraints, dense: the impulse-to-
// velocity map at their rows that Drumwright & Shell's phase 1 and 2 work on
// (docs/contact-model.md §8), with A the problem's block-diagonal matrix (M + δt D + δt² K).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/solver/convex_problem.h"

namespace contactlab {

// W over `constraints` (indices into problem, rows stacked in that order): per tree one
// Cholesky factorization of A_t and W += J_t A_t⁻¹ J_tᵀ over the rows that touch it. O(rows² nv
// + nv³) per tree; it allocates (a rigid model's step is O(n³) anyway).
void CalcDelassusMatrix(const ConvexProblem& problem, const std::vector<int>& constraints,
                        Eigen::MatrixXd* W);

}  // namespace contactlab
