#include "engine/solver/delassus_estimate.h"

#include <algorithm>

namespace contactlab {

DelassusDiagonal EstimateDelassusDiagonal(const ConvexProblem& problem, int constraint) {
  // W = Σ_j J_j J_jᵀ / A_jj over the columns j of each clique (3 rows): its six distinct
  // entries summed column by column — Eigen's dynamic-size products cost more than the sums.
  const ConvexProblem::ConstraintEntry& e = problem.entry(constraint);
  double w00 = 0, w11 = 0, w22 = 0, w01 = 0, w02 = 0, w12 = 0;
  for (int q = 0; q < e.num_cliques; ++q) {
    const auto J = problem.jacobian(constraint, q);
    const auto A = problem.tree_A(e.tree[q]);
    for (int j = 0; j < J.cols(); ++j) {
      const double inv = 1 / A(j, j);
      const double j0 = J(0, j), j1 = J(1, j), j2 = J(2, j);
      w00 += j0 * j0 * inv, w11 += j1 * j1 * inv, w22 += j2 * j2 * inv;
      w01 += j0 * j1 * inv, w02 += j0 * j2 * inv, w12 += j1 * j2 * inv;
    }
  }
  Eigen::Matrix3d W;
  W << w00, w01, w02, w01, w11, w12, w02, w12, w22;
  const double w_rms = W.norm() / 3.0;
  DelassusDiagonal w;
  w.w_t = std::max({0.5 * (W(0, 0) + W(1, 1)), w_rms, 1e-12});
  w.w_n = std::max(W(2, 2), w_rms);
  return w;
}

void EstimateDelassusRows(const ConvexProblem& problem, int constraint,
                          Eigen::Ref<Eigen::VectorXd> w) {
  const ConvexProblem::ConstraintEntry& e = problem.entry(constraint);
  w.setZero();
  for (int q = 0; q < e.num_cliques; ++q) {
    const auto J = problem.jacobian(constraint, q);
    const auto A = problem.tree_A(e.tree[q]);
    for (int j = 0; j < J.cols(); ++j) w += J.col(j).cwiseAbs2() / A(j, j);
  }
  const double largest = w.maxCoeff();
  const double floor = largest > 0 ? 1e-9 * largest : 1.0;
  w = w.cwiseMax(floor);
}

}  // namespace contactlab
