// Supernodal sparse Cholesky (CHOLMOD) of a BlockSparseHessian (docs/contact-model.md §4,
// "Sparsity"): symbolic analysis once per block pattern, numeric factorization per Newton
// iteration with the values gathered in place into a kept CHOLMOD matrix.
//
// Fill-reducing ordering is done at the tree level: AMD (cholmod_amd) on the tree–contact
// graph, keeping each tree's dofs contiguous (its dense diagonal block is a natural
// supernode). The permuted lower triangle is handed to cholmod_analyze with the natural
// ordering and no postorder, which is the one combination in which cholmod_factorize reads
// the matrix directly instead of building a permuted transpose each call.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/solver/block_sparse_hessian.h"

namespace contactlab {

class SupernodalCholesky {
 public:
  enum class Status { kSuccess, kNotPositiveDefinite, kFailure };
  // Supernodal (dense BLAS on supernodes) or simplicial (column by column, no BLAS) numeric
  // factorization. kAuto decides at each symbolic analysis from the predicted work per factor
  // non-zero, flops / nnz(L) ≥ kSupernodalSwitch: supernodes pay off for large, dense fronts;
  // for the small systems of a time step CHOLMOD's per-supernode overhead (BLAS calls, OpenMP
  // region setup) outweighs them (bench/linear_solver_bench measures the crossover).
  enum class Method { kAuto, kSupernodal, kSimplicial };
  static constexpr double kSupernodalSwitch = 24;

  explicit SupernodalCholesky(Method method = Method::kAuto);
  ~SupernodalCholesky();
  SupernodalCholesky(const SupernodalCholesky&) = delete;
  SupernodalCholesky& operator=(const SupernodalCholesky&) = delete;

  // Factors H. Re-analyzes only when H.pattern_serial() differs from the analyzed one.
  Status Factorize(const BlockSparseHessian& H);
  // x = H⁻¹ b with the last successful factorization (x may alias b). Returns false on a
  // CHOLMOD failure or without a factorization.
  bool Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x);

  // CHOLMOD's predicted flops / nnz(L) of the last analysis (what kAuto compares).
  double flops_per_factor_nonzero() const { return flops_per_nonzero_; }
  // Whether the current factor (after the last analysis) is supernodal.
  bool is_supernodal() const;
  // Number of symbolic analyses done so far (tests check the analysis is reused).
  int num_analyses() const { return num_analyses_; }
  // Non-zeros of the factor L after the last analysis (0 before).
  int64_t factor_nonzeros() const;
  // True when CHOLMOD factors the kept matrix directly (natural ordering of the tree-permuted
  // matrix, stored as the lower triangle for a supernodal factor and as the upper one for a
  // simplicial factor: no transposed or permuted copy per factorization).
  bool factorizes_in_place() const;

 private:
  bool Analyze(const BlockSparseHessian& H);
  void FreeFactorization();

  struct Cholmod;
  std::unique_ptr<Cholmod> c_;
  uint64_t analyzed_serial_ = 0;
  bool factored_ = false;
  int num_analyses_ = 0;
  double flops_per_nonzero_ = 0;
  std::vector<int> value_source_;          // A->x[p] = H.values()[value_source_[p]]
  std::vector<int> permuted_start_;        // per tree: its first row in the permuted matrix
  std::vector<int> tree_order_;            // trees in elimination order
  std::vector<int> tree_start_, tree_nv_;  // the original (unpermuted) tree partition
  Eigen::VectorXd permuted_rhs_;
};

}  // namespace contactlab
