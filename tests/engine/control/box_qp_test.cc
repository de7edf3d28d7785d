// Box QP solver against independent answers: brute-force enumeration of all active sets (the
// optimum of a strictly convex QP is the best feasible stationary point over all of them), the
// KKT conditions on larger random problems, and closed forms.
#include "engine/control/box_qp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "test_support/allocation_counter.h"

namespace contactlab {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Problem {
  MatrixXd H;
  VectorXd g, l, u;
};

// Random SPD H with condition number up to ~1e4, g of order 1, and a mix of bound kinds: both
// finite, one-sided, free, and fixed (l = u), so every code path is exercised.
Problem RandomProblem(int n, std::mt19937* rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> kind(0, 9);
  Problem p;
  MatrixXd A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = unit(*rng);
  Eigen::HouseholderQR<MatrixXd> qr(A);
  const MatrixXd Q = qr.householderQ();
  VectorXd eig(n);
  for (int i = 0; i < n; ++i) eig[i] = std::pow(10.0, 2.0 * unit(*rng));
  p.H = Q * eig.asDiagonal() * Q.transpose();
  p.H = 0.5 * (p.H + p.H.transpose());
  p.g.resize(n);
  p.l.resize(n);
  p.u.resize(n);
  for (int i = 0; i < n; ++i) {
    p.g[i] = 3.0 * unit(*rng);
    const double a = unit(*rng), b = unit(*rng);
    p.l[i] = std::min(a, b);
    p.u[i] = std::max(a, b);
    switch (kind(*rng)) {
      case 0:
        p.l[i] = -kInf;
        break;
      case 1:
        p.u[i] = kInf;
        break;
      case 2:
        p.l[i] = -kInf, p.u[i] = kInf;
        break;
      case 3:
        p.u[i] = p.l[i];
        break;
      default:
        break;
    }
  }
  return p;
}

double Objective(const Problem& p, const VectorXd& x) { return 0.5 * x.dot(p.H * x) + p.g.dot(x); }

// Enumerates the 3ⁿ assignments free / at lower / at upper, solves each equality-constrained
// subproblem and keeps the best feasible point.
VectorXd BruteForce(const Problem& p) {
  const int n = static_cast<int>(p.g.size());
  int combos = 1;
  for (int i = 0; i < n; ++i) combos *= 3;
  VectorXd best;
  double best_f = kInf;
  for (int c = 0; c < combos; ++c) {
    VectorXd x = VectorXd::Zero(n);
    std::vector<int> free;
    int code = c;
    bool valid = true;
    for (int i = 0; i < n; ++i) {
      const int s = code % 3;
      code /= 3;
      if (s == 0) {
        free.push_back(i);
      } else {
        x[i] = s == 1 ? p.l[i] : p.u[i];
        if (!std::isfinite(x[i])) valid = false;
      }
    }
    if (!valid) continue;
    const int nf = static_cast<int>(free.size());
    if (nf > 0) {
      MatrixXd Hff(nf, nf);
      VectorXd rhs(nf);
      for (int a = 0; a < nf; ++a) {
        rhs[a] = -p.g[free[a]];
        for (int j = 0; j < n; ++j) {
          bool is_free = false;
          for (int b = 0; b < nf; ++b) is_free |= free[b] == j;
          if (!is_free) rhs[a] -= p.H(free[a], j) * x[j];
        }
        for (int b = 0; b < nf; ++b) Hff(a, b) = p.H(free[a], free[b]);
      }
      const VectorXd xf = Hff.llt().solve(rhs);
      for (int a = 0; a < nf; ++a) x[free[a]] = xf[a];
    }
    bool feasible = true;
    for (int i = 0; i < n; ++i) {
      const double slack = 1e-9 * (1.0 + std::abs(x[i]));
      feasible &= x[i] >= p.l[i] - slack && x[i] <= p.u[i] + slack;
    }
    if (!feasible) continue;
    const double f = Objective(p, x);
    if (f < best_f) {
      best_f = f;
      best = x;
    }
  }
  return best;
}

// Checks the KKT conditions of x; returns the worst stationarity / sign violation relative to
// the problem scale.
double KktViolation(const Problem& p, const VectorXd& x) {
  const VectorXd r = p.H * x + p.g;
  const double scale = 1.0 + p.g.cwiseAbs().maxCoeff() +
                       p.H.cwiseAbs().maxCoeff() * x.cwiseAbs().maxCoeff() * x.size();
  double worst = 0.0;
  for (int i = 0; i < x.size(); ++i) {
    EXPECT_GE(x[i], p.l[i]);  // feasibility is exact, not up to a tolerance
    EXPECT_LE(x[i], p.u[i]);
    if (p.l[i] == p.u[i]) continue;
    if (x[i] == p.l[i]) {
      worst = std::max(worst, -r[i]);  // at lower: r ≥ 0
    } else if (x[i] == p.u[i]) {
      worst = std::max(worst, r[i]);  // at upper: r ≤ 0
    } else {
      worst = std::max(worst, std::abs(r[i]));  // free: r = 0
    }
  }
  return worst / scale;
}

TEST(BoxQp, MatchesBruteForceEnumeration) {
  std::mt19937 rng(42);
  int total_iterations = 0, num_problems = 0, max_iterations = 0;
  for (int n = 1; n <= 6; ++n) {
    BoxQpSolver solver(n);
    for (int trial = 0; trial < 300; ++trial) {
      const Problem p = RandomProblem(n, &rng);
      VectorXd x(n);
      const BoxQpResult result = solver.Solve(p.H, p.g, p.l, p.u, x);
      ASSERT_TRUE(result.converged()) << "n=" << n << " trial=" << trial;
      const VectorXd expected = BruteForce(p);
      ASSERT_EQ(expected.size(), n);
      EXPECT_LE((x - expected).norm(), 1e-8 * (1.0 + expected.norm()))
          << "n=" << n << " trial=" << trial << "\nx=" << x.transpose()
          << "\nbrute=" << expected.transpose();
      EXPECT_LE(Objective(p, x),
                Objective(p, expected) + 1e-10 * (1.0 + std::abs(Objective(p, expected))));
      total_iterations += result.iterations;
      max_iterations = std::max(max_iterations, result.iterations);
      ++num_problems;
    }
  }
  RecordProperty("mean_iterations", std::to_string(double(total_iterations) / num_problems));
  EXPECT_LE(max_iterations, 2 * 6 + 2);
}

TEST(BoxQp, SatisfiesKktOnRandomProblemsUpToTenVariables) {
  std::mt19937 rng(7);
  for (int n = 1; n <= 10; ++n) {
    BoxQpSolver solver(n);
    for (int trial = 0; trial < 500; ++trial) {
      const Problem p = RandomProblem(n, &rng);
      VectorXd x(n);
      const BoxQpResult result = solver.Solve(p.H, p.g, p.l, p.u, x);
      ASSERT_TRUE(result.converged());
      EXPECT_LE(KktViolation(p, x), 1e-10) << "n=" << n << " trial=" << trial;
      // The reported multipliers are those of the active set.
      int active = 0;
      for (int i = 0; i < n; ++i) {
        if (solver.active_side(i) != 0) {
          ++active;
          EXPECT_NEAR(solver.multipliers()[i], (p.H * x + p.g)[i], 1e-9 * (1 + p.g.norm()));
        } else {
          EXPECT_EQ(solver.multipliers()[i], 0.0);
        }
      }
      EXPECT_EQ(active, result.num_active);
    }
  }
}

TEST(BoxQp, UnconstrainedIsTheNewtonStep) {
  std::mt19937 rng(3);
  Problem p = RandomProblem(7, &rng);
  p.l.setConstant(-kInf);
  p.u.setConstant(kInf);
  BoxQpSolver solver(7);
  VectorXd x(7);
  const BoxQpResult result = solver.Solve(p.H, p.g, p.l, p.u, x);
  ASSERT_TRUE(result.converged());
  EXPECT_EQ(result.iterations, 1);
  EXPECT_EQ(result.num_active, 0);
  const VectorXd expected = p.H.llt().solve(-p.g);
  EXPECT_LE((x - expected).norm(), 1e-10 * (1.0 + expected.norm()));
}

// Diagonal H: the solution is the clamped unconstrained minimizer, variable by variable.
TEST(BoxQp, DiagonalProblemIsTheClampedNewtonStep) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  BoxQpSolver solver(8);
  for (int trial = 0; trial < 100; ++trial) {
    VectorXd d(8), g(8), l(8), u(8);
    for (int i = 0; i < 8; ++i) {
      d[i] = 0.1 + std::abs(unit(rng));
      g[i] = 2 * unit(rng);
      l[i] = -std::abs(unit(rng));
      u[i] = std::abs(unit(rng));
    }
    const MatrixXd H = d.asDiagonal();
    VectorXd x(8);
    ASSERT_TRUE(solver.Solve(H, g, l, u, x).converged());
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(x[i], std::clamp(-g[i] / d[i], l[i], u[i]), 1e-14);
  }
}

TEST(BoxQp, WarmStartFromTheSolutionTerminatesAtOnce) {
  std::mt19937 rng(11);
  BoxQpSolver solver(7);
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Problem p = RandomProblem(7, &rng);
    VectorXd x(7);
    const BoxQpResult cold = solver.Solve(p.H, p.g, p.l, p.u, x);
    ASSERT_TRUE(cold.converged());
    const VectorXd x_cold = x;
    const BoxQpResult warm = solver.Solve(p.H, p.g, p.l, p.u, x, /*warm_start=*/true);
    ASSERT_TRUE(warm.converged());
    EXPECT_LE((x - x_cold).norm(), 1e-12 * (1.0 + x.norm()));
    // One subspace solve plus the multiplier check.
    EXPECT_LE(warm.iterations, 1);
    ++checked;
  }
  EXPECT_EQ(checked, 200);
}

TEST(BoxQp, ReportsInvalidBoundsAndIndefiniteHessian) {
  BoxQpSolver solver(2);
  MatrixXd H = MatrixXd::Identity(2, 2);
  VectorXd g = VectorXd::Ones(2), x = VectorXd::Zero(2);
  VectorXd l(2), u(2);
  l << 0.0, 1.0;
  u << 1.0, 0.5;  // l > u
  EXPECT_EQ(solver.Solve(H, g, l, u, x).status, BoxQpStatus::kInvalidBounds);

  H << 1.0, 0.0, 0.0, -1.0;
  l << -1.0, -1.0;
  u << 1.0, 1.0;
  const BoxQpResult result = solver.Solve(H, g, l, u, x);
  EXPECT_EQ(result.status, BoxQpStatus::kNotPositiveDefinite);
  EXPECT_TRUE((x.array() >= l.array()).all() && (x.array() <= u.array()).all());

  VectorXd x3 = VectorXd::Zero(3);
  EXPECT_THROW(solver.Solve(MatrixXd::Identity(3, 3), VectorXd::Zero(3), VectorXd::Zero(3),
                            VectorXd::Zero(3), x3),
               std::invalid_argument);
}

TEST(BoxQp, SolveDoesNotAllocate) {
  if (!testing::kAllocationCountingAvailable) GTEST_SKIP() << "no allocation counting";
  std::mt19937 rng(13);
  std::vector<Problem> problems;
  for (int i = 0; i < 50; ++i) problems.push_back(RandomProblem(10, &rng));
  BoxQpSolver solver(10);
  VectorXd x(10);
  long allocations = 0;
  {
    testing::ScopedAllocationCount counter;
    for (const Problem& p : problems) solver.Solve(p.H, p.g, p.l, p.u, x, /*warm_start=*/true);
    allocations = counter.count();
  }
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace contactlab
