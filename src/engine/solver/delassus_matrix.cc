#include "engine/solver/delassus_matrix.h"

namespace contactlab {

void CalcDelassusMatrix(const ConvexProblem& problem, const std::vector<int>& constraints,
                        Eigen::MatrixXd* W) {
  // Each constraint's first row in W.
  std::vector<int> offset(constraints.size());
  int rows = 0;
  for (size_t k = 0; k < constraints.size(); ++k) {
    offset[k] = rows;
    rows += problem.entry(constraints[k]).num_rows;
  }
  W->setZero(rows, rows);
  for (int t = 0; t < problem.num_trees(); ++t) {
    const auto A = problem.tree_A(t);
    const int nv = static_cast<int>(A.rows());
    if (nv == 0) continue;
    // J_t: the rows of the constraints that touch tree t, stacked; where they sit in W.
    Eigen::MatrixXd J_t = Eigen::MatrixXd::Zero(rows, nv);
    bool touched = false;
    for (size_t k = 0; k < constraints.size(); ++k) {
      const ConvexProblem::ConstraintEntry& e = problem.entry(constraints[k]);
      for (int q = 0; q < e.num_cliques; ++q) {
        if (e.tree[q] != t) continue;
        J_t.middleRows(offset[k], e.num_rows) = problem.jacobian(constraints[k], q);
        touched = true;
      }
    }
    if (!touched) continue;
    const Eigen::LLT<Eigen::MatrixXd> llt(A);
    *W += J_t * llt.solve(J_t.transpose());
  }
}

}  // namespace contactlab
