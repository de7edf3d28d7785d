// Test-local problems for the solver tests (convex_solver_test.cc, supernodal_cholesky_test.cc):
// constraints with known derivatives — a quadratic (the solution solves a linear system), a
// smooth non-quadratic softplus barrier and a one-sided quadratic with kinks in its Hessian —
// and random multi-tree ConvexProblems built from them.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "engine/solver/convex_problem.h"
#include "engine/solver/convex_solver.h"

namespace contactlab::testing {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// ℓ = ½ (v_c − c)ᵀ K (v_c − c): γ = −K (v_c − c), G = K.
class QuadraticConstraint final : public Constraint {
 public:
  QuadraticConstraint(MatrixXd K, VectorXd c) : K_(std::move(K)), c_(std::move(c)) {}
  int num_rows() const override { return static_cast<int>(c_.size()); }
  double Evaluate(const Eigen::Ref<const VectorXd>& vc, Eigen::Ref<VectorXd> gamma,
                  MatrixXd* G) const override {
    double ell = 0;
    for (int i = 0; i < num_rows(); ++i) {
      double Kx = 0;
      for (int j = 0; j < num_rows(); ++j) Kx += K_(i, j) * (vc[j] - c_[j]);
      gamma[i] = -Kx;
      ell += 0.5 * (vc[i] - c_[i]) * Kx;
    }
    if (G != nullptr) *G = K_;
    return ell;
  }
  const MatrixXd& K() const { return K_; }
  const VectorXd& c() const { return c_; }

 private:
  MatrixXd K_;
  VectorXd c_;
};

// Smooth, strictly convex, not quadratic: ℓ = Σ_m (κ/β) softplus(β (c_m − a_mᵀ v_c)), a soft
// barrier pushing a_mᵀ v_c above c_m. γ = κ Σ σ_m a_m, G = κ β Σ σ_m (1 − σ_m) a_m a_mᵀ with
// σ_m = logistic(β (c_m − a_mᵀ v_c)). The rows a_m are those of a (full-rank) square matrix.
class SoftplusConstraint final : public Constraint {
 public:
  SoftplusConstraint(MatrixXd a, VectorXd c, double kappa, double beta)
      : a_(std::move(a)), c_(std::move(c)), kappa_(kappa), beta_(beta) {}
  int num_rows() const override { return static_cast<int>(a_.cols()); }
  double Evaluate(const Eigen::Ref<const VectorXd>& vc, Eigen::Ref<VectorXd> gamma,
                  MatrixXd* G) const override {
    const int n = num_rows();
    gamma.setZero();
    if (G != nullptr) G->setZero();
    double ell = 0;
    for (int m = 0; m < a_.rows(); ++m) {
      double s = c_[m];
      for (int j = 0; j < n; ++j) s -= a_(m, j) * vc[j];
      const double z = beta_ * s;
      // Stable softplus and logistic.
      const double softplus = z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
      const double sigma = z > 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
      ell += kappa_ / beta_ * softplus;
      for (int j = 0; j < n; ++j) gamma[j] += kappa_ * sigma * a_(m, j);
      if (G != nullptr) {
        const double w = kappa_ * beta_ * sigma * (1 - sigma);
        for (int i = 0; i < n; ++i) {
          for (int j = 0; j < n; ++j) (*G)(i, j) += w * a_(m, i) * a_(m, j);
        }
      }
    }
    return ell;
  }

 private:
  MatrixXd a_;
  VectorXd c_;
  double kappa_, beta_;
};

// Kinks: ℓ = Σ_k ½ k_k min(v_c,k − c_k, 0)² (a frictionless compliant unilateral constraint
// per row). γ_k = −k_k min(v_c,k − c_k, 0) ≥ 0, G = diag(k_k [v_c,k < c_k]).
class OneSidedConstraint final : public Constraint {
 public:
  OneSidedConstraint(VectorXd k, VectorXd c) : k_(std::move(k)), c_(std::move(c)) {}
  int num_rows() const override { return static_cast<int>(c_.size()); }
  double Evaluate(const Eigen::Ref<const VectorXd>& vc, Eigen::Ref<VectorXd> gamma,
                  MatrixXd* G) const override {
    double ell = 0;
    if (G != nullptr) G->setZero();
    for (int i = 0; i < num_rows(); ++i) {
      const double x = std::min(vc[i] - c_[i], 0.0);
      ell += 0.5 * k_[i] * x * x;
      gamma[i] = -k_[i] * x;
      if (G != nullptr && vc[i] < c_[i]) (*G)(i, i) = k_[i];
    }
    return ell;
  }
  bool Active(int i, double vc) const { return vc < c_[i]; }
  const VectorXd& k() const { return k_; }
  const VectorXd& c() const { return c_; }

 private:
  VectorXd k_, c_;
};

enum class Kind { kQuadratic, kSoftplus, kOneSided, kMixed };

inline MatrixXd RandomSpd(int n, std::mt19937* rng, double scale) {
  std::normal_distribution<double> normal;
  MatrixXd M(n, n);
  for (int i = 0; i < M.size(); ++i) M.data()[i] = normal(*rng);
  return scale * (M * M.transpose() + 0.5 * n * MatrixXd::Identity(n, n));
}

inline VectorXd RandomVector(int n, std::mt19937* rng, double scale = 1) {
  std::normal_distribution<double> normal;
  VectorXd x(n);
  for (int i = 0; i < n; ++i) x[i] = scale * normal(*rng);
  return x;
}

// A random multi-tree problem: free bodies (6 dofs) and 7-dof "arm chains", constraints of 3
// rows coupling one or two trees. Constraint objects are owned here.
struct TestProblem {
  ConvexProblem problem;
  std::vector<std::unique_ptr<Constraint>> constraints;

  // Random tree sizes; A per tree SPD (for 7-dof chains, a banded-ish dense matrix).
  void MakeTrees(int num_trees, std::mt19937* rng) {
    std::vector<int> sizes(num_trees);
    for (int t = 0; t < num_trees; ++t) sizes[t] = (t % 3 == 2) ? 7 : 6;
    problem.Reset(sizes);
    for (int t = 0; t < num_trees; ++t) {
      problem.mutable_tree_A(t) = RandomSpd(sizes[t], rng, 0.5);
    }
    problem.mutable_free_motion_velocity() = RandomVector(problem.num_velocities(), rng);
  }

  void AddConstraint(Kind kind, int tree_a, int tree_b, std::mt19937* rng) {
    std::uniform_int_distribution<int> pick(0, 2);
    if (kind == Kind::kMixed) kind = static_cast<Kind>(pick(*rng));
    std::unique_ptr<Constraint> c;
    switch (kind) {
      case Kind::kQuadratic:
        c = std::make_unique<QuadraticConstraint>(RandomSpd(3, rng, 2.0), RandomVector(3, rng));
        break;
      case Kind::kSoftplus:
        c = std::make_unique<SoftplusConstraint>(
            MatrixXd::Identity(3, 3) + 0.3 * RandomSpd(3, rng, 0.2), RandomVector(3, rng), 5.0,
            3.0);
        break;
      default:
        c = std::make_unique<OneSidedConstraint>(
            VectorXd::Constant(3, 20.0) + RandomVector(3, rng).cwiseAbs(), RandomVector(3, rng));
        break;
    }
    const int index = problem.AddConstraint(c.get(), tree_a, tree_b);
    for (int k = 0; k < (tree_b >= 0 ? 2 : 1); ++k) {
      auto J = problem.mutable_jacobian(index, k);
      J = MatrixXd::NullaryExpr(J.rows(), J.cols(),
                                [&]() { return std::normal_distribution<double>()(*rng); });
    }
    problem.mutable_bias(index) = RandomVector(3, rng, 0.1);
    constraints.push_back(std::move(c));
  }

  // Random constraints; a fraction coupling two trees.
  void MakeConstraints(int num_constraints, Kind kind, std::mt19937* rng) {
    std::uniform_int_distribution<int> tree(0, problem.num_trees() - 1);
    std::uniform_real_distribution<double> u(0, 1);
    for (int i = 0; i < num_constraints; ++i) {
      const int a = tree(*rng);
      int b = -1;
      if (problem.num_trees() > 1 && u(*rng) < 0.6) {
        do b = tree(*rng);
        while (b == a);
      }
      AddConstraint(kind, a, b, rng);
    }
  }

  MatrixXd DenseJ() const {
    MatrixXd J = MatrixXd::Zero(problem.num_constraint_rows(), problem.num_velocities());
    for (int i = 0; i < problem.num_constraints(); ++i) {
      const auto& e = problem.entry(i);
      for (int k = 0; k < e.num_cliques; ++k) {
        const int t = e.tree[k];
        J.block(e.row_start, problem.tree_start(t), e.num_rows, problem.tree_nv(t)) =
            problem.jacobian(i, k);
      }
    }
    return J;
  }

  MatrixXd DenseA() const {
    MatrixXd A = MatrixXd::Zero(problem.num_velocities(), problem.num_velocities());
    for (int t = 0; t < problem.num_trees(); ++t) {
      A.block(problem.tree_start(t), problem.tree_start(t), problem.tree_nv(t),
              problem.tree_nv(t)) = problem.tree_A(t);
    }
    return A;
  }
};

inline ConvexSolverParameters Params(LinearSolverType type, double rel_tol = 1e-12) {
  ConvexSolverParameters p;
  p.linear_solver = type;
  p.relative_tolerance = rel_tol;
  return p;
}

inline double RelativeError(const VectorXd& x, const VectorXd& reference) {
  return (x - reference).norm() / std::max(1.0, reference.norm());
}

}  // namespace contactlab::testing
