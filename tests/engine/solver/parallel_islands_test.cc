// Islands shared among threads (ConvexSolverParameters::num_threads, docs/contact-model.md
// §4.2): each island is solved by its own solver whichever thread runs it, and the results are
// gathered in island order, so two or three threads give one thread's solution bit for bit.
// Built also under ThreadSanitizer (target solver_tsan_test, scripts/sanitizer_tests.sh).
#include <gtest/gtest.h>

#include <random>

#include "engine/solver/convex_solver.h"
#include "solver_test_problem.h"

namespace contactlab {
namespace {

using Eigen::VectorXd;
using testing::Kind;
using testing::RandomVector;
using testing::TestProblem;

// 30 trees: ten islands of two or three trees (3k, 3k + 1 and, for odd k, 3k + 2) coupled in a
// ring, with a constraint on one tree alone in each; trees 3k + 2 of even k free.
TestProblem ManyIslands(std::mt19937* rng) {
  TestProblem tp;
  tp.MakeTrees(30, rng);
  for (int island = 0; island < 10; ++island) {
    const int first = 3 * island;
    const int size = (island % 2 == 0) ? 2 : 3;
    for (int j = 0; j < size; ++j) {
      tp.AddConstraint(Kind::kMixed, first + j, first + (j + 1) % size, rng);
    }
    tp.AddConstraint(Kind::kMixed, first, -1, rng);
  }
  return tp;
}

TEST(ParallelIslandsTest, TwoOrThreeThreadsGiveOneThreadsSolutionBitForBit) {
  std::mt19937 rng(31);
  TestProblem tp = ManyIslands(&rng);
  ConvexSolverParameters serial = testing::Params(LinearSolverType::kAuto, 1e-10);
  ConvexSolver reference;
  reference.set_parameters(serial);
  for (const int num_threads : {2, 3}) {
    ConvexSolverParameters parallel = serial;
    parallel.num_threads = num_threads;
    parallel.min_parallel_island_size = 0;  // share even these small islands
    ConvexSolver solver;
    solver.set_parameters(parallel);
    // Several solves in a row from the last solution, as time steps reuse the solver.
    VectorXd v_reference = RandomVector(tp.problem.num_velocities(), &rng, 10.0);
    VectorXd v = v_reference;
    for (int solve = 0; solve < 5; ++solve) {
      tp.problem.mutable_free_motion_velocity() =
          RandomVector(tp.problem.num_velocities(), &rng, 2.0);
      const ConvexSolverStats expected = reference.Solve(tp.problem, &v_reference);
      const ConvexSolverStats stats = solver.Solve(tp.problem, &v);
      ASSERT_TRUE(expected.converged);
      ASSERT_GT(expected.iterations, 0);
      EXPECT_TRUE(stats.converged);
      EXPECT_EQ(stats.iterations, expected.iterations);
      EXPECT_EQ(stats.line_search_iterations, expected.line_search_iterations);
      EXPECT_EQ(stats.cost, expected.cost);
      EXPECT_EQ(stats.residual, expected.residual);
      EXPECT_EQ(stats.tolerance, expected.tolerance);
      EXPECT_EQ(v, v_reference) << num_threads << " threads, solve " << solve;
      const int rows = tp.problem.num_constraint_rows();
      EXPECT_EQ(solver.impulses().head(rows), reference.impulses().head(rows));
      EXPECT_EQ(solver.constraint_velocities().head(rows),
                reference.constraint_velocities().head(rows));
    }
  }
}

}  // namespace
}  // namespace contactlab
