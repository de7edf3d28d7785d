// The Delassus matrix W = J A⁻¹ Jᵀ of some of a problem's constraints, dense: the impulse-to-
// velocity map at their rows that Drumwright & Shell's phase 1 and 2 work on
// (docs/contact-model.md §8), with A the problem's block-diagonal matrix (M + δt D + δt² K); and
// the velocity change A⁻¹ Jᵀ x that impulses x at those rows make.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/solver/convex_problem.h"

namespace contactlab {

class DelassusMatrix {
 public:
  // W over `constraints` (indices into problem, rows stacked in that order): per tree that they
  // touch one Cholesky factorization of A_t and W += J_t A_t⁻¹ J_tᵀ over its rows. O(rows² nv +
  // nv³) per tree; it allocates (a rigid model's step is O(n³) anyway).
  void Compute(const ConvexProblem& problem, const std::vector<int>& constraints);
  const Eigen::MatrixXd& W() const { return W_; }
  // v += A⁻¹ Jᵀ x, x over the rows of Compute's constraints in its order, with its problem and
  // factorizations.
  void AddVelocityChange(const ConvexProblem& problem, const Eigen::VectorXd& x,
                         Eigen::VectorXd* v) const;

 private:
  struct Tree {
    int tree = -1;
    Eigen::LLT<Eigen::MatrixXd> llt;
    Eigen::MatrixXd J;  // the constraints' rows on this tree, stacked as W's
  };
  std::vector<Tree> trees_;
  Eigen::MatrixXd W_;
};

}  // namespace contactlab
