#include "engine/solver/delassus_matrix.h"

namespace contactlab {

void DelassusMatrix::Compute(const ConvexProblem& problem, const std::vector<int>& constraints) {
  // Each constraint's first row in W.
  std::vector<int> offset(constraints.size());
  int rows = 0;
  for (size_t k = 0; k < constraints.size(); ++k) {
    offset[k] = rows;
    rows += problem.entry(constraints[k]).num_rows;
  }
  W_.setZero(rows, rows);
  trees_.clear();
  for (int t = 0; t < problem.num_trees(); ++t) {
    const auto A = problem.tree_A(t);
    const int nv = static_cast<int>(A.rows());
    if (nv == 0) continue;
    Tree tree{t, {}, Eigen::MatrixXd::Zero(rows, nv)};
    bool touched = false;
    for (size_t k = 0; k < constraints.size(); ++k) {
      const ConvexProblem::ConstraintEntry& e = problem.entry(constraints[k]);
      for (int q = 0; q < e.num_cliques; ++q) {
        if (e.tree[q] != t) continue;
        tree.J.middleRows(offset[k], e.num_rows) = problem.jacobian(constraints[k], q);
        touched = true;
      }
    }
    if (!touched) continue;
    tree.llt.compute(A);
    W_ += tree.J * tree.llt.solve(tree.J.transpose());
    trees_.push_back(std::move(tree));
  }
}

void DelassusMatrix::AddVelocityChange(const ConvexProblem& problem, const Eigen::VectorXd& x,
                                       Eigen::VectorXd* v) const {
  for (const Tree& tree : trees_) {
    v->segment(problem.tree_start(tree.tree), problem.tree_nv(tree.tree)) +=
        tree.llt.solve(tree.J.transpose() * x);
  }
}

}  // namespace contactlab
