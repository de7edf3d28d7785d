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
  UpdateBodyPairs(problem);
  return changed;
}

void BlockSparseHessian::UpdateBodyPairs(const ConvexProblem& problem) {
  // Contacts grouped by (body 0, body 1, sign), in constraint order within a group; only those
  // touching a tree of kMinPairTreeNv velocities (a pile's free bodies are never grouped).
  pair_keys_.clear();
  for (int i = 0; i < problem.num_constraints(); ++i) {
    const ConvexProblem::ContactFrame* frame = problem.contact_frame(i);
    if (frame == nullptr) continue;
    const auto& e = problem.entry(i);
    const bool wide = tree_nv_[e.tree[0]] >= kMinPairTreeNv ||
                      (e.num_cliques == 2 && tree_nv_[e.tree[1]] >= kMinPairTreeNv);
    if (!wide) continue;
    const int c0 = (e.num_cliques == 2 && e.tree[1] < e.tree[0]) ? 1 : 0;
    const bool two = e.num_cliques == 2;
    pair_keys_.push_back({frame->body[c0], two ? frame->body[1 - c0] : -1,
                          two && frame->sign[0] * frame->sign[1] < 0 ? -1 : 1, i});
  }
  std::sort(pair_keys_.begin(), pair_keys_.end());
  constraint_pair_.assign(problem.num_constraints(), -1);
  body_pairs_.clear();
  int max_nv = 0;
  for (size_t start = 0; start < pair_keys_.size();) {
    size_t end = start + 1;
    const auto same = [&](size_t k) {
      return pair_keys_[k][0] == pair_keys_[start][0] && pair_keys_[k][1] == pair_keys_[start][1] &&
             pair_keys_[k][2] == pair_keys_[start][2];
    };
    while (end < pair_keys_.size() && same(end)) ++end;
    int pair_nv = 0;
    for (const int b : {pair_keys_[start][0], pair_keys_[start][1]}) {
      if (b >= 0) pair_nv = std::max(pair_nv, tree_nv_[problem.body_jacobian_tree(b)]);
    }
    if (end - start >= static_cast<size_t>(kMinPairContacts)) {
      BodyPair pair;
      pair.body[0] = pair_keys_[start][0];
      pair.body[1] = pair_keys_[start][1];
      pair.sign = pair_keys_[start][2];
      pair.first = pair_keys_[start][3];
      pair.block = constraint_block_[pair.first];
      for (size_t k = start; k < end; ++k) {
        constraint_pair_[pair_keys_[k][3]] = static_cast<int>(body_pairs_.size());
      }
      max_nv = std::max(max_nv, pair_nv);
      body_pairs_.push_back(pair);
    }
    start = end;
  }
  const size_t scratch = 24 * static_cast<size_t>(max_nv);
  if (pair_scratch_.size() < scratch) pair_scratch_.resize(scratch);
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
// N > 0: n_a = n_b = N known to the compiler (free bodies, N = 6: unrolled).
template <int N = 0>
void AddTransposeProduct3(const double* J_a, int n_a_runtime, const double* GJ_b, int n_b_runtime,
                          bool lower_only, double* H) {
  const int n_a = N > 0 ? N : n_a_runtime, n_b = N > 0 ? N : n_b_runtime;
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
    AddTransposeProduct3<Nv == Eigen::Dynamic ? 0 : Nv>(Jc.data(), nv, GJ.data(), nv,
                                                        /*lower_only=*/true, H_tt);
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
  for (BodyPair& pair : body_pairs_) pair.K.setZero();
  for (int i = 0; i < problem.num_constraints(); ++i) {
    if (constraint_pair_[i] >= 0) {
      AccumulateContact(problem, i, *G[i]);
    } else {
      AddConstraint(problem, i, *G[i]);
    }
  }
  for (BodyPair& pair : body_pairs_) AddBodyPairBlocks(problem, &pair);
}

namespace {

Eigen::Matrix3d Skew(const Eigen::Vector3d& r) {
  Eigen::Matrix3d S;
  S << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return S;
}

// H (n_a × n_b) += B_aᵀ·KB_b for 6-row B_a (6 × n_a) and KB_b (6 × n_b), column-major; the lower
// triangle alone for a diagonal block.
void AddTransposeProduct6(const double* B_a, int n_a, const double* KB_b, int n_b, bool lower_only,
                          double* H) {
  for (int j = 0; j < n_b; ++j) {
    const double* g = KB_b + 6 * static_cast<ptrdiff_t>(j);
    double* column = H + static_cast<ptrdiff_t>(j) * n_a;
    for (int i = lower_only ? j : 0; i < n_a; ++i) {
      const double* b = B_a + 6 * static_cast<ptrdiff_t>(i);
      column[i] +=
          b[0] * g[0] + b[1] * g[1] + b[2] * g[2] + b[3] * g[3] + b[4] * g[4] + b[5] * g[5];
    }
  }
}

}  // namespace

void BlockSparseHessian::AccumulateContact(const ConvexProblem& problem, int i,
                                           const Eigen::MatrixXd& Gi) {
  if (Gi.isZero(0)) return;
  BodyPair& pair = body_pairs_[constraint_pair_[i]];
  const ConvexProblem::ContactFrame& frame = *problem.contact_frame(i);
  const Eigen::Vector3d r = frame.p_W - problem.contact_frame(pair.first)->p_W;
  const Eigen::Matrix3d G_W =
      frame.R_WC * Eigen::Map<const Eigen::Matrix3d>(Gi.data()) * frame.R_WC.transpose();
  // [X  I]ᵀ G_W [X  I] with X = −[r]× (v_P = v(p0) + ω × r): Xᵀ = [r]×, so the blocks are
  // −[r]× G_W [r]×, [r]× G_W and G_W (the lower-left one is filled from the upper-right).
  const Eigen::Matrix3d rG = Skew(r) * G_W;
  pair.K.topLeftCorner<3, 3>().noalias() -= rG * Skew(r);
  pair.K.topRightCorner<3, 3>() += rG;
  pair.K.bottomRightCorner<3, 3>() += G_W;
}

void BlockSparseHessian::AddBodyPairBlocks(const ConvexProblem& problem, BodyPair* pair) {
  using Mat6X = Eigen::Matrix<double, 6, Eigen::Dynamic>;
  pair->K.bottomLeftCorner<3, 3>() = pair->K.topRightCorner<3, 3>().transpose();
  const Eigen::Vector3d p0 = problem.contact_frame(pair->first)->p_W;
  const int num_bodies = pair->body[1] >= 0 ? 2 : 1;
  int tree[2], nv[2];
  double* B[2];
  double* KB[2];
  for (int k = 0; k < num_bodies; ++k) {
    tree[k] = problem.body_jacobian_tree(pair->body[k]);
    nv[k] = tree_nv_[tree[k]];
    B[k] = pair_scratch_.data() + 12 * static_cast<ptrdiff_t>(k) * nv[0];
    KB[k] = B[k] + 6 * static_cast<ptrdiff_t>(nv[k]);
    // B(p0): v(p0) = v_O + ω × p0 = v_O − [p0]× ω.
    const auto B_O = problem.body_jacobian(pair->body[k]);
    Eigen::Map<Mat6X> Bk(B[k], 6, nv[k]);
    Bk.topRows<3>() = B_O.topRows<3>();
    Bk.bottomRows<3>().noalias() = B_O.bottomRows<3>() - Skew(p0) * B_O.topRows<3>();
    Eigen::Map<Mat6X>(KB[k], 6, nv[k]).noalias() = pair->K * Bk;
    AddTransposeProduct6(B[k], nv[k], KB[k], nv[k], /*lower_only=*/true,
                         values_.data() + diag_offset_[tree[k]]);
  }
  if (num_bodies == 1) return;
  // The coupling block H_ab (a < b: body 0's tree first) += s_0·s_1·B_0ᵀ K B_1.
  Eigen::Map<Mat6X>(KB[1], 6, nv[1]) *= pair->sign;
  AddTransposeProduct6(B[0], nv[0], KB[1], nv[1], /*lower_only=*/false,
                       values_.data() + off_offset_[pair->block]);
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
