// BlockCholesky (docs/contact-model.md §4, "Sparsity"): the tree-block factorization solves the
// block-sparse Hessian like a dense LLᵀ on random patterns with 6- and 7-dof trees; its symbolic
// factorization has the fill the elimination theory predicts (none for a star eliminated leaves
// first, every pair for a clique); the analysis is kept while the pattern stays; a matrix that is
// not positive definite is reported with its tree.
#include "engine/solver/block_cholesky.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "engine/solver/block_sparse_hessian.h"
#include "solver_test_problem.h"

namespace contactlab {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using testing::Kind;
using testing::RandomSpd;
using testing::RandomVector;
using testing::TestProblem;

// H = A + Jᵀ G J for tp's problem with random SPD 3 × 3 blocks G_i.
void Assemble(const TestProblem& tp, std::mt19937* rng, BlockSparseHessian* hessian) {
  std::vector<MatrixXd> G_storage;
  std::vector<MatrixXd*> G;
  G_storage.reserve(tp.problem.num_constraints());
  for (int i = 0; i < tp.problem.num_constraints(); ++i) {
    G_storage.push_back(RandomSpd(3, rng, 1.0));
    G.push_back(&G_storage.back());
  }
  hessian->UpdatePattern(tp.problem);
  hessian->Assemble(tp.problem, G);
}

// The solution of H x = b against a dense LLᵀ of the same H, relative.
double SolveError(const BlockSparseHessian& hessian, const BlockCholesky& cholesky,
                  std::mt19937* rng) {
  MatrixXd H;
  hessian.ToDense(&H);
  const VectorXd b = RandomVector(H.rows(), rng);
  const VectorXd expected = H.llt().solve(b);
  VectorXd x;
  EXPECT_TRUE(cholesky.Solve(b, &x));
  VectorXd in_place = b;  // x may alias b
  EXPECT_TRUE(cholesky.Solve(in_place, &in_place));
  EXPECT_EQ(in_place, x);
  return (x - expected).norm() / expected.norm();
}

TEST(BlockCholeskyTest, MatchesDenseLltOnRandomBlockPatterns) {
  for (int seed = 0; seed < 12; ++seed) {
    std::mt19937 rng(500 + seed);
    TestProblem tp;
    tp.MakeTrees(2 + seed * 3, &rng);  // 6- and 7-dof trees
    tp.MakeConstraints(2 + seed * 5, Kind::kMixed, &rng);
    BlockSparseHessian hessian;
    Assemble(tp, &rng, &hessian);
    BlockCholesky cholesky;
    ASSERT_EQ(cholesky.Factorize(hessian), BlockCholesky::Status::kSuccess) << "seed " << seed;
    EXPECT_LT(SolveError(hessian, cholesky, &rng), 1e-10) << "seed " << seed;
    EXPECT_EQ(cholesky.num_analyses(), 1);
  }
}

// A hub tree coupled to N leaves: AMD eliminates the leaves first, so L has exactly H's blocks
// (no fill). N mutually coupled trees: L's lower triangle is full either way.
TEST(BlockCholeskyTest, FillIsThatOfTheTreeGraph) {
  constexpr int kTrees = 9;
  for (const bool clique : {false, true}) {
    std::mt19937 rng(42);
    TestProblem tp;
    std::vector<int> sizes(kTrees, 6);
    tp.problem.Reset(sizes);
    for (int t = 0; t < kTrees; ++t) tp.problem.mutable_tree_A(t) = RandomSpd(6, &rng, 0.5);
    int pairs = 0;
    for (int a = 0; a < kTrees; ++a) {
      for (int b = a + 1; b < kTrees; ++b) {
        if (clique || a == 0) {
          tp.AddConstraint(Kind::kQuadratic, a, b, &rng);
          ++pairs;
        }
      }
    }
    BlockSparseHessian hessian;
    Assemble(tp, &rng, &hessian);
    BlockCholesky cholesky;
    ASSERT_EQ(cholesky.Factorize(hessian), BlockCholesky::Status::kSuccess);
    EXPECT_EQ(cholesky.factor_nonzeros(), 36 * (kTrees + pairs)) << "clique " << clique;
    EXPECT_LT(SolveError(hessian, cholesky, &rng), 1e-10);
  }
}

// The analysis is redone exactly when the set of coupled tree pairs (or the trees) changes.
TEST(BlockCholeskyTest, KeepsTheAnalysisWhileThePatternStays) {
  std::mt19937 rng(7);
  TestProblem tp;
  tp.MakeTrees(10, &rng);
  BlockSparseHessian hessian;
  BlockCholesky cholesky;
  for (int step = 0; step < 3; ++step) {  // a chain, new values and constraints each time
    tp.problem.ClearConstraints();
    tp.constraints.clear();
    for (int t = 0; t + 1 < 10; ++t)
      tp.AddConstraint(Kind::kMixed, t + step % 2, t + 1 - step % 2, &rng);
    Assemble(tp, &rng, &hessian);
    ASSERT_EQ(cholesky.Factorize(hessian), BlockCholesky::Status::kSuccess);
    EXPECT_LT(SolveError(hessian, cholesky, &rng), 1e-10);
    EXPECT_EQ(cholesky.num_analyses(), 1);
  }
  tp.problem.ClearConstraints();
  tp.constraints.clear();
  tp.MakeConstraints(25, Kind::kMixed, &rng);
  Assemble(tp, &rng, &hessian);
  ASSERT_EQ(cholesky.Factorize(hessian), BlockCholesky::Status::kSuccess);
  EXPECT_LT(SolveError(hessian, cholesky, &rng), 1e-10);
  EXPECT_EQ(cholesky.num_analyses(), 2);
  // New values on a pattern with fill: the fill blocks start from zero again, not from the last
  // factor.
  ASSERT_GT(cholesky.factor_nonzeros(), static_cast<int64_t>(hessian.values().size()));
  Assemble(tp, &rng, &hessian);
  ASSERT_EQ(cholesky.Factorize(hessian), BlockCholesky::Status::kSuccess);
  EXPECT_LT(SolveError(hessian, cholesky, &rng), 1e-10);
  EXPECT_EQ(cholesky.num_analyses(), 2);
}

// A tree whose A is indefinite: the factorization stops at that tree's diagonal block (or at a
// later one that inherits the defect through the updates) and reports it; no solve after that.
TEST(BlockCholeskyTest, ReportsAMatrixThatIsNotPositiveDefinite) {
  std::mt19937 rng(11);
  TestProblem tp;
  tp.MakeTrees(4, &rng);
  tp.problem.mutable_tree_A(2) = -RandomSpd(tp.problem.tree_nv(2), &rng, 0.5);
  tp.AddConstraint(Kind::kQuadratic, 0, 1, &rng);
  BlockSparseHessian hessian;
  Assemble(tp, &rng, &hessian);
  BlockCholesky cholesky;
  ASSERT_EQ(cholesky.Factorize(hessian), BlockCholesky::Status::kNotPositiveDefinite);
  EXPECT_EQ(cholesky.failed_tree(), 2);  // uncoupled: only its own block can fail
  VectorXd x;
  EXPECT_FALSE(cholesky.Solve(VectorXd::Ones(hessian.num_velocities()), &x));
}

}  // namespace
}  // namespace contactlab
