// The linear solvers of the Newton step (docs/contact-model.md §4, "Sparsity"): the block-sparse
// Hessian H = A + Jᵀ G J assembled by blocks equals its dense form; the supernodal / simplicial
// CHOLMOD factorization (SupernodalCholesky) solves it like a dense LLᵀ; kAuto picks the
// simplicial method for chains and the supernodal one for dense fronts; the solver's dense and
// supernodal paths agree and the symbolic analysis is reused while the pattern stays; the
// solver's kAuto takes CHOLMOD only for dense fronts (the tree-block Cholesky otherwise).
#include "engine/solver/supernodal_cholesky.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "engine/solver/block_sparse_hessian.h"
#include "engine/solver/convex_problem.h"
#include "engine/solver/convex_solver.h"
#include "solver_test_problem.h"

namespace contactlab {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using testing::Kind;
using testing::Params;
using testing::RandomSpd;
using testing::RandomVector;
using testing::RelativeError;
using testing::TestProblem;

// H = A + Jᵀ G J for tp's problem, with a random SPD 3 × 3 block G_i per constraint (kept in
// *G_storage).
void AssembleWithRandomG(const TestProblem& tp, std::mt19937* rng, std::vector<MatrixXd>* G_storage,
                         BlockSparseHessian* hessian) {
  std::vector<MatrixXd*> G;
  G_storage->clear();
  G_storage->reserve(tp.problem.num_constraints());
  for (int i = 0; i < tp.problem.num_constraints(); ++i) {
    G_storage->push_back(RandomSpd(3, rng, 1.0));
    G.push_back(&G_storage->back());
  }
  hessian->UpdatePattern(tp.problem);
  hessian->Assemble(tp.problem, G);
}

TEST(SupernodalCholeskyTest, MatchesDenseLltOnRandomBlockPatterns) {
  for (int seed = 0; seed < 10; ++seed) {
    std::mt19937 rng(200 + seed);
    TestProblem tp;
    tp.MakeTrees(3 + seed * 3, &rng);
    tp.MakeConstraints(2 + seed * 4, Kind::kMixed, &rng);
    std::vector<MatrixXd> G_storage;
    BlockSparseHessian hessian;
    AssembleWithRandomG(tp, &rng, &G_storage, &hessian);
    MatrixXd H;
    hessian.ToDense(&H);
    // The block assembly equals A + Jᵀ G J.
    MatrixXd Gd =
        MatrixXd::Zero(tp.problem.num_constraint_rows(), tp.problem.num_constraint_rows());
    for (int i = 0; i < tp.problem.num_constraints(); ++i) {
      Gd.block(3 * i, 3 * i, 3, 3) = G_storage[i];
    }
    const MatrixXd J = tp.DenseJ();
    const MatrixXd H_expected = tp.DenseA() + J.transpose() * Gd * J;
    EXPECT_LT((H - H_expected).norm(), 1e-13 * H_expected.norm());

    const VectorXd b = RandomVector(H.rows(), &rng);
    const VectorXd x_dense = H.llt().solve(b);
    using Method = SupernodalCholesky::Method;
    for (Method method : {Method::kSupernodal, Method::kSimplicial, Method::kAuto}) {
      SupernodalCholesky cholesky(method);
      ASSERT_EQ(cholesky.Factorize(hessian), SupernodalCholesky::Status::kSuccess);
      EXPECT_TRUE(cholesky.factorizes_in_place());
      EXPECT_EQ(cholesky.is_supernodal(),
                method == Method::kSupernodal ||
                    (method == Method::kAuto &&
                     cholesky.flops_per_factor_nonzero() >= SupernodalCholesky::kSupernodalSwitch));
      VectorXd x;
      ASSERT_TRUE(cholesky.Solve(b, &x));
      EXPECT_LT((x - x_dense).norm(), 1e-10 * x_dense.norm())
          << "seed " << seed << " method " << static_cast<int>(method);
      EXPECT_EQ(cholesky.num_analyses(), 1);
    }
  }
}

// kAuto: a chain of 6-dof trees (block tridiagonal, flops/nnz(L) ≈ 10) is factored
// simplicially, a fully coupled set of trees (a dense front) supernodally.
TEST(SupernodalCholeskyTest, AutoChoosesSimplicialForChainsAndSupernodalForDenseFronts) {
  std::mt19937 rng(17);
  for (bool dense_graph : {false, true}) {
    TestProblem tp;
    tp.MakeTrees(24, &rng);
    for (int a = 0; a < 24; ++a) {
      for (int b = a + 1; b < 24; ++b) {
        if (dense_graph || b == a + 1) tp.AddConstraint(Kind::kQuadratic, a, b, &rng);
      }
    }
    std::vector<MatrixXd> G_storage;
    BlockSparseHessian hessian;
    AssembleWithRandomG(tp, &rng, &G_storage, &hessian);
    SupernodalCholesky cholesky;
    ASSERT_EQ(cholesky.Factorize(hessian), SupernodalCholesky::Status::kSuccess);
    EXPECT_EQ(cholesky.is_supernodal(), dense_graph)
        << "flops/nnz(L) = " << cholesky.flops_per_factor_nonzero();
  }
}

// Two solvers, one per path, on the same sequence of problems: solutions agree; the
// supernodal path re-analyzes exactly when the set of coupled tree pairs changes.
TEST(SupernodalCholeskyTest, DenseAndSupernodalSolversAgreeAndReuseAnalysis) {
  std::mt19937 rng(300);
  ConvexSolver dense, supernodal;
  // The whole problem in one factorization (islands would each have their own analyses).
  for (auto [solver, type] : {std::pair{&dense, LinearSolverType::kDense},
                              std::pair{&supernodal, LinearSolverType::kSupernodal}}) {
    ConvexSolverParameters p = Params(type);
    p.solve_islands_separately = false;
    solver->set_parameters(p);
  }
  TestProblem tp;
  tp.MakeTrees(12, &rng);
  const auto compare = [&](const char* what) {
    VectorXd v_dense = VectorXd::Zero(tp.problem.num_velocities());
    VectorXd v_super = v_dense;
    const auto s_dense = dense.Solve(tp.problem, &v_dense);
    const auto s_super = supernodal.Solve(tp.problem, &v_super);
    EXPECT_TRUE(s_dense.converged) << what;
    EXPECT_TRUE(s_super.converged) << what;
    EXPECT_EQ(s_super.linear_solver_used, LinearSolverType::kSupernodal);
    EXPECT_EQ(s_dense.linear_solver_used, LinearSolverType::kDense);
    EXPECT_LT(RelativeError(v_super, v_dense), 1e-10) << what;
  };

  // Pattern 1: a chain 0–1–…–11 with mixed constraints plus single-tree ones.
  for (int t = 0; t + 1 < 12; ++t) tp.AddConstraint(Kind::kMixed, t, t + 1, &rng);
  tp.AddConstraint(Kind::kSoftplus, 3, -1, &rng);
  compare("pattern 1");
  EXPECT_EQ(supernodal.num_supernodal_analyses(), 1);
  EXPECT_EQ(dense.num_supernodal_analyses(), 0);

  // Same pattern, new values and different constraints on the same pairs: no re-analysis.
  for (int step = 0; step < 3; ++step) {
    tp.problem.mutable_free_motion_velocity() = RandomVector(tp.problem.num_velocities(), &rng);
    tp.problem.ClearConstraints();
    tp.constraints.clear();
    for (int t = 0; t + 1 < 12; ++t) {
      tp.AddConstraint(Kind::kMixed, t + 1, t, &rng);  // reversed order of the trees
      if (t % 4 == 0) tp.AddConstraint(Kind::kQuadratic, t, t + 1, &rng);
    }
    compare("pattern 1, new values");
    EXPECT_EQ(supernodal.num_supernodal_analyses(), 1);
  }

  // Pattern 2: random clutter graph — re-analysis.
  tp.problem.ClearConstraints();
  tp.constraints.clear();
  tp.MakeConstraints(30, Kind::kMixed, &rng);
  compare("pattern 2");
  EXPECT_EQ(supernodal.num_supernodal_analyses(), 2);
  compare("pattern 2 again");
  EXPECT_EQ(supernodal.num_supernodal_analyses(), 2);

  // New tree sizes (trees added): re-analysis.
  tp.MakeTrees(20, &rng);
  tp.constraints.clear();
  tp.MakeConstraints(40, Kind::kMixed, &rng);
  compare("pattern 3");
  EXPECT_EQ(supernodal.num_supernodal_analyses(), 3);
}

// kAuto: the tree-block Cholesky for a chain of trees (≈ 5 multiply–adds per entry of L), CHOLMOD
// for 32 mutually coupled trees (a dense front: n³/6 over n²/2 entries, ≈ 64 at n = 192).
TEST(SupernodalCholeskyTest, AutoPicksTheTreeBlockCholeskyUnlessTheFrontsAreDense) {
  std::mt19937 rng(400);
  for (const bool dense_graph : {false, true}) {
    TestProblem tp;
    tp.MakeTrees(32, &rng);
    for (int a = 0; a < 32; ++a) {
      for (int b = a + 1; b < 32; ++b) {
        if (dense_graph || b == a + 1) tp.AddConstraint(Kind::kQuadratic, a, b, &rng);
      }
    }
    ConvexSolver solver;
    VectorXd v;
    const ConvexSolverStats stats = solver.Solve(tp.problem, &v);
    EXPECT_TRUE(stats.converged);
    EXPECT_EQ(stats.linear_solver_used,
              dense_graph ? LinearSolverType::kSupernodal : LinearSolverType::kBlockSparse);
    EXPECT_EQ(solver.num_block_cholesky_analyses(), 1);  // kAuto decides from its analysis
  }
}

}  // namespace
}  // namespace contactlab
