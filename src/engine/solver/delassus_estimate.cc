#include "engine/solver/delassus_estimate.h"

#include <algorithm>

namespace contactlab {

DelassusDiagonal EstimateDelassusDiagonal(const ConvexProblem& problem, int constraint,
                                          Eigen::MatrixXd* scratch) {
  const ConvexProblem::ConstraintEntry& e = problem.entry(constraint);
  Eigen::Matrix3d W = Eigen::Matrix3d::Zero();
  for (int q = 0; q < e.num_cliques; ++q) {
    const auto J = problem.jacobian(constraint, q);
    const auto A = problem.tree_A(e.tree[q]);
    auto J_Ainv = scratch->topLeftCorner(J.rows(), J.cols());
    J_Ainv = J * A.diagonal().cwiseInverse().asDiagonal();
    W.noalias() += J_Ainv * J.transpose();
  }
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
