// Checks that a warmed-up ConvexSolver does not touch the heap (docs/contact-model.md §4: one solve
// per time step, in the real-time loop), counted at the malloc level by
// test_support/allocation_counter.h. Skipped under sanitizers, which own malloc.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <vector>

#include "engine/solver/convex_problem.h"
#include "engine/solver/convex_solver.h"
#include "test_support/allocation_counter.h"

namespace contactlab {
namespace {

// ℓ = Σ_k ½ k min(v_c,k − c_k, 0)²: non-quadratic (kinks), so Newton takes several iterations.
class OneSided final : public Constraint {
 public:
  explicit OneSided(double c) : c_(c) {}
  int num_rows() const override { return 3; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>& vc, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override {
    double ell = 0;
    if (G != nullptr) G->setZero();
    for (int i = 0; i < 3; ++i) {
      const double x = std::min(vc[i] - c_, 0.0);
      ell += 50 * x * x;
      gamma[i] = -100 * x;
      if (G != nullptr && x < 0) (*G)(i, i) = 100;
    }
    return ell;
  }

 private:
  double c_;
};

// A chain of free bodies, each constrained to its neighbour (but for the links into the trees
// listed in `breaks`: the chain falls into islands), plus one constraint per body. The data is
// generated once; Build refills a ConvexProblem from it without temporaries, as a simulator's
// step does.
struct ChainData {
  explicit ChainData(int num_trees, std::vector<int> breaks = {}) : tree_sizes(num_trees, 6) {
    std::mt19937 rng(7);
    std::normal_distribution<double> normal;
    for (int t = 0; t < num_trees; ++t) {
      Eigen::MatrixXd M = Eigen::MatrixXd::NullaryExpr(6, 6, [&]() { return normal(rng); });
      A.push_back(M * M.transpose() + 3 * Eigen::MatrixXd::Identity(6, 6));
      const bool linked = t + 1 < num_trees && std::count(breaks.begin(), breaks.end(), t + 1) == 0;
      for (int b : {linked ? t + 1 : -1, -1}) {
        constraints.emplace_back(0.1 * (constraints.size() % 5) - 0.2);
        pairs.emplace_back(t, b);
        for (int k = 0; k < (b >= 0 ? 2 : 1); ++k) {
          J.push_back(Eigen::MatrixXd::NullaryExpr(3, 6, [&]() { return normal(rng); }));
        }
      }
    }
    v_star = Eigen::VectorXd::NullaryExpr(6 * num_trees, [&]() { return normal(rng); });
  }

  void Build(ConvexProblem* problem) const {
    problem->Reset(tree_sizes);
    for (size_t t = 0; t < A.size(); ++t) problem->mutable_tree_A(t) = A[t];
    problem->mutable_free_motion_velocity() = v_star;
    size_t j = 0;
    for (size_t i = 0; i < constraints.size(); ++i) {
      const int index = problem->AddConstraint(&constraints[i], pairs[i].first, pairs[i].second);
      for (int k = 0; k < (pairs[i].second >= 0 ? 2 : 1); ++k) {
        problem->mutable_jacobian(index, k) = J[j++];
      }
    }
  }

  std::vector<int> tree_sizes;
  std::vector<Eigen::MatrixXd> A, J;
  std::vector<OneSided> constraints;
  std::vector<std::pair<int, int>> pairs;
  Eigen::VectorXd v_star;
};

// Solves the chain once to warm the solver up, then rebuilds the problem in place (same sizes
// and pattern, as the next time step does) and solves it again from the same cold start, so that
// Newton iterates; returns the allocations of that second build and solve.
long AllocationsOfAWarmSolve(const ChainData& data, const ConvexSolverParameters& p,
                             ConvexSolverStats* stats) {
  ConvexProblem problem;
  data.Build(&problem);
  ConvexSolver solver;
  solver.set_parameters(p);
  const Eigen::VectorXd v0 = Eigen::VectorXd::Constant(problem.num_velocities(), 2.0);
  Eigen::VectorXd v = v0;
  EXPECT_TRUE(solver.Solve(problem, &v).converged);  // warm-up
  testing::ScopedAllocationCount counter;
  data.Build(&problem);
  v = v0;
  *stats = solver.Solve(problem, &v);
  return counter.count();
}

TEST(ConvexSolverAllocationTest, WarmSolveDoesNotAllocate) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  // n_v = 120, one chain and the same cut into three islands (§4.2: a solver per island).
  for (const auto& [data, type] :
       {std::pair{ChainData(20), LinearSolverType::kDense},
        std::pair{ChainData(20), LinearSolverType::kBlockSparse},
        std::pair{ChainData(20), LinearSolverType::kSupernodal},
        std::pair{ChainData(20, {7, 13}), LinearSolverType::kDense},
        std::pair{ChainData(20, {7, 13}), LinearSolverType::kBlockSparse}}) {
    ConvexSolverParameters p;
    p.linear_solver = type;
    p.relative_tolerance = 1e-10;
    ConvexSolverStats stats;
    const long allocations = AllocationsOfAWarmSolve(data, p, &stats);
    EXPECT_TRUE(stats.converged);
    EXPECT_GE(stats.iterations, 2);
    if (type == LinearSolverType::kDense) {
      EXPECT_EQ(allocations, 0) << stats.iterations << " iterations";
    } else {
      // Our code allocates nothing; CHOLMOD (SuiteSparse 5.12) allocates and frees a workspace
      // in every numeric factorization (cholmod_super_numeric: its supernode update matrix C),
      // at most 2 allocations per factorization (measured: exactly 2 for this chain, which
      // kAuto factors simplicially).
      EXPECT_LE(allocations, 2 * stats.iterations) << stats.iterations << " iterations";
    }
  }
}

TEST(ConvexSolverAllocationTest, WarmSolveOnTwoThreadsDoesNotAllocate) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  // The three islands of the chain shared between two threads (§4.2): the team is started in
  // the warm-up; after it the hand-over, ordering and extraction reuse their storage.
  ConvexSolverParameters p;
  p.linear_solver = LinearSolverType::kBlockSparse;
  p.relative_tolerance = 1e-10;
  p.num_threads = 2;
  p.min_parallel_island_size = 0;
  ConvexSolverStats stats;
  const long allocations = AllocationsOfAWarmSolve(ChainData(20, {7, 13}), p, &stats);
  EXPECT_TRUE(stats.converged);
  EXPECT_GE(stats.iterations, 2);
  EXPECT_EQ(allocations, 0) << stats.iterations << " iterations";
}

}  // namespace
}  // namespace contactlab
