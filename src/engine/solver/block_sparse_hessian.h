// The Newton Hessian H = A + Σ_i J_iᵀ G_i J_i of the convex problem in block-sparse form
// (docs/contact-model.md §2, §4 "Sparsity"). A is block diagonal by tree and a constraint couples
// at most two trees, so H has one dense diagonal block per tree,
//   H_tt = A_t + Σ_{i touches t} J_itᵀ G_i J_it,
// and one dense off-diagonal block per (tree a, tree b) pair, a < b, coupled by a constraint,
//   H_ab = Σ_{i touches a and b} J_iaᵀ G_i J_ib      (H_ba = H_abᵀ is not stored).
// The block pattern is the tree–contact graph; it is rebuilt every step (cheap) and a serial
// number changes only when the pattern does, so a factorization can keep its symbolic
// analysis while the set of coupled tree pairs is unchanged.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "engine/solver/convex_problem.h"

namespace contactlab {

class BlockSparseHessian {
 public:
  // Reads the tree sizes and the constraints' tree pairs from the problem. Returns true (and
  // takes a new pattern_serial()) when the tree sizes or the set of coupled pairs changed.
  // Allocation-free once the arenas have grown to the problem's size.
  bool UpdatePattern(const ConvexProblem& problem);

  // H = A + Σ Jᵢᵀ Gᵢ Jᵢ into the blocks. G[i] is constraint i's Hessian (num_rows²).
  // Requires UpdatePattern(problem) since the problem's constraints last changed.
  void Assemble(const ConvexProblem& problem, std::span<Eigen::MatrixXd* const> G);
  // H += Jᵢᵀ Gᵢ Jᵢ for one constraint (Assemble's term; with a change of Gᵢ, the Hessian of a
  // model that differs in a few constraints: ConvexSolver's regime prediction).
  void AddConstraint(const ConvexProblem& problem, int i, const Eigen::MatrixXd& Gi);

  int num_trees() const { return static_cast<int>(tree_nv_.size()); }
  int num_velocities() const { return nv_; }
  int tree_start(int t) const { return tree_start_[t]; }
  int tree_nv(int t) const { return tree_nv_[t]; }
  // Unique among all BlockSparseHessian patterns ever built in the process.
  uint64_t pattern_serial() const { return serial_; }

  // Body pairs whose contacts are summed as one 6 × 6 matrix (UpdateBodyPairs).
  int num_body_pairs() const { return static_cast<int>(body_pairs_.size()); }
  // Coupled tree pairs (a, b), a < b, sorted; index k is the off-diagonal block's index.
  int num_off_diagonal_blocks() const { return static_cast<int>(pairs_.size()); }
  const std::pair<int, int>& off_diagonal_pair(int k) const { return pairs_[k]; }

  // A diagonal block's lower triangle is H's; its strict upper triangle may be stale (the
  // factorizations read the lower one only; ToDense mirrors it).
  Eigen::Map<const Eigen::MatrixXd> diagonal_block(int t) const;
  Eigen::Map<const Eigen::MatrixXd> off_diagonal_block(int k) const;  // n_a × n_b
  // All block values, col-major blocks back to back: diagonal blocks in tree order, then the
  // off-diagonal blocks in pair order. The index of H(row, col) within a block is given by
  // diagonal_offset / off_diagonal_offset (used by the supernodal factorization's gather).
  const std::vector<double>& values() const { return values_; }
  int diagonal_offset(int t) const { return diag_offset_[t]; }
  int off_diagonal_offset(int k) const { return off_offset_[k]; }

  // The full symmetric n_v × n_v matrix (dense path and tests). Resizes H only if needed.
  void ToDense(Eigen::MatrixXd* H) const;

 private:
  // Adds constraint i's blocks when it has 3 rows (a contact); Nv: the clique size when known
  // at compile time (6, free bodies), Eigen::Dynamic otherwise.
  template <int Nv>
  void AddContactBlocks(const ConvexProblem& problem, int i, const Eigen::MatrixXd& Gi);

  // Contacts with a ContactFrame, summed per body pair (docs/contact-model.md §4 "Sparsity"):
  // with J = s·R_WCᵀ[−[r]×  I]·B(p0) about a reference point p0 of the pair, Σ Jᵀ G J =
  // B(p0)ᵀ·K·B(p0) with K = Σ [−[r]×  I]ᵀ·R_WC G R_WCᵀ·[−[r]×  I] (6 × 6): about 100 flops a
  // contact instead of one 3 × n_a … n_b product each (about 500 on an arm), plus a few small
  // products per pair. A pair needs kMinPairContacts to pay for those, and a tree of more than
  // 6 velocities: between free bodies the per-contact products have fixed sizes (6) and were as
  // fast on the clutter's box–box pairs (peg-in-hole's arm: assembly ×3 faster).
  static constexpr int kMinPairContacts = 4;
  static constexpr int kMinPairTreeNv = 7;
  struct BodyPair {
    int body[2] = {-1, -1};  // body Jacobians, the lower tree first (body[1] = −1: one clique)
    double sign = 1;         // s_0·s_1 of its contacts
    int first = 0;           // its first constraint: p0 is that contact's point
    int block = -1;          // the off-diagonal block of its trees
    Eigen::Matrix<double, 6, 6> K = Eigen::Matrix<double, 6, 6>::Zero();
  };
  void UpdateBodyPairs(const ConvexProblem& problem);
  void AccumulateContact(const ConvexProblem& problem, int i, const Eigen::MatrixXd& Gi);
  void AddBodyPairBlocks(const ConvexProblem& problem, BodyPair* pair);

  std::vector<int> tree_nv_, tree_start_;
  int nv_ = 0;
  std::vector<std::pair<int, int>> pairs_, scratch_pairs_;
  std::vector<int> diag_offset_, off_offset_;
  std::vector<int> constraint_block_;  // per constraint: its off-diagonal block, or −1
  std::vector<double> values_;
  std::vector<double> GJ_;            // scratch for G_i J_i
  std::vector<int> constraint_pair_;  // per constraint: its body pair, or −1
  std::vector<BodyPair> body_pairs_;
  std::vector<std::array<int, 4>> pair_keys_;  // (body 0, body 1, sign, constraint), sorted
  std::vector<double> pair_scratch_;           // B(p0) and K·B(p0) of a pair's two bodies
  uint64_t serial_ = 0;
};

}  // namespace contactlab
