#include "engine/solver/delassus_matrix.h"

#include <gtest/gtest.h>

#include <random>

namespace contactlab {
namespace {

// W = J A⁻¹ Jᵀ against the dense product over the whole problem, for constraints on one tree,
// across two trees and in any order.
TEST(DelassusMatrix, IsTheDenseProductOverTheConstraintsAsked) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uniform(-1, 1);
  ConvexProblem problem;
  problem.Reset({2, 3});
  Eigen::MatrixXd A_full = Eigen::MatrixXd::Zero(5, 5);
  for (int t = 0; t < 2; ++t) {
    const int n = t == 0 ? 2 : 3, s = t == 0 ? 0 : 2;
    Eigen::MatrixXd G(n, n);
    for (int i = 0; i < n * n; ++i) G(i) = uniform(rng);
    const Eigen::MatrixXd A = G * G.transpose() + Eigen::MatrixXd::Identity(n, n);
    problem.mutable_tree_A(t) = A;
    A_full.block(s, s, n, n) = A;
  }
  const int c0 = problem.AddConstraintRows(3, 0, -1);
  for (int i = 0; i < 6; ++i) problem.mutable_jacobian(c0, 0)(i) = uniform(rng);
  const int c1 = problem.AddConstraintRows(3, 0, 1);
  for (int i = 0; i < 6; ++i) problem.mutable_jacobian(c1, 0)(i) = uniform(rng);
  for (int i = 0; i < 9; ++i) problem.mutable_jacobian(c1, 1)(i) = uniform(rng);
  const int c2 = problem.AddConstraintRows(1, 1, -1);
  for (int i = 0; i < 3; ++i) problem.mutable_jacobian(c2, 0)(i) = uniform(rng);
  // The dense J of the constraints in the order asked.
  const std::vector<int> asked = {c2, c0, c1};
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(7, 5);
  int row = 0;
  for (const int k : asked) {
    const ConvexProblem::ConstraintEntry& e = problem.entry(k);
    for (int q = 0; q < e.num_cliques; ++q) {
      J.block(row, problem.tree_start(e.tree[q]), e.num_rows, problem.tree_A(e.tree[q]).rows()) =
          problem.jacobian(k, q);
    }
    row += e.num_rows;
  }
  DelassusMatrix delassus;
  delassus.Compute(problem, asked);
  const Eigen::MatrixXd expected = J * A_full.inverse() * J.transpose();
  EXPECT_LT((delassus.W() - expected).cwiseAbs().maxCoeff(),
            1e-12 * expected.cwiseAbs().maxCoeff());
  // The velocity change of impulses x at those rows is A⁻¹ Jᵀ x.
  Eigen::VectorXd x(7);
  for (int i = 0; i < 7; ++i) x[i] = uniform(rng);
  Eigen::VectorXd v = Eigen::VectorXd::Ones(5);
  delassus.AddVelocityChange(problem, x, &v);
  const Eigen::VectorXd v_expected =
      Eigen::VectorXd::Ones(5) + A_full.inverse() * J.transpose() * x;
  EXPECT_LT((v - v_expected).cwiseAbs().maxCoeff(), 1e-12 * v_expected.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace contactlab
