// Factor + solve of the Newton Hessian H = A + Jᵀ G J (docs/contact-model.md §4, "Sparsity")
// for N free bodies (6 dofs each) by a dense LLT, our tree-block Cholesky (BlockCholesky) and
// CHOLMOD's supernodal and simplicial methods (SupernodalCholesky):
//   Chain:   each body touches its neighbour (and the ground): H is block tridiagonal.
//   Clutter: each body touches the ground and ~2 random others (a random contact graph).
// All start from the same assembled BlockSparseHessian, as in the solver: the dense path
// includes scattering the blocks into a dense matrix, the sparse ones gathering the values into
// their own storage; the symbolic analyses are done once, outside the timed loop (they are reused
// while the pattern is unchanged). The tree-block factorization's fl/nnzL against CHOLMOD's
// supernodal time set ConvexSolverParameters::block_cholesky_max_flops_per_nonzero.
//   ./linear_solver_bench --benchmark_filter=Clutter
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <memory>
#include <random>
#include <vector>

#include "engine/solver/block_cholesky.h"
#include "engine/solver/block_sparse_hessian.h"
#include "engine/solver/constraint.h"
#include "engine/solver/convex_problem.h"
#include "engine/solver/supernodal_cholesky.h"

namespace contactlab {
namespace {

// The factorization only needs the pattern; the constraint itself is never evaluated here.
class NullConstraint final : public Constraint {
 public:
  int num_rows() const override { return 3; }
  double Evaluate(const Eigen::Ref<const Eigen::VectorXd>&, Eigen::Ref<Eigen::VectorXd> gamma,
                  Eigen::MatrixXd* G) const override {
    gamma.setZero();
    if (G != nullptr) G->setZero();
    return 0;
  }
};

struct Fixture {
  Fixture(int num_bodies, bool clutter) {
    std::mt19937 rng(42);
    std::normal_distribution<double> normal;
    problem.Reset(std::vector<int>(num_bodies, 6));
    for (int t = 0; t < num_bodies; ++t) {
      const Eigen::MatrixXd M = Eigen::MatrixXd::NullaryExpr(6, 6, [&]() { return normal(rng); });
      problem.mutable_tree_A(t) = M * M.transpose() + 6 * Eigen::MatrixXd::Identity(6, 6);
    }
    std::vector<std::pair<int, int>> pairs;
    for (int t = 0; t < num_bodies; ++t) {
      pairs.emplace_back(t, -1);  // ground contact
      if (!clutter) {
        if (t + 1 < num_bodies) pairs.emplace_back(t, t + 1);
      } else if (num_bodies > 1) {
        std::uniform_int_distribution<int> other(0, num_bodies - 1);
        for (int k = 0; k < 2; ++k) {
          int b = other(rng);
          if (b == t) b = (t + 1) % num_bodies;
          pairs.emplace_back(t, b);
        }
      }
    }
    for (const auto& [a, b] : pairs) {
      const int index = problem.AddConstraint(&constraint, a, b);
      for (int k = 0; k < (b >= 0 ? 2 : 1); ++k) {
        problem.mutable_jacobian(index, k) =
            Eigen::MatrixXd::NullaryExpr(3, 6, [&]() { return normal(rng); });
      }
      const Eigen::Matrix3d R = Eigen::Matrix3d::NullaryExpr([&]() { return normal(rng); });
      G_storage.push_back(R * R.transpose() + Eigen::Matrix3d::Identity());
    }
    for (auto& G : G_storage) G_pointers.push_back(&G);
    hessian.UpdatePattern(problem);
    hessian.Assemble(problem, G_pointers);
    b = Eigen::VectorXd::NullaryExpr(problem.num_velocities(), [&]() { return normal(rng); });
    x = b;
  }

  NullConstraint constraint;
  ConvexProblem problem;
  std::vector<Eigen::MatrixXd> G_storage;
  std::vector<Eigen::MatrixXd*> G_pointers;
  BlockSparseHessian hessian;
  Eigen::VectorXd b, x;
};

void Dense(benchmark::State& state, bool clutter) {
  Fixture f(static_cast<int>(state.range(0)), clutter);
  Eigen::MatrixXd H;
  Eigen::LLT<Eigen::MatrixXd> llt(f.problem.num_velocities());
  for (auto _ : state) {
    f.hessian.ToDense(&H);
    llt.compute(H);
    f.x = f.b;
    llt.solveInPlace(f.x);
    benchmark::DoNotOptimize(f.x.data());
  }
  state.counters["nv"] = f.problem.num_velocities();
}

// Factor + solve with a sparse factorization (SupernodalCholesky or BlockCholesky: the same
// interface); its analysis is done before the timed loop. Each reports its own flops/nnz(L)
// (the tree-block one is what the solver's kAuto compares).
template <typename Cholesky>
void Factorization(benchmark::State& state, bool clutter, Cholesky* cholesky) {
  Fixture f(static_cast<int>(state.range(0)), clutter);
  if (cholesky->Factorize(f.hessian) != Cholesky::Status::kSuccess) {
    state.SkipWithError("factorization failed");
    return;
  }
  for (auto _ : state) {
    cholesky->Factorize(f.hessian);
    cholesky->Solve(f.b, &f.x);
    benchmark::DoNotOptimize(f.x.data());
  }
  state.counters["nv"] = f.problem.num_velocities();
  state.counters["nnzL"] = static_cast<double>(cholesky->factor_nonzeros());
  state.counters["fl/nnzL"] = cholesky->flops_per_factor_nonzero();
}

void Sparse(benchmark::State& state, bool clutter, SupernodalCholesky::Method method) {
  SupernodalCholesky cholesky(method);
  Factorization(state, clutter, &cholesky);
  state.counters["super"] = cholesky.is_supernodal() ? 1 : 0;
}

void Block(benchmark::State& state, bool clutter) {
  BlockCholesky cholesky;
  Factorization(state, clutter, &cholesky);
}

void BM_DenseChain(benchmark::State& state) { Dense(state, false); }
void BM_BlockChain(benchmark::State& state) { Block(state, false); }
void BM_BlockClutter(benchmark::State& state) { Block(state, true); }
void BM_SupernodalChain(benchmark::State& state) {
  Sparse(state, false, SupernodalCholesky::Method::kSupernodal);
}
void BM_SimplicialChain(benchmark::State& state) {
  Sparse(state, false, SupernodalCholesky::Method::kSimplicial);
}
void BM_AutoChain(benchmark::State& state) {
  Sparse(state, false, SupernodalCholesky::Method::kAuto);
}
void BM_DenseClutter(benchmark::State& state) { Dense(state, true); }
void BM_SupernodalClutter(benchmark::State& state) {
  Sparse(state, true, SupernodalCholesky::Method::kSupernodal);
}
void BM_SimplicialClutter(benchmark::State& state) {
  Sparse(state, true, SupernodalCholesky::Method::kSimplicial);
}
void BM_AutoClutter(benchmark::State& state) {
  Sparse(state, true, SupernodalCholesky::Method::kAuto);
}

void Sizes(benchmark::internal::Benchmark* b) {
  for (int n : {2, 4, 6, 8, 10, 12, 16, 24, 32, 48, 64, 96, 128, 160, 640}) b->Arg(n);
}

BENCHMARK(BM_DenseChain)->Apply(Sizes);
BENCHMARK(BM_BlockChain)->Apply(Sizes);
BENCHMARK(BM_SupernodalChain)->Apply(Sizes);
BENCHMARK(BM_SimplicialChain)->Apply(Sizes);
BENCHMARK(BM_AutoChain)->Apply(Sizes);
BENCHMARK(BM_DenseClutter)->Apply(Sizes);
BENCHMARK(BM_BlockClutter)->Apply(Sizes);
BENCHMARK(BM_SupernodalClutter)->Apply(Sizes);
BENCHMARK(BM_SimplicialClutter)->Apply(Sizes);
BENCHMARK(BM_AutoClutter)->Apply(Sizes);

}  // namespace
}  // namespace contactlab
