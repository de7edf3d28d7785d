// ConstraintIslands (docs/contact-model.md §4.2): the connected components of the tree–constraint
// graph, and each island written out as a problem of its own whose cost, gradient and Hessian
// are the whole problem's restricted to it.
#include "engine/solver/constraint_islands.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "engine/solver/convex_solver.h"
#include "solver_test_problem.h"

namespace contactlab {
namespace {

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;
using testing::QuadraticConstraint;
using testing::RandomSpd;
using testing::RandomVector;
using testing::TestProblem;

std::vector<int> ToVector(std::span<const int> s) { return {s.begin(), s.end()}; }

TEST(ConstraintIslandsTest, IslandsAreTheConnectedComponentsInOrder) {
  // Trees 0…7. Constraints (in order): 5–6, 2–0, 4 alone, 1–2, 6–7, 4 alone again.
  // Components with a constraint: {0, 1, 2}, {4}, {5, 6, 7}; tree 3 is free. Tree 2 is linked
  // to 0 before 1 is linked to 2, and 6–7 joins an island whose lowest tree is 5: the islands
  // must still be ordered by their lowest tree and list their constraints in the problem's order.
  std::mt19937 rng(1);
  TestProblem tp;
  tp.MakeTrees(8, &rng);
  for (const auto& [a, b] :
       std::vector<std::pair<int, int>>{{5, 6}, {2, 0}, {4, -1}, {1, 2}, {6, 7}, {4, -1}}) {
    tp.AddConstraint(testing::Kind::kQuadratic, a, b, &rng);
  }
  ConstraintIslands islands;
  islands.Compute(tp.problem);
  ASSERT_EQ(islands.num_islands(), 3);
  EXPECT_EQ(ToVector(islands.trees(0)), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ToVector(islands.constraints(0)), (std::vector<int>{1, 3}));
  EXPECT_EQ(ToVector(islands.trees(1)), (std::vector<int>{4}));
  EXPECT_EQ(ToVector(islands.constraints(1)), (std::vector<int>{2, 5}));
  EXPECT_EQ(ToVector(islands.trees(2)), (std::vector<int>{5, 6, 7}));
  EXPECT_EQ(ToVector(islands.constraints(2)), (std::vector<int>{0, 4}));
  EXPECT_EQ(ToVector(islands.free_trees()), (std::vector<int>{3}));

  // Recomputed after the constraints change (storage reused): one island of everything but 3.
  tp.problem.ClearConstraints();
  for (const auto& [a, b] :
       std::vector<std::pair<int, int>>{{7, 0}, {1, 2}, {2, 4}, {4, 5}, {6, 5}, {0, 1}}) {
    tp.AddConstraint(testing::Kind::kQuadratic, a, b, &rng);
  }
  islands.Compute(tp.problem);
  ASSERT_EQ(islands.num_islands(), 1);
  EXPECT_EQ(ToVector(islands.trees(0)), (std::vector<int>{0, 1, 2, 4, 5, 6, 7}));
  EXPECT_EQ(islands.constraints(0).size(), 6u);
  EXPECT_EQ(ToVector(islands.free_trees()), (std::vector<int>{3}));
}

Matrix3d Skew(const Vector3d& r) {
  Matrix3d S;
  S << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return S;
}

// Four contacts with frames (J = s·R_WCᵀ·[−[p]×  I]·B) between the first body of tree_a and the
// second of tree_b: enough for BlockSparseHessian to sum the pair through the frames when one
// tree has more than 6 velocities.
void AddFramedContacts(TestProblem* tp, const std::vector<int>& body, int tree_a, int tree_b,
                       std::mt19937* rng) {
  ConvexProblem& problem = tp->problem;
  for (int c = 0; c < 4; ++c) {
    ConvexProblem::ContactFrame frame;
    frame.R_WC = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    frame.p_W = RandomVector(3, rng, 0.2);
    frame.body[0] = body[2 * tree_a];
    frame.body[1] = body[2 * tree_b + 1];
    frame.sign[1] = -1;
    Eigen::Matrix<double, 3, 6> W;
    W << -Skew(frame.p_W), Matrix3d::Identity();
    W = frame.R_WC.transpose() * W;
    tp->constraints.push_back(
        std::make_unique<QuadraticConstraint>(RandomSpd(3, rng, 2.0), RandomVector(3, rng)));
    const int i = problem.AddConstraint(tp->constraints.back().get(), tree_a, tree_b);
    for (int k = 0; k < 2; ++k) {
      problem.mutable_jacobian(i, k) = frame.sign[k] * W * problem.body_jacobian(frame.body[k]);
    }
    problem.mutable_bias(i) = RandomVector(3, rng, 0.1);
    problem.SetContactFrame(i, frame);
  }
}

TEST(ConstraintIslandsTest, AnIslandsProblemIsTheWholeOneRestricted) {
  // Trees of 7, 6, 9, 6 and 6 velocities, two body Jacobians each. Island 0: trees 0 and 1
  // (framed contacts, one constraint on tree 0 alone); island 1: trees 2 and 3 (framed
  // contacts, plus a plain constraint); tree 4 free. Each island's ℓ, ∇ℓ and H at v restricted
  // to it are the whole problem's; the free tree adds ½ (v − v*)ᵀ A (v − v*) to ℓ.
  std::mt19937 rng(2);
  TestProblem tp;
  ConvexProblem& problem = tp.problem;
  problem.Reset({7, 6, 9, 6, 6});
  std::vector<int> body;
  for (int t = 0; t < problem.num_trees(); ++t) {
    problem.mutable_tree_A(t) = RandomSpd(problem.tree_nv(t), &rng, 0.5);
    for (int k = 0; k < 2; ++k) {
      body.push_back(problem.AddBodyJacobian(t));
      problem.mutable_body_jacobian(body.back()) = MatrixXd::NullaryExpr(
          6, problem.tree_nv(t), [&]() { return std::normal_distribution<double>()(rng); });
    }
  }
  problem.mutable_free_motion_velocity() = RandomVector(problem.num_velocities(), &rng);
  AddFramedContacts(&tp, body, 0, 1, &rng);
  tp.AddConstraint(testing::Kind::kSoftplus, 0, -1, &rng);
  AddFramedContacts(&tp, body, 2, 3, &rng);
  tp.AddConstraint(testing::Kind::kOneSided, 3, 2, &rng);

  ConstraintIslands islands;
  islands.Compute(problem);
  ASSERT_EQ(islands.num_islands(), 2);
  const VectorXd v = RandomVector(problem.num_velocities(), &rng);
  ConvexSolver solver;
  VectorXd gradient;
  MatrixXd H;
  const double ell = solver.EvaluateCost(problem, v, &gradient, &H);
  double ell_sum = 0;
  ConstraintIslands::ExtractScratch scratch;
  for (int k = 0; k < islands.num_islands(); ++k) {
    ConvexProblem island;
    islands.Extract(problem, k, &island, &scratch);
    const std::vector<int> trees = ToVector(islands.trees(k));
    ASSERT_EQ(island.num_trees(), static_cast<int>(trees.size()));
    ASSERT_EQ(island.num_constraints(), static_cast<int>(islands.constraints(k).size()));
    std::vector<int> index;  // the island's velocities in the whole problem
    for (const int t : trees) {
      for (int j = 0; j < problem.tree_nv(t); ++j) index.push_back(problem.tree_start(t) + j);
    }
    VectorXd island_v(index.size());
    for (size_t j = 0; j < index.size(); ++j) island_v[j] = v[index[j]];
    VectorXd island_gradient;
    MatrixXd island_H;
    ell_sum += solver.EvaluateCost(island, island_v, &island_gradient, &island_H);
    for (size_t r = 0; r < index.size(); ++r) {
      EXPECT_NEAR(island_gradient[r], gradient[index[r]], 1e-12 * gradient.norm()) << k;
      for (size_t c = 0; c < index.size(); ++c) {
        EXPECT_NEAR(island_H(r, c), H(index[r], index[c]), 1e-12 * H.norm()) << k;
      }
    }
  }
  const auto r4 = (v - problem.free_motion_velocity()).segment(problem.tree_start(4), 6);
  EXPECT_NEAR(ell, ell_sum + 0.5 * r4.dot(problem.tree_A(4) * r4), 1e-12 * std::abs(ell));
}

}  // namespace
}  // namespace contactlab
