// Sparse Cholesky factorization H = L Lᵀ of a BlockSparseHessian over its tree blocks
// (docs/contact-model.md §4, "Sparsity"): each tree is one supernode, eliminated in the
// tree-level AMD order (engine/solver/tree_ordering.h). The symbolic factorization (the block
// pattern of L with its fill, and the list of block updates) is computed once per block pattern;
// a numeric factorization is then a fixed sequence of dense block operations — Cholesky of a
// diagonal block, a triangular solve per block below it, and L_ij −= L_ik L_jkᵀ updates — with
// the 6 × 6 blocks of free bodies at sizes known to the compiler.
//
// Why not CHOLMOD here: the Newton systems of a time step are small (n_v of tens to a few
// thousand) with 6 × 6 supernodes. CHOLMOD then picks its simplicial row-by-row method, which
// spends its time walking row subtrees entry by entry (a third of a clutter step); its
// supernodal method pays BLAS and OpenMP set-up per supernode. bench/linear_solver_bench.cc
// compares the three.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/solver/block_sparse_hessian.h"

namespace contactlab {

class BlockCholesky {
 public:
  enum class Status { kSuccess, kNotPositiveDefinite, kFailure };

  // Symbolic analysis of H's block pattern, unless it is the one analyzed last
  // (H.pattern_serial()). False if the ordering fails (out of memory).
  bool UpdateAnalysis(const BlockSparseHessian& H);
  // Factors H (analyzing its pattern first if needed); allocation-free once analyzed.
  Status Factorize(const BlockSparseHessian& H);
  // x = H⁻¹ b with the last successful factorization (x may alias b). Returns false without a
  // factorization or for a b of another size.
  bool Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) const;

  // Symbolic analyses done so far (tests check that one is reused while the pattern stays).
  int num_analyses() const { return num_analyses_; }
  // Entries of L's blocks (diagonal blocks counted whole) after the last analysis.
  int64_t factor_nonzeros() const { return static_cast<int64_t>(values_.size()); }
  // Multiply–adds of one numeric factorization (after the last analysis) per entry of L: how
  // dense the fronts are (a chain of bodies ≈ 5, a random graph of 160 bodies ≈ 60).
  double flops_per_factor_nonzero() const {
    return values_.empty() ? 0.0 : flops_ / static_cast<double>(values_.size());
  }
  // The tree whose diagonal block had a non-positive pivot after kNotPositiveDefinite.
  int failed_tree() const { return failed_tree_; }

 private:
  // One block column of L: the tree eliminated at that position and its blocks.
  struct Column {
    int tree = 0;
    int nv = 0;
    int diagonal = 0;     // offset of L_kk (nv × nv, col-major) in values_
    int first_block = 0;  // its blocks below the diagonal: blocks_[first_block, end_block)
    int end_block = 0;
    int first_update = 0;  // its L_ij −= L_ik L_jkᵀ updates: updates_[first_update, end_update)
    int end_update = 0;
  };
  struct Block {
    int row_column = 0;  // the column (elimination position) of the block's row tree
    int offset = 0;      // of L_ik (nv_i × nv_k, col-major) in values_
  };
  // L_target −= L_ik L_jkᵀ: target is L_ij (or L_jj, lower part, when i = j).
  struct Update {
    int ik = 0, jk = 0, target = 0;  // offsets in values_
    int nv_i = 0, nv_j = 0;
  };
  // H's values into L's pattern: a diagonal block, or an off-diagonal one (transposed when H
  // stores it the other way round).
  struct Gather {
    int source = 0, target = 0;
    int rows = 0, cols = 0;  // of the target block
    bool transpose = false;
  };

  void SymbolicFactorization(const BlockSparseHessian& H, const std::vector<int>& position);
  void PlanGatherAndUpdates(const BlockSparseHessian& H, const std::vector<int>& position);
  bool FactorColumn(const Column& column);

  std::vector<Column> columns_;
  std::vector<Block> blocks_;
  std::vector<Update> updates_;
  std::vector<Gather> gathers_;
  std::vector<std::pair<int, int>> fill_blocks_;  // (offset, size): L's blocks H has not
  std::vector<int> tree_start_;  // the trees' first velocity in H (the unpermuted partition)
  std::vector<double> values_;
  uint64_t analyzed_serial_ = 0;
  int num_analyses_ = 0;
  int num_velocities_ = 0;
  double flops_ = 0;
  int failed_tree_ = -1;
  bool factored_ = false;
};

}  // namespace contactlab
