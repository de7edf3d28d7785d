#include "engine/solver/block_sparse_hessian.h"

#include <algorithm>
#include <atomic>

namespace contactlab {
namespace {

std::atomic<uint64_t> next_pattern_serial{1};

// As AddTransposeProduct3 for r rows (r ≤ kLazyProductMaxRows), skipping the columns where GJ_b
// is zero: a joint-level constraint's J is one unit row, so its G·J has a single non-zero column.
// The contacts' kernel above keeps its own unrolled form: this one instantiated for r = 3 made a
// peg-in-hole step 8 % slower.
void AddTransposeProduct(const double* J_a, int n_a, const double* GJ_b, int n_b, int r,
                         double* H) {
  for (int j = 0; j < n_b; ++j) {
    const double* g = GJ_b + static_cast<ptrdiff_t>(r) * j;
    bool zero = true;
    for (int k = 0; k < r; ++k) zero = zero && g[k] == 0;
    if (zero) continue;
    double* column = H + static_cast<ptrdiff_t>(j) * n_a;
    for (int i = 0; i < n_a; ++i) {
      double sum = 0;
      for (int k = 0; k < r; ++k) sum += J_a[r * i + k] * g[k];
      column[i] += sum;
    }
  }
}

}  // namespace

bool BlockSparseHessian::UpdatePattern(const ConvexProblem& problem) {
  const int num_trees = problem.num_trees();
  bool changed = serial_ == 0 || num_trees != this->num_trees();
  for (int t = 0; t < num_trees && !changed; ++t) changed = problem.tree_nv(t) != tree_nv_[t];
  if (changed) {
    tree_nv_.resize(num_trees);
    tree_start_.resize(num_trees);
    for (int t = 0; t < num_trees; ++t) {
      tree_nv_[t] = problem.tree_nv(t);
      tree_start_[t] = problem.tree_start(t);
    }
    nv_ = problem.num_velocities();
  }

  // The coupled pairs, sorted and unique (the tree–contact graph's edges).
  scratch_pairs_.clear();
  for (int i = 0; i < problem.num_constraints(); ++i) {
    const auto& e = problem.entry(i);
    if (e.num_cliques == 2) {
      scratch_pairs_.emplace_back(std::min(e.tree[0], e.tree[1]), std::max(e.tree[0], e.tree[1]));
    }
  }
  std::sort(scratch_pairs_.begin(), scratch_pairs_.end());
  scratch_pairs_.erase(std::unique(scratch_pairs_.begin(), scratch_pairs_.end()),
                       scratch_pairs_.end());
  if (scratch_pairs_ != pairs_) {
    changed = true;
    pairs_ = scratch_pairs_;  // copy, not swap: both keep their capacity for the next step
  }

  if (changed) {
    serial_ = next_pattern_serial.fetch_add(1);
    diag_offset_.resize(num_trees);
    off_offset_.resize(pairs_.size());
    int size = 0;
    for (int t = 0; t < num_trees; ++t) {
      diag_offset_[t] = size;
      size += tree_nv_[t] * tree_nv_[t];
    }
    for (size_t k = 0; k < pairs_.size(); ++k) {
      off_offset_[k] = size;
      size += tree_nv_[pairs_[k].first] * tree_nv_[pairs_[k].second];
    }
    values_.resize(size);
  }

  // Constraint → block map: the constraints may have changed even if the pattern did not.
  constraint_block_.resize(problem.num_constraints());
  for (int i = 0; i < problem.num_constraints(); ++i) {
    const auto& e = problem.entry(i);
    constraint_block_[i] = -1;
    if (e.num_cliques == 2) {
      const std::pair<int, int> p(std::min(e.tree[0], e.tree[1]), std::max(e.tree[0], e.tree[1]));
      constraint_block_[i] =
          static_cast<int>(std::lower_bound(pairs_.begin(), pairs_.end(), p) - pairs_.begin());
    }
  }
  return changed;
}

Eigen::Map<const Eigen::MatrixXd> BlockSparseHessian::diagonal_block(int t) const {
  return {values_.data() + diag_offset_[t], tree_nv_[t], tree_nv_[t]};
}

Eigen::Map<const Eigen::MatrixXd> BlockSparseHessian::off_diagonal_block(int k) const {
  return {values_.data() + off_offset_[k], tree_nv_[pairs_[k].first], tree_nv_[pairs_[k].second]};
}

namespace {
constexpr int kLazyProductMaxRows = 6;

// H (n_a × n_b, column-major, leading dimension n_a) += J_aᵀ·GJ_b for 3-row J_a (3 × n_a) and
// GJ_b (3 × n_b), both column-major: the inner dimension written out. Eigen's coefficient-wise
// product of dynamic-size operands evaluates each entry as a generic reduction, several times
// slower at an arm's 9 dofs (a peg-in-hole step's Hessian assembly was half its solve).
// lower_only, for a diagonal block (J_a = J_b): the lower triangle i ≥ j alone — all the
// factorizations read (block_sparse_hessian.h); an arm's 9 × 9 block costs 45 entries, not 81.
void AddTransposeProduct3(const double* J_a, int n_a, const double* GJ_b, int n_b, bool lower_only,
                          double* H) {
  for (int j = 0; j < n_b; ++j) {
    const double g0 = GJ_b[3 * j], g1 = GJ_b[3 * j + 1], g2 = GJ_b[3 * j + 2];
    double* column = H + static_cast<ptrdiff_t>(j) * n_a;
    for (int i = lower_only ? j : 0; i < n_a; ++i) {
      column[i] += J_a[3 * i] * g0 + J_a[3 * i + 1] * g1 + J_a[3 * i + 2] * g2;
    }
  }
}

}  // namespace

template <int Nv>
void BlockSparseHessian::AddContactBlocks(const ConvexProblem& problem, int i,
                                          const Eigen::MatrixXd& Gi) {
  using Mat3N = Eigen::Matrix<double, 3, Nv>;
  const auto& e = problem.entry(i);
  const Eigen::Map<const Eigen::Matrix3d> G3(Gi.data());
  for (int c = 0; c < e.num_cliques; ++c) {
    const int t = e.tree[c];
    const int nv = tree_nv_[t];
    if (static_cast<int>(GJ_.size()) < 3 * nv) GJ_.resize(3 * nv);
    const Eigen::Map<const Mat3N> Jc(problem.jacobian(i, c).data(), 3, nv);
    Eigen::Map<Mat3N> GJ(GJ_.data(), 3, nv);
    GJ.noalias() = G3 * Jc;
    // The coupling block: H_ab += J_aᵀ G J_b with a < b, computed while G J_b is at hand.
    const bool coupling = e.num_cliques == 2 && t == std::max(e.tree[0], e.tree[1]);
    const int nv_other = coupling ? tree_nv_[e.tree[1 - c]] : 0;
    double* H_tt = values_.data() + diag_offset_[t];
    double* H_ab = coupling ? values_.data() + off_offset_[constraint_block_[i]] : nullptr;
    // Diagonal blocks: the lower triangle alone, all the factorizations read (header).
    AddTransposeProduct3(Jc.data(), nv, GJ.data(), nv, /*lower_only=*/true, H_tt);
    if (!coupling) continue;
    if constexpr (Nv == Eigen::Dynamic) {
      AddTransposeProduct3(problem.jacobian(i, 1 - c).data(), nv_other, GJ.data(), nv,
                           /*lower_only=*/false, H_ab);
    } else {  // Eigen's unrolled 6 × 6 product: 1 % of a clutter step faster than the loop
      const Eigen::Map<const Mat3N> J_other(problem.jacobian(i, 1 - c).data(), 3, nv_other);
      Eigen::Map<Eigen::Matrix<double, Nv, Nv>>(H_ab, nv_other, nv).noalias() +=
          J_other.transpose().lazyProduct(GJ);
    }
  }
}

void BlockSparseHessian::Assemble(const ConvexProblem& problem,
                                  std::span<Eigen::MatrixXd* const> G) {
  using MapX = Eigen::Map<Eigen::MatrixXd>;
  for (int t = 0; t < num_trees(); ++t) {
    MapX(values_.data() + diag_offset_[t], tree_nv_[t], tree_nv_[t]) = problem.tree_A(t);
  }
  if (!pairs_.empty()) {
    std::fill(values_.begin() + off_offset_[0], values_.end(), 0.0);
  }
  for (int i = 0; i < problem.num_constraints(); ++i) AddConstraint(problem, i, *G[i]);
}

void BlockSparseHessian::AddConstraint(const ConvexProblem& problem, int i,
                                       const Eigen::MatrixXd& Gi) {
  using MapX = Eigen::Map<Eigen::MatrixXd>;
  const auto& e = problem.entry(i);
  // An open contact (G = 0: in the margin, not touching) adds nothing; about a third of a
  // settled clutter's contacts.
  if (Gi.isZero(0)) return;
  // A contact (3 rows): the inner dimension fixed at compile time, and the clique size too on
  // free bodies (6 dofs) — several times faster than Eigen's dynamic-size kernels here.
  if (e.num_rows == 3) {
    const bool free_bodies =
        tree_nv_[e.tree[0]] == 6 && (e.num_cliques == 1 || tree_nv_[e.tree[1]] == 6);
    if (free_bodies) {
      AddContactBlocks<6>(problem, i, Gi);
    } else {
      AddContactBlocks<Eigen::Dynamic>(problem, i, Gi);
    }
    return;
  }
  for (int c = 0; c < e.num_cliques; ++c) {
    const int t = e.tree[c];
    const auto Jc = problem.jacobian(i, c);
    if (static_cast<int>(GJ_.size()) < e.num_rows * tree_nv_[t]) {
      GJ_.resize(e.num_rows * tree_nv_[t]);
    }
    MapX GJ(GJ_.data(), e.num_rows, tree_nv_[t]);
    // Few rows (joint-level constraints: 1): the product written out, skipping G·J's zero
    // columns; Eigen's blocked GEMM above that, where its packing pays off.
    const bool few_rows = e.num_rows <= kLazyProductMaxRows;
    if (few_rows) {
      GJ.noalias() = Gi.lazyProduct(Jc);
      AddTransposeProduct(Jc.data(), tree_nv_[t], GJ.data(), tree_nv_[t], e.num_rows,
                          values_.data() + diag_offset_[t]);
    } else {
      GJ.noalias() = Gi * Jc;
      MapX(values_.data() + diag_offset_[t], tree_nv_[t], tree_nv_[t]).noalias() +=
          Jc.transpose() * GJ;
    }
    // The coupling block: H_ab += J_aᵀ G J_b with a < b, computed while G J_b is at hand.
    if (e.num_cliques == 2 && t == std::max(e.tree[0], e.tree[1])) {
      const int other = e.tree[1 - c];
      const int k = constraint_block_[i];
      double* H_ab = values_.data() + off_offset_[k];
      if (few_rows) {
        AddTransposeProduct(problem.jacobian(i, 1 - c).data(), tree_nv_[other], GJ.data(),
                            tree_nv_[t], e.num_rows, H_ab);
      } else {
        MapX(H_ab, tree_nv_[other], tree_nv_[t]).noalias() +=
            problem.jacobian(i, 1 - c).transpose() * GJ;
      }
    }
  }
}

void BlockSparseHessian::ToDense(Eigen::MatrixXd* H) const {
  if (H->rows() != nv_ || H->cols() != nv_) H->resize(nv_, nv_);
  H->setZero();
  for (int t = 0; t < num_trees(); ++t) {
    H->block(tree_start_[t], tree_start_[t], tree_nv_[t], tree_nv_[t]) =
        diagonal_block(t).selfadjointView<Eigen::Lower>();
  }
  for (int k = 0; k < num_off_diagonal_blocks(); ++k) {
    const auto [a, b] = pairs_[k];
    const auto Hab = off_diagonal_block(k);
    H->block(tree_start_[a], tree_start_[b], tree_nv_[a], tree_nv_[b]) = Hab;
    H->block(tree_start_[b], tree_start_[a], tree_nv_[b], tree_nv_[a]) = Hab.transpose();
  }
}

}  // namespace contactlab
