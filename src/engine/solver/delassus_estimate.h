// The diagonal of a contact constraint's Delassus operator W = J A⁻¹ Jᵀ, estimated cheaply
// (docs/contact-model.md §2.1): what SAP's regularization and the regularized Lagged
// stiction width scale with.
#pragma once

#include "engine/solver/convex_problem.h"

namespace contactlab {

// Inverse masses seen by a contact in its frame [1/kg].
struct DelassusDiagonal {
  double w_t = 0;  // tangential: the mean of the two tangential diagonal entries
  double w_n = 0;  // normal
};

// W ≈ Σ_t J_t diag(A_t)⁻¹ J_tᵀ over the constraint's cliques, its Jacobian already in `problem`.
// Both entries are at least ‖W‖_F/3, and w_t > 0 even for a contact on a joint axis (whose
// tangential entry can be zero), so that SAP's R_t = σ·w_t stays positive.
// Allocation-free.
DelassusDiagonal EstimateDelassusDiagonal(const ConvexProblem& problem, int constraint);

// The diagonal of W = Σ_t J_t diag(A_t)⁻¹ J_tᵀ row by row, for a constraint of any number of rows
// (a holonomic constraint's rows, §3.1): w_i = Σ_j J_ij² / A_jj. A row no dof moves (a zero row
// of J, where any R is as good) gets 1e-9 of the largest entry, or 1 if all are zero, so that
// every w_i > 0.
void EstimateDelassusRows(const ConvexProblem& problem, int constraint,
                          Eigen::Ref<Eigen::VectorXd> w);

}  // namespace contactlab
