// Tests of the convex problem and the Newton solver (docs/contact-model.md §2, §4) on the
// test-local constraints of solver_test_problem.h, which have known answers: a quadratic (the
// solution solves a linear system), a smooth non-quadratic softplus barrier (line search and
// Newton), and a one-sided quadratic with kinks in its Hessian. The linear solvers (block-sparse
// Hessian, supernodal Cholesky) are tested in supernodal_cholesky_test.cc.
#include "engine/solver/convex_solver.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "engine/solver/contact_constraints.h"
#include "engine/solver/convex_problem.h"
#include "solver_test_problem.h"
#include "test_support/constraint_checks.h"

namespace contactlab {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using testing::Kind;
using testing::OneSidedConstraint;
using testing::Params;
using testing::QuadraticConstraint;
using testing::RandomSpd;
using testing::RandomVector;
using testing::RelativeError;
using testing::SoftplusConstraint;
using testing::TestProblem;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Returns NaN from a chosen point on, to check NaN is never propagated.
class NaNConstraint final : public Constraint {
 public:
  int num_rows() const override { return 1; }
  double Evaluate(const Eigen::Ref<const VectorXd>& vc, Eigen::Ref<VectorXd> gamma,
                  MatrixXd* G) const override {
    if (vc[0] > 0.5) {
      gamma[0] = kNaN;
      if (G != nullptr) (*G)(0, 0) = kNaN;
      return kNaN;
    }
    gamma[0] = -(vc[0] - 1);
    if (G != nullptr) (*G)(0, 0) = 1;
    return 0.5 * (vc[0] - 1) * (vc[0] - 1);
  }
};

// ---------------------------------------------------------------------------------------------
// The test constraints themselves: their γ and G are the derivatives of their ℓ, and ℓ is
// convex (the solver tests below rely on it).

TEST(SolverTestConstraints, MatchFiniteDifferencesAndAreConvex) {
  std::mt19937 rng(5);
  for (int i = 0; i < 200; ++i) {
    const QuadraticConstraint quadratic(RandomSpd(3, &rng, 2.0), RandomVector(3, &rng));
    const SoftplusConstraint softplus(MatrixXd::Identity(3, 3) + 0.3 * RandomSpd(3, &rng, 0.2),
                                      RandomVector(3, &rng), 5.0, 3.0);
    const OneSidedConstraint one_sided(
        VectorXd::Constant(3, 20.0) + RandomVector(3, &rng).cwiseAbs(), RandomVector(3, &rng));
    const VectorXd v = RandomVector(3, &rng), a = RandomVector(3, &rng, 3),
                   b = RandomVector(3, &rng, 3);
    const VectorXd h = VectorXd::Constant(3, 1e-6);
    for (const Constraint* c :
         {static_cast<const Constraint*>(&quadratic), static_cast<const Constraint*>(&softplus)}) {
      EXPECT_TRUE(testing::MatchesFiniteDifferences(*c, v, h, {.relative = 1e-6})) << i;
      EXPECT_TRUE(testing::IsConvexAlongSegment(*c, a, b)) << i;
    }
    // One-sided: kinks at v_c,k = c_k; stay 100 steps away from them.
    if (((v - one_sided.c()).cwiseAbs().array() > 100 * h.array()).all()) {
      EXPECT_TRUE(testing::MatchesFiniteDifferences(one_sided, v, h, {.relative = 1e-6})) << i;
    }
    EXPECT_TRUE(testing::IsConvexAlongSegment(one_sided, a, b)) << i;
  }
}

// ---------------------------------------------------------------------------------------------
// ConvexProblem

TEST(ConvexProblemTest, ProductsMatchDenseMatrices) {
  std::mt19937 rng(1);
  TestProblem tp;
  tp.MakeTrees(5, &rng);
  tp.MakeConstraints(8, Kind::kQuadratic, &rng);
  const MatrixXd J = tp.DenseJ();
  const MatrixXd A = tp.DenseA();
  const VectorXd v = RandomVector(tp.problem.num_velocities(), &rng);
  const VectorXd gamma = RandomVector(tp.problem.num_constraint_rows(), &rng);
  VectorXd y;
  tp.problem.MultiplyJ(v, &y);
  EXPECT_LT((y - J * v).norm(), 1e-12 * (J * v).norm());
  tp.problem.MultiplyJTranspose(gamma, &y);
  EXPECT_LT((y - J.transpose() * gamma).norm(), 1e-12 * (J.transpose() * gamma).norm());
  tp.problem.MultiplyA(v, &y);
  EXPECT_LT((y - A * v).norm(), 1e-12 * (A * v).norm());
  EXPECT_TRUE(tp.problem.AllFinite());
}

TEST(ConvexProblemTest, ClearKeepsCapacityAndZeroesNewBlocks) {
  std::mt19937 rng(2);
  TestProblem tp;
  tp.MakeTrees(4, &rng);
  tp.MakeConstraints(10, Kind::kQuadratic, &rng);
  const double* J_data = tp.problem.mutable_jacobian(0, 0).data();
  const double* bias_data = tp.problem.bias().data();
  tp.problem.ClearConstraints();
  EXPECT_EQ(tp.problem.num_constraints(), 0);
  EXPECT_EQ(tp.problem.num_constraint_rows(), 0);
  QuadraticConstraint c(MatrixXd::Identity(3, 3), VectorXd::Zero(3));
  for (int i = 0; i < 10; ++i) {
    const int index = tp.problem.AddConstraint(&c, i % 4, (i + 1) % 4);
    EXPECT_TRUE(tp.problem.jacobian(index, 0).isZero(0));
    EXPECT_TRUE(tp.problem.jacobian(index, 1).isZero(0));
    EXPECT_TRUE(tp.problem.mutable_bias(index).isZero(0));
  }
  EXPECT_EQ(tp.problem.mutable_jacobian(0, 0).data(), J_data);  // no reallocation
  EXPECT_EQ(tp.problem.bias().data(), bias_data);
  EXPECT_THROW(tp.problem.AddConstraint(&c, 1, 1), std::invalid_argument);
  EXPECT_THROW(tp.problem.AddConstraint(&c, 4, -1), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Known solutions

// Quadratic constraints: (A + Σ JᵢᵀKᵢJᵢ) v = A v* + Σ JᵢᵀKᵢ(cᵢ − bᵢ).
VectorXd QuadraticSolution(const TestProblem& tp) {
  const MatrixXd J = tp.DenseJ();
  const int m = tp.problem.num_constraint_rows();
  MatrixXd K = MatrixXd::Zero(m, m);
  VectorXd c(m);
  for (int i = 0; i < tp.problem.num_constraints(); ++i) {
    const auto& e = tp.problem.entry(i);
    const auto* q = static_cast<const QuadraticConstraint*>(e.constraint);
    K.block(e.row_start, e.row_start, e.num_rows, e.num_rows) = q->K();
    c.segment(e.row_start, e.num_rows) =
        q->c() - tp.problem.bias().segment(e.row_start, e.num_rows);
  }
  const MatrixXd A = tp.DenseA();
  const MatrixXd H = A + J.transpose() * K * J;
  return H.llt().solve(A * tp.problem.free_motion_velocity() + J.transpose() * K * c);
}

TEST(ConvexSolverTest, QuadraticKnownSolutionBothLinearSolvers) {
  for (const auto type :
       {LinearSolverType::kDense, LinearSolverType::kBlockSparse, LinearSolverType::kSupernodal}) {
    std::mt19937 rng(3);
    TestProblem tp;
    tp.MakeTrees(6, &rng);
    tp.MakeConstraints(9, Kind::kQuadratic, &rng);
    const VectorXd expected = QuadraticSolution(tp);
    ConvexSolver solver;
    solver.set_parameters(Params(type));
    VectorXd v = VectorXd::Zero(tp.problem.num_velocities());
    const ConvexSolverStats stats = solver.Solve(tp.problem, &v);
    EXPECT_TRUE(stats.converged);
    EXPECT_EQ(stats.linear_solver_used, type);
    // Newton is exact on a quadratic, and the line search's first trial α = 1 is the root.
    EXPECT_EQ(stats.iterations, 1);
    EXPECT_LT(RelativeError(v, expected), 1e-10);
    // Reported impulses and constraint velocities are those at the solution.
    VectorXd vc;
    tp.problem.MultiplyJ(v, &vc);
    vc += tp.problem.bias().head(vc.size());
    EXPECT_LT((solver.constraint_velocities() - vc).norm(), 1e-12 * std::max(1.0, vc.norm()));
    const MatrixXd A = tp.DenseA();
    const VectorXd momentum = A * (v - tp.problem.free_motion_velocity());
    EXPECT_LT((tp.DenseJ().transpose() * solver.impulses() - momentum).norm(),
              1e-9 * std::max(1.0, momentum.norm()));
  }
}

TEST(ConvexSolverTest, OneSidedScalarKnownSolution) {
  // ½ m (v − v*)² + ½ k min(v − c, 0)²: v = v* if v* ≥ c, else (m v* + k c) / (m + k).
  const double m = 2, k = 300, c = 0.25;
  for (const double v_star : {1.0, -3.0}) {
    ConvexProblem problem;
    problem.Reset({1});
    problem.mutable_tree_A(0)(0, 0) = m;
    problem.mutable_free_motion_velocity()[0] = v_star;
    OneSidedConstraint constraint(VectorXd::Constant(1, k), VectorXd::Constant(1, c));
    const int i = problem.AddConstraint(&constraint, 0, -1);
    problem.mutable_jacobian(i, 0)(0, 0) = 1;
    ConvexSolver solver;
    solver.set_parameters(Params(LinearSolverType::kAuto));
    VectorXd v = VectorXd::Constant(1, 10.0);
    const auto stats = solver.Solve(problem, &v);
    EXPECT_TRUE(stats.converged);
    const double expected = v_star >= c ? v_star : (m * v_star + k * c) / (m + k);
    EXPECT_NEAR(v[0], expected, 1e-10 * std::abs(expected));
  }
}

// Kinked multi-dimensional problem: at the solution, the active rows (v_c < c) define a
// quadratic problem whose linear system the solution must solve.
TEST(ConvexSolverTest, OneSidedActiveSetKnownSolution) {
  for (const auto type :
       {LinearSolverType::kDense, LinearSolverType::kBlockSparse, LinearSolverType::kSupernodal}) {
    std::mt19937 rng(4);
    TestProblem tp;
    tp.MakeTrees(5, &rng);
    tp.MakeConstraints(10, Kind::kOneSided, &rng);
    ConvexSolver solver;
    solver.set_parameters(Params(type));
    VectorXd v = VectorXd::Zero(tp.problem.num_velocities());
    const auto stats = solver.Solve(tp.problem, &v);
    ASSERT_TRUE(stats.converged);
    // Rebuild the active quadratic: K = diag(k active), target c.
    const MatrixXd J = tp.DenseJ();
    const int rows = tp.problem.num_constraint_rows();
    MatrixXd K = MatrixXd::Zero(rows, rows);
    VectorXd c = VectorXd::Zero(rows);
    const VectorXd vc = J * v + tp.problem.bias().head(rows);
    int num_active = 0;
    for (int i = 0; i < tp.problem.num_constraints(); ++i) {
      const auto& e = tp.problem.entry(i);
      const auto* q = static_cast<const OneSidedConstraint*>(e.constraint);
      for (int r = 0; r < e.num_rows; ++r) {
        const int row = e.row_start + r;
        // No row sits on its kink for this random data (the active set is well defined).
        ASSERT_GT(std::abs(vc[row] - q->c()[r]), 1e-6);
        if (q->Active(r, vc[row])) {
          K(row, row) = q->k()[r];
          c[row] = q->c()[r] - tp.problem.bias()[row];
          ++num_active;
        }
      }
    }
    EXPECT_GT(num_active, 0);
    EXPECT_LT(num_active, rows);
    const MatrixXd A = tp.DenseA();
    const VectorXd expected =
        (A + J.transpose() * K * J)
            .llt()
            .solve(A * tp.problem.free_motion_velocity() + J.transpose() * K * c);
    EXPECT_LT(RelativeError(v, expected), 1e-10);
  }
}

TEST(ConvexSolverTest, SoftplusSolutionIsOptimal) {
  std::mt19937 rng(5);
  TestProblem tp;
  tp.MakeTrees(4, &rng);
  tp.MakeConstraints(8, Kind::kSoftplus, &rng);
  ConvexSolver solver;
  solver.set_parameters(Params(LinearSolverType::kDense));
  VectorXd v = VectorXd::Constant(tp.problem.num_velocities(), 3.0);
  const auto stats = solver.Solve(tp.problem, &v);
  ASSERT_TRUE(stats.converged);
  EXPECT_GT(stats.iterations, 1);  // genuinely non-quadratic
  VectorXd gradient;
  const double ell = solver.EvaluateCost(tp.problem, v, &gradient, nullptr);
  const VectorXd D = tp.DenseA().diagonal().cwiseSqrt().cwiseInverse();
  // The momentum balance holds to the tolerance (ε_rel = 1e-12), or Newton stopped on a cost that
  // no longer decreases (cost_stagnated: its line search at round-off, which lies within a few
  // ε_rel on this problem — 3.3 ε_rel in a clang build): then it must still hold to 100 ε_rel.
  const double bound = stats.cost_stagnated ? 100 * stats.tolerance : stats.tolerance;
  EXPECT_LE(D.cwiseProduct(gradient).norm(), bound);
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd perturbed = v + RandomVector(v.size(), &rng, 1e-3);
    EXPECT_GE(solver.EvaluateCost(tp.problem, perturbed, &gradient, nullptr), ell);
  }
}

// ---------------------------------------------------------------------------------------------
// Derivatives

TEST(ConvexSolverTest, GradientAndHessianMatchFiniteDifferences) {
  for (const Kind kind : {Kind::kQuadratic, Kind::kSoftplus, Kind::kOneSided, Kind::kMixed}) {
    std::mt19937 rng(6 + static_cast<int>(kind));
    TestProblem tp;
    tp.MakeTrees(4, &rng);
    tp.MakeConstraints(7, kind, &rng);
    ConvexSolver solver;
    const int n = tp.problem.num_velocities();
    const VectorXd v = RandomVector(n, &rng);
    VectorXd gradient, g_plus, g_minus;
    MatrixXd H;
    solver.EvaluateCost(tp.problem, v, &gradient, &H);
    // H symmetric positive definite.
    EXPECT_LT((H - H.transpose()).norm(), 1e-14 * H.norm());
    Eigen::SelfAdjointEigenSolver<MatrixXd> eig(H);
    EXPECT_GT(eig.eigenvalues().minCoeff(), 0);
    // The solver's H equals A + Jᵀ G J built densely here from the same G.
    const double h = 1e-6;
    MatrixXd H_fd(n, n);
    VectorXd g_fd(n);
    for (int j = 0; j < n; ++j) {
      VectorXd vp = v, vm = v;
      vp[j] += h;
      vm[j] -= h;
      const double lp = solver.EvaluateCost(tp.problem, vp, &g_plus, nullptr);
      const double lm = solver.EvaluateCost(tp.problem, vm, &g_minus, nullptr);
      g_fd[j] = (lp - lm) / (2 * h);
      H_fd.col(j) = (g_plus - g_minus) / (2 * h);
    }
    // Central differences: O(h²) truncation plus round-off; kinks are away from v (random).
    EXPECT_LT((g_fd - gradient).norm(), 1e-6 * gradient.norm()) << static_cast<int>(kind);
    EXPECT_LT((H_fd - H).norm(), 1e-6 * H.norm()) << static_cast<int>(kind);
  }
}

// ---------------------------------------------------------------------------------------------
// Newton and the line search

TEST(ConvexSolverTest, CostNeverIncreases) {
  for (const Kind kind : {Kind::kSoftplus, Kind::kOneSided, Kind::kMixed}) {
    for (int seed = 0; seed < 5; ++seed) {
      std::mt19937 rng(100 + seed);
      TestProblem tp;
      tp.MakeTrees(6, &rng);
      tp.MakeConstraints(14, kind, &rng);
      ConvexSolver solver;
      solver.set_parameters(Params(LinearSolverType::kAuto));
      solver.set_record_cost_history(true);
      VectorXd v = RandomVector(tp.problem.num_velocities(), &rng, 20.0);  // far start
      const auto stats = solver.Solve(tp.problem, &v);
      EXPECT_TRUE(stats.converged);
      ASSERT_EQ(static_cast<int>(stats.cost_history.size()), stats.iterations + 1);
      for (size_t k = 1; k < stats.cost_history.size(); ++k) {
        // The exact line search never accepts an increase; the slack covers only the
        // recomputation of ℓ at the new v in a different summation order.
        EXPECT_LE(stats.cost_history[k],
                  stats.cost_history[k - 1] + 1e-14 * std::abs(stats.cost_history[k - 1]))
            << "kind " << static_cast<int>(kind) << " seed " << seed << " k " << k;
      }
    }
  }
}

TEST(ConvexSolverTest, LineSearchTakesMaxStepWhenStillDescending) {
  // 1 dof, m = 1, v* = 1000, one-sided k = 100 at c = 0, from v = −1: H = 101 overestimates
  // the curvature beyond v = 0, so ℓ still decreases at α_max = 1.5.
  ConvexProblem problem;
  problem.Reset({1});
  problem.mutable_tree_A(0)(0, 0) = 1;
  problem.mutable_free_motion_velocity()[0] = 1000;
  OneSidedConstraint constraint(VectorXd::Constant(1, 100), VectorXd::Zero(1));
  problem.mutable_jacobian(problem.AddConstraint(&constraint, 0, -1), 0)(0, 0) = 1;
  ConvexSolver solver;
  ConvexSolverParameters p;
  p.max_iterations = 1;
  solver.set_parameters(p);
  VectorXd v = VectorXd::Constant(1, -1.0);
  const auto stats = solver.Solve(problem, &v);
  EXPECT_FALSE(stats.converged);  // reported, not thrown
  EXPECT_EQ(stats.iterations, 1);
  const double dv = (1001.0 + 100.0) / 101.0;
  EXPECT_NEAR(v[0], -1 + 1.5 * dv, 1e-12);
  // Unlimited, it converges to v*.
  solver.set_parameters(ConvexSolverParameters{});
  const auto stats2 = solver.Solve(problem, &v);
  EXPECT_TRUE(stats2.converged);
  EXPECT_NEAR(v[0], 1000, 1e-9);
}

TEST(ConvexSolverTest, LineSearchFindsTheMinimizerAlongTheNewtonStep) {
  // One Newton iteration on the softplus barrier from a far start: the accepted v₁ minimizes ℓ
  // along the step, so dℓ/dα there, ∇ℓ(v₁)ᵀ(v₁ − v₀), vanishes next to its value at v₀.
  int steps_not_one = 0;
  for (int seed = 0; seed < 6; ++seed) {
    std::mt19937 rng(300 + seed);
    TestProblem tp;
    tp.MakeTrees(4, &rng);
    tp.MakeConstraints(8, Kind::kSoftplus, &rng);
    ConvexSolver solver;
    ConvexSolverParameters p = Params(LinearSolverType::kDense);
    p.max_iterations = 1;
    p.solve_islands_separately = false;  // one line search along the whole problem's step
    solver.set_parameters(p);
    const VectorXd v0 = RandomVector(tp.problem.num_velocities(), &rng, 5.0);
    VectorXd v1 = v0;
    const auto stats = solver.Solve(tp.problem, &v1);
    ASSERT_EQ(stats.iterations, 1);
    VectorXd gradient0, gradient1;
    MatrixXd H0;
    solver.EvaluateCost(tp.problem, v0, &gradient0, &H0);
    solver.EvaluateCost(tp.problem, v1, &gradient1, nullptr);
    const VectorXd step = v1 - v0;
    const double slope0 = gradient0.dot(step);
    ASSERT_LT(slope0, 0);
    EXPECT_LT(std::abs(gradient1.dot(step)), 1e-8 * std::abs(slope0)) << "seed " << seed;
    // α = the step over the Newton direction −H⁻¹∇ℓ: in (0, α_max].
    const VectorXd newton = -H0.llt().solve(gradient0);
    const double alpha = step.dot(newton) / newton.squaredNorm();
    EXPECT_NEAR((step - alpha * newton).norm(), 0, 1e-9 * step.norm());
    EXPECT_GT(alpha, 0);
    EXPECT_LE(alpha, p.max_step + 1e-12);
    if (std::abs(alpha - 1) > 1e-3) ++steps_not_one;
  }
  EXPECT_GT(steps_not_one, 0);  // the search had work to do, not just the full Newton step
}

TEST(ConvexSolverTest, LineSearchStopsAtRoundoffNotMachineEpsilonBrackets) {
  // Near the solution dℓ/dα is a difference of terms much larger than the relative tolerance
  // asks it to reach: the search stops at their round-off level after a few evaluations
  // instead of bisecting the bracket down to machine epsilon (these problems: ~5 evaluations
  // per Newton iteration with the round-off stop, ~8 without).
  int iterations = 0, evaluations = 0;
  for (const Kind kind : {Kind::kSoftplus, Kind::kMixed}) {
    for (int seed = 0; seed < 4; ++seed) {
      std::mt19937 rng(500 + seed);
      TestProblem tp;
      tp.MakeTrees(5, &rng);
      tp.MakeConstraints(12, kind, &rng);
      ConvexSolver solver;
      solver.set_parameters(Params(LinearSolverType::kDense, 1e-14));
      VectorXd v = RandomVector(tp.problem.num_velocities(), &rng, 10.0);
      const auto stats = solver.Solve(tp.problem, &v);
      ASSERT_TRUE(stats.converged);
      iterations += stats.iterations;
      evaluations += stats.line_search_iterations;
    }
  }
  EXPECT_LE(evaluations, 6 * iterations);
}

// γ, v_c, ℓ and the residual a solve reported at exit equal a fresh evaluation at its v.
void ExpectStateOfAFreshEvaluation(const TestProblem& tp, const VectorXd& v,
                                   const ConvexSolverStats& stats, ConvexSolver* solver) {
  const VectorXd gamma = solver->impulses();
  const VectorXd vc = solver->constraint_velocities();
  VectorXd gradient;
  const double ell = solver->EvaluateCost(tp.problem, v, &gradient, nullptr);
  EXPECT_LT(RelativeError(vc, solver->constraint_velocities()), 1e-12);
  EXPECT_LT((gamma - solver->impulses()).norm(), 1e-10 * std::max(1.0, gamma.norm()));
  EXPECT_NEAR(stats.cost, ell, 1e-12 * std::max(1.0, std::abs(ell)));
  const VectorXd D = tp.DenseA().diagonal().cwiseSqrt().cwiseInverse();
  // ∇ℓ = A(v − v*) − Jᵀγ cancels terms ~ tolerance / ε_rel: the two differ by their rounding,
  // which must stay far below the stopping tolerance.
  EXPECT_NEAR(stats.residual, D.cwiseProduct(gradient).norm(), 1e-2 * stats.tolerance);
}

TEST(ConvexSolverTest, StateAtExitMatchesAFreshEvaluation) {
  // After the line search the solver keeps γ(α) and v_c(α) of its last evaluation instead of
  // re-evaluating at v: they, ℓ and the residual must equal a fresh evaluation at the final v.
  for (const Kind kind : {Kind::kSoftplus, Kind::kMixed}) {
    std::mt19937 rng(400 + static_cast<int>(kind));
    TestProblem tp;
    tp.MakeTrees(5, &rng);
    tp.MakeConstraints(12, kind, &rng);
    ConvexSolver solver;
    solver.set_parameters(Params(LinearSolverType::kAuto, 1e-9));
    VectorXd v = RandomVector(tp.problem.num_velocities(), &rng, 10.0);
    const auto stats = solver.Solve(tp.problem, &v);
    ASSERT_TRUE(stats.converged);
    ASSERT_GT(stats.iterations, 1);
    ExpectStateOfAFreshEvaluation(tp, v, stats, &solver);
  }
}

TEST(ConvexSolverTest, IslandsGiveTheWholeProblemsSolutionAndStoppingTest) {
  // docs/contact-model.md §4.2. Trees 0…8: islands {0, 1, 2}, {3, 4}, {6}, {7}; trees 5 and 8
  // free. Solved island by island (the default) the velocities, impulses and constraint
  // velocities are those of Newton on the whole problem; the free trees move at v*; ℓ, the
  // residual and the tolerance reported are the whole problem's (§4), and the test holds (from
  // this far start, only after the strict second pass: the first pass's share of the tolerance,
  // estimated at the warm start, is too loose here).
  for (const Kind kind : {Kind::kSoftplus, Kind::kMixed}) {
    std::mt19937 rng(900 + static_cast<int>(kind));
    TestProblem tp;
    tp.MakeTrees(9, &rng);
    for (const auto& [a, b] : std::vector<std::pair<int, int>>{{0, 1},
                                                               {1, 2},
                                                               {2, 0},
                                                               {0, -1},
                                                               {2, -1},
                                                               {3, 4},
                                                               {4, 3},
                                                               {3, -1},
                                                               {6, -1},
                                                               {6, -1},
                                                               {7, -1},
                                                               {1, -1},
                                                               {4, -1}}) {
      tp.AddConstraint(kind, a, b, &rng);
    }
    const VectorXd v0 = RandomVector(tp.problem.num_velocities(), &rng, 10.0);
    ConvexSolverParameters whole_params = Params(LinearSolverType::kAuto, 1e-10);
    whole_params.solve_islands_separately = false;
    ConvexSolver whole, islands;
    whole.set_parameters(whole_params);
    islands.set_parameters(Params(LinearSolverType::kAuto, 1e-10));
    VectorXd v_whole = v0, v = v0;
    const auto whole_stats = whole.Solve(tp.problem, &v_whole);
    const auto stats = islands.Solve(tp.problem, &v);
    ASSERT_TRUE(whole_stats.converged && stats.converged);
    ASSERT_GT(stats.iterations, 1);
    EXPECT_LT(RelativeError(v, v_whole), 1e-8);
    const VectorXd gamma = islands.impulses();
    const VectorXd vc = islands.constraint_velocities();
    EXPECT_LT(RelativeError(gamma, whole.impulses()), 1e-8);
    EXPECT_LT(RelativeError(vc, whole.constraint_velocities()), 1e-8);
    for (const int t : {5, 8}) {
      EXPECT_EQ(v.segment(tp.problem.tree_start(t), 6),
                tp.problem.free_motion_velocity().segment(tp.problem.tree_start(t), 6));
    }
    // The state reported at exit is a fresh evaluation's at v.
    ExpectStateOfAFreshEvaluation(tp, v, stats, &islands);
    const VectorXd D = tp.DenseA().diagonal().cwiseSqrt().cwiseInverse();
    const VectorXd momentum = tp.DenseA() * (v - tp.problem.free_motion_velocity());
    const VectorXd JT_gamma = tp.DenseJ().transpose() * gamma;
    const double tolerance =
        1e-14 + 1e-10 * std::max(D.cwiseProduct(momentum).norm(), D.cwiseProduct(JT_gamma).norm());
    EXPECT_NEAR(stats.tolerance, tolerance, 1e-9 * tolerance);
    EXPECT_LE(stats.residual, stats.tolerance);
  }
}

// Four identical islands (one 6-dof tree each, the same two softplus constraints, the same start
// v0 at `start_scale` from v*): every island stops after the same Newton iterate, so the whole
// residual is √4 = 2 times an island's.
struct IdenticalIslands {
  static constexpr int kIslands = 4, kNv = 6;
  TestProblem tp;
  VectorXd v0, D;
  explicit IdenticalIslands(double start_scale) {
    tp.problem.Reset(std::vector<int>(kIslands, kNv));
    std::mt19937 tree_rng(21);
    const MatrixXd A = RandomSpd(kNv, &tree_rng, 0.5);
    const VectorXd v_star = RandomVector(kNv, &tree_rng);
    const VectorXd v0_tree = v_star + RandomVector(kNv, &tree_rng, start_scale);
    v0.resize(kIslands * kNv);
    for (int t = 0; t < kIslands; ++t) {
      tp.problem.mutable_tree_A(t) = A;
      tp.problem.mutable_free_motion_velocity().segment(t * kNv, kNv) = v_star;
      v0.segment(t * kNv, kNv) = v0_tree;
      std::mt19937 rng(22);  // the same constraints on every tree
      tp.AddConstraint(Kind::kSoftplus, t, -1, &rng);
      tp.AddConstraint(Kind::kSoftplus, t, -1, &rng);
    }
    D = tp.DenseA().diagonal().cwiseSqrt().cwiseInverse();
  }
  // Solves from v0 with `params` into *v.
  ConvexSolverStats Solve(const ConvexSolverParameters& params, ConvexSolver* solver,
                          VectorXd* v) const {
    solver->set_parameters(params);
    *v = v0;
    return solver->Solve(tp.problem, v);
  }
  // ‖D ∇ℓ(v)‖ of a fresh evaluation.
  double Residual(ConvexSolver* solver, const VectorXd& v) const {
    VectorXd gradient;
    solver->EvaluateCost(tp.problem, v, &gradient, nullptr);
    return D.cwiseProduct(gradient).norm();
  }
};

// The absolute tolerance alone (ε_rel = 0) bounds the whole problem's residual when it is solved
// island by island (§4.2): K islands each stopped at ε_abs/√K give ‖D ∇ℓ‖ = √(Σ r_k²) ≤ ε_abs.
// An island held to ε_abs instead would leave the whole residual of the identical islands at 2
// times an island's, above ε_abs for some ε_abs of the sweep (it spans every factor of 1.26
// between 1e-1 and 1e-10).
TEST(ConvexSolverTest, IslandsMeetAnAbsoluteToleranceAlone) {
  const IdenticalIslands islands(3.0);
  int multi_iteration_solves = 0;
  for (int k = 0; k <= 90; ++k) {
    const double absolute_tolerance = std::pow(10.0, -1.0 - 0.1 * k);
    SCOPED_TRACE(absolute_tolerance);
    ConvexSolverParameters params = Params(LinearSolverType::kAuto, 0.0);
    params.absolute_tolerance = absolute_tolerance;
    ConvexSolver solver;
    VectorXd v;
    const ConvexSolverStats stats = islands.Solve(params, &solver, &v);
    ASSERT_TRUE(stats.converged);
    ASSERT_FALSE(stats.cost_stagnated);  // stopped by the residual test, not at round-off
    multi_iteration_solves += stats.iterations > 1;
    EXPECT_EQ(stats.tolerance, absolute_tolerance);
    EXPECT_LE(stats.residual, absolute_tolerance);
    EXPECT_LE(islands.Residual(&solver, v), absolute_tolerance);  // a fresh evaluation's too
  }
  EXPECT_GT(multi_iteration_solves, 80);
}

// The same from a start far from the solution (‖D A (v0 − v*)‖ = M0 ≈ 1e3), with ε_rel chosen
// so that ε_rel M0 = 10 ε_abs: the first pass's share of the tolerance, estimated at the warm
// start, is 5.5 ε_abs per island, far too loose for the whole problem's ε_abs + ε_rel·(the
// final momentum balance, ~1 % of ε_abs); the strict second pass must finish each island to
// ε_abs/√K + ε_rel/√2 · its own, and the whole residual then meets the whole tolerance.
TEST(ConvexSolverTest, IslandsSecondPassMeetsTheAbsoluteTolerance) {
  const IdenticalIslands islands(300.0);
  VectorXd Ar;
  islands.tp.problem.MultiplyA(islands.v0 - islands.tp.problem.free_motion_velocity(), &Ar);
  const double momentum0 = islands.D.cwiseProduct(Ar).norm();
  ASSERT_GT(momentum0, 500.0);
  for (int k = 0; k <= 80; ++k) {
    const double absolute_tolerance = std::pow(10.0, -1.0 - 0.1 * k);
    SCOPED_TRACE(absolute_tolerance);
    ConvexSolverParameters params =
        Params(LinearSolverType::kAuto, 10 * absolute_tolerance / momentum0);
    params.absolute_tolerance = absolute_tolerance;
    ConvexSolver solver;
    VectorXd v;
    const ConvexSolverStats stats = islands.Solve(params, &solver, &v);
    ASSERT_TRUE(stats.converged);
    ASSERT_FALSE(stats.cost_stagnated);
    // The relative term is a small part of the whole tolerance at the solution.
    EXPECT_LT(stats.tolerance, 1.1 * absolute_tolerance);
    EXPECT_LE(stats.residual, stats.tolerance);
    EXPECT_LE(islands.Residual(&solver, v), stats.tolerance);
  }
}

TEST(ConvexSolverTest, WarmStartAtSolutionTakesZeroIterations) {
  for (const auto type :
       {LinearSolverType::kDense, LinearSolverType::kBlockSparse, LinearSolverType::kSupernodal}) {
    std::mt19937 rng(7);
    TestProblem tp;
    tp.MakeTrees(5, &rng);
    tp.MakeConstraints(9, Kind::kMixed, &rng);
    ConvexSolver solver;
    solver.set_parameters(Params(type, 1e-8));
    VectorXd v = VectorXd::Zero(tp.problem.num_velocities());
    ASSERT_TRUE(solver.Solve(tp.problem, &v).converged);
    const VectorXd solution = v;
    const auto stats = solver.Solve(tp.problem, &v);
    EXPECT_TRUE(stats.converged);
    EXPECT_EQ(stats.iterations, 0);
    EXPECT_EQ(v, solution);
  }
}

TEST(ConvexSolverTest, NoConstraintsGivesFreeMotion) {
  std::mt19937 rng(8);
  TestProblem tp;
  tp.MakeTrees(3, &rng);
  ConvexSolver solver;
  VectorXd v;  // wrong size: starts from v*
  const auto stats = solver.Solve(tp.problem, &v);
  EXPECT_TRUE(stats.converged);
  EXPECT_EQ(stats.iterations, 0);
  EXPECT_EQ(v, tp.problem.free_motion_velocity());
}

TEST(ConvexSolverTest, NanInputIsReportedNotPropagated) {
  std::mt19937 rng(9);
  TestProblem tp;
  tp.MakeTrees(3, &rng);
  tp.MakeConstraints(4, Kind::kQuadratic, &rng);
  ConvexSolver solver;
  const int n = tp.problem.num_velocities();

  VectorXd v = VectorXd::Zero(n);
  v[2] = kNaN;
  auto stats = solver.Solve(tp.problem, &v);
  EXPECT_FALSE(stats.converged);
  EXPECT_TRUE(stats.invalid_input);
  EXPECT_EQ(stats.iterations, 0);

  v.setZero();
  tp.problem.mutable_free_motion_velocity()[1] = std::numeric_limits<double>::infinity();
  stats = solver.Solve(tp.problem, &v);
  EXPECT_FALSE(stats.converged);
  EXPECT_TRUE(stats.invalid_input);
  EXPECT_TRUE(v.allFinite());
  tp.problem.mutable_free_motion_velocity()[1] = 0;

  tp.problem.mutable_jacobian(2, 0)(1, 1) = kNaN;
  stats = solver.Solve(tp.problem, &v);
  EXPECT_FALSE(stats.converged);
  EXPECT_TRUE(v.allFinite());
  tp.problem.mutable_jacobian(2, 0)(1, 1) = 0;

  tp.problem.mutable_bias(1)[0] = kNaN;
  stats = solver.Solve(tp.problem, &v);
  EXPECT_FALSE(stats.converged);
  EXPECT_TRUE(v.allFinite());
  tp.problem.mutable_bias(1)[0] = 0;

  tp.problem.mutable_tree_A(0)(0, 0) = kNaN;
  stats = solver.Solve(tp.problem, &v);
  EXPECT_FALSE(stats.converged);
  EXPECT_TRUE(v.allFinite());
}

TEST(ConvexSolverTest, ConstraintReturningNanStopsWithFiniteVelocity) {
  ConvexProblem problem;
  problem.Reset({1});
  problem.mutable_tree_A(0)(0, 0) = 1;
  problem.mutable_free_motion_velocity()[0] = 2;
  NaNConstraint constraint;
  problem.mutable_jacobian(problem.AddConstraint(&constraint, 0, -1), 0)(0, 0) = 1;
  ConvexSolver solver;
  VectorXd v = VectorXd::Zero(1);
  const auto stats = solver.Solve(problem, &v);
  EXPECT_FALSE(stats.converged);
  EXPECT_TRUE(v.allFinite());
}

TEST(ConvexSolverTest, IndefiniteHessianIsReported) {
  for (const auto type :
       {LinearSolverType::kDense, LinearSolverType::kBlockSparse, LinearSolverType::kSupernodal}) {
    ConvexProblem problem;
    problem.Reset({2});
    problem.mutable_tree_A(0) << 1, 2, 2, 1;  // positive diagonal, not positive definite
    problem.mutable_free_motion_velocity() << 1, 0;
    ConvexSolver solver;
    solver.set_parameters(Params(type));
    VectorXd v = VectorXd::Zero(2);
    const auto stats = solver.Solve(problem, &v);
    EXPECT_FALSE(stats.converged);
    EXPECT_TRUE(stats.factorization_failed);
    EXPECT_TRUE(v.allFinite());
  }
}

// N particles of mass m in one tree, 3 velocities each: A = m·I.
void ResetParticles(int n, double m, ConvexProblem* problem) {
  problem->Reset({3 * n});
  problem->mutable_tree_A(0) = m * MatrixXd::Identity(3 * n, 3 * n);
}

// Particle k's contact is contacts[k], with J = I on its velocities.
template <typename Contact>
void AttachParticleContacts(std::vector<Contact>* contacts, ConvexProblem* problem) {
  for (size_t k = 0; k < contacts->size(); ++k) {
    const int i = problem->AddConstraint(&(*contacts)[k], 0, -1);
    problem->mutable_jacobian(i, 0).block<3, 3>(0, 3 * static_cast<int>(k)).setIdentity();
  }
}

// Regime prediction (docs/contact-model.md §4.1) on a problem with a known answer: N particles
// of mass m sliding on the ground in one tree (one line search sees every particle's stiction
// kink), each with a Lagged contact of friction bound F = μγ_n0. A is diagonal, so each particle
// solves its own 1-D balance along its free-motion slip: m(x − ‖v*_t‖) + F·x/√(x² + ε²) = 0,
// whose root (bisection) is x ≈ 0 when F > m‖v*_t‖ (it stops) and x ≈ ‖v*_t‖ − F/m otherwise.
TEST(ConvexSolverTest, RegimePredictionKeepsTheSolutionAndCutsIterations) {
  const int n = 40;
  const double m = 0.5, eps = 1e-4, dt = 2e-3;
  std::mt19937 rng(71);
  std::uniform_real_distribution<double> speed(0.05, 1.0), angle(0, 2 * std::numbers::pi);
  ConvexProblem problem;
  ResetParticles(n, m, &problem);
  std::vector<LaggedContact> contacts;
  contacts.reserve(n);
  std::vector<double> bound(n), slip(n);
  for (int k = 0; k < n; ++k) {
    const double a = angle(rng);
    slip[k] = speed(rng);
    // Half the particles stop (F up to 2 m‖v*_t‖), half slide on.
    bound[k] = m * slip[k] * (k % 2 == 0 ? 1.2 + speed(rng) : 0.8 * speed(rng));
    problem.mutable_free_motion_velocity().segment<3>(3 * k) =
        Eigen::Vector3d(slip[k] * std::cos(a), slip[k] * std::sin(a), 0.0);
    LaggedContact::Data d;
    d.normal = HuntCrossleyNormal{
        .dt_s = dt, .stiffness_N_per_m = 1e5, .dissipation_s_per_m = 0, .penetration_m = 0};
    d.friction = 1;
    d.lagged_normal_impulse = bound[k];
    d.epsilon_m_per_s = eps;
    contacts.emplace_back(d);
  }
  AttachParticleContacts(&contacts, &problem);
  VectorXd expected = problem.free_motion_velocity();
  for (int k = 0; k < n; ++k) {
    const auto balance = [&](double x) {
      return m * (x - slip[k]) + bound[k] * x / std::sqrt(x * x + eps * eps);
    };
    double lo = 0, hi = slip[k];
    for (int it = 0; it < 200; ++it) (balance(0.5 * (lo + hi)) < 0 ? lo : hi) = 0.5 * (lo + hi);
    expected.segment<2>(3 * k) *= 0.5 * (lo + hi) / slip[k];
  }
  int iterations[2] = {0, 0};
  for (const bool predict : {false, true}) {
    ConvexSolverParameters p = Params(LinearSolverType::kAuto, 1e-10);
    p.predict_regimes = predict;
    ConvexSolver solver;
    solver.set_parameters(p);
    VectorXd v = problem.free_motion_velocity();
    const ConvexSolverStats stats = solver.Solve(problem, &v);
    ASSERT_TRUE(stats.converged);
    EXPECT_LT((v - expected).cwiseAbs().maxCoeff(), 1e-8) << "predict " << predict;
    EXPECT_EQ(stats.predicted_steps > 0, predict);
    iterations[predict] = stats.iterations;
  }
  // Plain Newton stops one or two particles per iteration (the line search ends at the first
  // stiction kink on its way: 23 iterations here); with prediction the first step stops them all
  // and Newton's own model finishes inside the stiction zones (6).
  EXPECT_GE(iterations[0], 15);
  EXPECT_LE(3 * iterations[1], iterations[0]);
}

// The predicted step's model is exact when every constraint it predicts ends in a regime whose
// potential is one quadratic: SAP's stiction, ½ yᵀR y with y = −R⁻¹(v_c − v̂). N particles of
// mass m pressed onto the ground and sliding in free motion, each with a SAP contact (J = I)
// that slides at v* and sticks at the solution: there m(v − v*) = −R⁻¹(v − v̂), so
// v = (m v* + R⁻¹ v̂)/(m + R⁻¹) per component. The first Newton step, taken along the stiction
// model (with its own gradient Jᵀγ_model − A(v − v*)), lands on that solution: one iteration.
// A wrong model gradient (say, the predicted constraints' old impulses left in Jᵀγ) still
// converges through the line search, but along worse steps.
TEST(ConvexSolverTest, PredictedStictionModelLandsOnTheSolutionInOneStep) {
  const int n = 12;
  const double m = 1.0, mu = 1.0, R_t = 0.1, R_n = 1.0, vhat_n = 0.1, vstar_n = -0.1;
  std::mt19937 rng(5);
  // Sliding at v* needs ‖v*_t‖/R_t > μ(v̂_n − v*_n)/R_n (0.02); sticking at the solution
  // ‖v*_t‖/(m R_t + 1) ≤ μ(v̂_n − v*_n)/(m R_n + 1) (‖v*_t‖ ≤ 0.11).
  std::uniform_real_distribution<double> speed(0.03, 0.1), angle(0, 2 * std::numbers::pi);
  ConvexProblem problem;
  ResetParticles(n, m, &problem);
  std::vector<SapContact> contacts;
  contacts.reserve(n);
  VectorXd expected(3 * n);
  for (int k = 0; k < n; ++k) {
    const double a = angle(rng), slip = speed(rng);
    const Eigen::Vector3d vstar(slip * std::cos(a), slip * std::sin(a), vstar_n);
    problem.mutable_free_motion_velocity().segment<3>(3 * k) = vstar;
    contacts.emplace_back(
        SapContact::Data{.friction = mu, .R_t = R_t, .R_n = R_n, .vhat_n = vhat_n});
    const Eigen::Vector3d R(R_t, R_t, R_n), vhat(0, 0, vhat_n);
    expected.segment<3>(3 * k) =
        (m * vstar + vhat.cwiseQuotient(R))
            .cwiseQuotient(Eigen::Vector3d::Constant(m) + R.cwiseInverse());
  }
  AttachParticleContacts(&contacts, &problem);
  ConvexSolver solver;
  solver.set_parameters(Params(LinearSolverType::kAuto, 1e-12));
  VectorXd v = problem.free_motion_velocity();
  const ConvexSolverStats stats = solver.Solve(problem, &v);
  ASSERT_TRUE(stats.converged);
  EXPECT_LT((v - expected).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(stats.predicted_steps, 1);
  EXPECT_EQ(stats.iterations, 1);
}

}  // namespace
}  // namespace contactlab
