#include "engine/solver/block_cholesky.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <type_traits>

#include "engine/solver/tree_ordering.h"

namespace contactlab {
namespace {

// C (m × n) −= A (m × p) · B (n × p)ᵀ, all column-major with leading dimensions m, m and n.
void SubtractProductTransposed(const double* A, const double* B, int m, int n, int p, double* C) {
  if (m == 6 && n == 6 && p == 6) {  // free body against free body: unrolled by Eigen
    using Mat6 = Eigen::Matrix<double, 6, 6>;
    Eigen::Map<Mat6>(C).noalias() -=
        Eigen::Map<const Mat6>(A) * Eigen::Map<const Mat6>(B).transpose();
    return;
  }
  for (int j = 0; j < n; ++j) {
    double* c = C + static_cast<ptrdiff_t>(j) * m;
    for (int q = 0; q < p; ++q) {
      const double b = B[static_cast<ptrdiff_t>(q) * n + j];
      const double* a = A + static_cast<ptrdiff_t>(q) * m;
      for (int i = 0; i < m; ++i) c[i] -= a[i] * b;
    }
  }
}

// The kernels below take their block size as a template parameter: kRuntime reads the sizes
// from the arguments, 6 (every block involved a free body's, most blocks of a pile) lets the
// compiler unroll and vectorize. WithBlockSize picks one.
constexpr int kRuntime = 0;

template <int N>
constexpr int Size(int n) {
  return N == kRuntime ? n : N;
}

// kernel(std::integral_constant<int, 6>) if free_bodies, else kernel(…<int, kRuntime>).
template <typename Kernel>
void WithBlockSize(bool free_bodies, Kernel&& kernel) {
  if (free_bodies) {
    kernel(std::integral_constant<int, 6>());
  } else {
    kernel(std::integral_constant<int, kRuntime>());
  }
}

// In-place Cholesky of the lower triangle of the n × n block L (column-major). False at a pivot
// that is not positive (or not finite): H is not positive definite to working precision.
template <int N>
bool FactorDiagonalBlock(int n_runtime, double* L) {
  const int n = Size<N>(n_runtime);
  for (int j = 0; j < n; ++j) {
    double d = L[j * n + j];
    for (int q = 0; q < j; ++q) d -= L[q * n + j] * L[q * n + j];
    if (!(d > 0) || !std::isfinite(d)) return false;
    d = std::sqrt(d);
    L[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double s = L[j * n + i];
      for (int q = 0; q < j; ++q) s -= L[q * n + i] * L[q * n + j];
      L[j * n + i] = s / d;
    }
  }
  return true;
}

// X = B L⁻ᵀ in place for the m × n block B below the factored n × n diagonal block L.
template <int N>
void SolveBelowDiagonal(int n_runtime, const double* __restrict L, int m_runtime,
                        double* __restrict B) {
  const int n = Size<N>(n_runtime), m = Size<N>(m_runtime);
  for (int j = 0; j < n; ++j) {
    double* x = B + static_cast<ptrdiff_t>(j) * m;
    for (int q = 0; q < j; ++q) {
      const double l = L[q * n + j];
      const double* xq = B + static_cast<ptrdiff_t>(q) * m;
      for (int i = 0; i < m; ++i) x[i] -= xq[i] * l;
    }
    const double inverse = 1.0 / L[j * n + j];
    for (int i = 0; i < m; ++i) x[i] *= inverse;
  }
}

// y ← L⁻¹ y for the factored n × n diagonal block L.
template <int N>
void ForwardSubstitute(int n_runtime, const double* __restrict L, double* __restrict y) {
  const int n = Size<N>(n_runtime);
  for (int j = 0; j < n; ++j) {
    y[j] /= L[j * n + j];
    for (int i = j + 1; i < n; ++i) y[i] -= L[j * n + i] * y[j];
  }
}

// x ← L⁻ᵀ x for the factored n × n diagonal block L.
template <int N>
void BackSubstitute(int n_runtime, const double* __restrict L, double* __restrict x) {
  const int n = Size<N>(n_runtime);
  for (int j = n - 1; j >= 0; --j) {
    double s = x[j];
    for (int i = j + 1; i < n; ++i) s -= L[j * n + i] * x[i];
    x[j] = s / L[j * n + j];
  }
}

// y_i −= B y_k for the m × n block B (column-major); y_i and y_k are different trees' entries.
template <int N>
void SubtractProduct(int m_runtime, int n_runtime, const double* __restrict B,
                     const double* __restrict y_k, double* __restrict y_i) {
  const int m = Size<N>(m_runtime), n = Size<N>(n_runtime);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) y_i[i] -= B[j * m + i] * y_k[j];
  }
}

// x_k −= Bᵀ x_i for the m × n block B (column-major).
template <int N>
void SubtractTransposeProduct(int m_runtime, int n_runtime, const double* __restrict B,
                              const double* __restrict x_i, double* __restrict x_k) {
  const int m = Size<N>(m_runtime), n = Size<N>(n_runtime);
  for (int j = 0; j < n; ++j) {
    double sum = 0;
    for (int i = 0; i < m; ++i) sum += B[j * m + i] * x_i[i];
    x_k[j] -= sum;
  }
}

}  // namespace

bool BlockCholesky::UpdateAnalysis(const BlockSparseHessian& H) {
  if (analyzed_serial_ == H.pattern_serial()) return true;
  factored_ = false;
  std::vector<int> order;
  if (!TreeEliminationOrder(H, &order)) return false;
  const int num_trees = H.num_trees();
  std::vector<int> position(num_trees);
  columns_.assign(num_trees, Column());
  tree_start_.resize(num_trees);
  for (int k = 0; k < num_trees; ++k) {  // k: elimination position
    position[order[k]] = k;
    columns_[k].tree = order[k];
    columns_[k].nv = H.tree_nv(order[k]);
  }
  for (int t = 0; t < num_trees; ++t) tree_start_[t] = H.tree_start(t);
  SymbolicFactorization(H, position);
  PlanGatherAndUpdates(H, position);
  num_velocities_ = H.num_velocities();
  analyzed_serial_ = H.pattern_serial();
  ++num_analyses_;
  return true;
}

// The block pattern of L: column k's rows are its later neighbours in the tree–contact graph
// and, through the elimination tree, the rows of every column whose first row (its parent) is
// k — the fill of eliminating those trees (George & Liu's symbolic factorization on the
// quotient graph of trees).
void BlockCholesky::SymbolicFactorization(const BlockSparseHessian& H,
                                          const std::vector<int>& position) {
  const int n = static_cast<int>(columns_.size());
  std::vector<std::vector<int>> rows(n), children(n);
  for (int p = 0; p < H.num_off_diagonal_blocks(); ++p) {
    const auto [a, b] = H.off_diagonal_pair(p);
    rows[std::min(position[a], position[b])].push_back(std::max(position[a], position[b]));
  }
  std::vector<int> mark(n, -1);
  for (int k = 0; k < n; ++k) {
    std::vector<int>& r = rows[k];
    for (const int x : r) mark[x] = k;
    for (const int c : children[k]) {
      for (const int x : rows[c]) {
        if (x != k && mark[x] != k) {
          mark[x] = k;
          r.push_back(x);
        }
      }
    }
    std::sort(r.begin(), r.end());
    if (!r.empty()) children[r.front()].push_back(k);
  }
  blocks_.clear();
  int size = 0;
  flops_ = 0;
  for (int k = 0; k < n; ++k) {
    Column& c = columns_[k];
    c.diagonal = size;
    size += c.nv * c.nv;
    c.first_block = static_cast<int>(blocks_.size());
    for (const int x : rows[k]) {
      blocks_.push_back({x, size});
      size += columns_[x].nv * c.nv;
      flops_ += 0.5 * columns_[x].nv * c.nv * c.nv;
    }
    c.end_block = static_cast<int>(blocks_.size());
    flops_ += c.nv * c.nv * c.nv / 6.0;
  }
  values_.assign(size, 0.0);
}

void BlockCholesky::PlanGatherAndUpdates(const BlockSparseHessian& H,
                                         const std::vector<int>& position) {
  // Offset of L's block in column k at row column x (x > k): the symbolic factorization put
  // every coupled pair and every update target in the pattern.
  const auto block_index = [&](int k, int x) {
    const auto first = blocks_.begin() + columns_[k].first_block;
    const auto last = blocks_.begin() + columns_[k].end_block;
    const auto it =
        std::lower_bound(first, last, x, [](const Block& b, int r) { return b.row_column < r; });
    assert(it != last && it->row_column == x);
    return static_cast<int>(it - blocks_.begin());
  };
  const auto block_offset = [&](int k, int x) { return blocks_[block_index(k, x)].offset; };
  // Every diagonal block and every block of a coupled pair is overwritten by a gather; the rest,
  // fill, is zeroed before each factorization.
  gathers_.clear();
  for (int t = 0; t < H.num_trees(); ++t) {
    const Column& c = columns_[position[t]];
    gathers_.push_back({H.diagonal_offset(t), c.diagonal, c.nv, c.nv, false});
  }
  std::vector<bool> gathered(blocks_.size(), false);
  for (int p = 0; p < H.num_off_diagonal_blocks(); ++p) {
    const auto [a, b] = H.off_diagonal_pair(p);  // H stores H_ab, n_a × n_b
    const int k = std::min(position[a], position[b]), x = std::max(position[a], position[b]);
    const int index = block_index(k, x);
    gathered[index] = true;
    gathers_.push_back({H.off_diagonal_offset(p), blocks_[index].offset, columns_[x].nv,
                        columns_[k].nv, /*transpose=*/position[a] == k});
  }
  fill_blocks_.clear();
  for (int k = 0; k < static_cast<int>(columns_.size()); ++k) {
    for (int s = columns_[k].first_block; s < columns_[k].end_block; ++s) {
      if (gathered[s]) continue;
      const int size = columns_[blocks_[s].row_column].nv * columns_[k].nv;
      fill_blocks_.emplace_back(blocks_[s].offset, size);
    }
  }
  updates_.clear();
  for (int k = 0; k < static_cast<int>(columns_.size()); ++k) {
    Column& c = columns_[k];
    c.first_update = static_cast<int>(updates_.size());
    for (int s = c.first_block; s < c.end_block; ++s) {
      for (int r = c.first_block; r <= s; ++r) {  // row column i ≥ j
        const int i = blocks_[s].row_column, j = blocks_[r].row_column;
        const int target = i == j ? columns_[j].diagonal : block_offset(j, i);
        updates_.push_back(
            {blocks_[s].offset, blocks_[r].offset, target, columns_[i].nv, columns_[j].nv});
        flops_ += static_cast<double>(columns_[i].nv) * columns_[j].nv * c.nv;
      }
    }
    c.end_update = static_cast<int>(updates_.size());
  }
}

bool BlockCholesky::FactorColumn(const Column& c) {
  double* L_kk = values_.data() + c.diagonal;
  bool factored = false;
  WithBlockSize(c.nv == 6, [&](auto N) { factored = FactorDiagonalBlock<N>(c.nv, L_kk); });
  if (!factored) return false;
  for (int s = c.first_block; s < c.end_block; ++s) {
    const int m = columns_[blocks_[s].row_column].nv;
    double* B = values_.data() + blocks_[s].offset;
    WithBlockSize(c.nv == 6 && m == 6, [&](auto N) { SolveBelowDiagonal<N>(c.nv, L_kk, m, B); });
  }
  // Right-looking: the later columns receive this one's contribution now, so each column is
  // final when its turn comes.
  for (int u = c.first_update; u < c.end_update; ++u) {
    const Update& up = updates_[u];
    SubtractProductTransposed(values_.data() + up.ik, values_.data() + up.jk, up.nv_i, up.nv_j,
                              c.nv, values_.data() + up.target);
  }
  return true;
}

BlockCholesky::Status BlockCholesky::Factorize(const BlockSparseHessian& H) {
  factored_ = false;
  failed_tree_ = -1;
  if (!UpdateAnalysis(H)) return Status::kFailure;
  // Fill blocks start at zero; H's blocks are copied in (diagonal blocks whole: their lower
  // triangle is H's, and only that is read).
  for (const auto& [offset, size] : fill_blocks_) std::fill_n(values_.data() + offset, size, 0.0);
  const double* h = H.values().data();
  for (const Gather& g : gathers_) {
    double* target = values_.data() + g.target;
    const double* source = h + g.source;
    if (g.transpose) {  // source is cols × rows
      for (int j = 0; j < g.cols; ++j) {
        for (int i = 0; i < g.rows; ++i) target[j * g.rows + i] = source[i * g.cols + j];
      }
    } else {
      std::copy(source, source + static_cast<ptrdiff_t>(g.rows) * g.cols, target);
    }
  }
  for (const Column& c : columns_) {
    if (!FactorColumn(c)) {
      failed_tree_ = c.tree;
      return Status::kNotPositiveDefinite;
    }
  }
  factored_ = true;
  return Status::kSuccess;
}

bool BlockCholesky::Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) const {
  if (!factored_ || b.size() != num_velocities_) return false;
  if (x != &b) *x = b;
  double* y = x->data();
  // L y = b, column by column.
  for (const Column& c : columns_) {
    const int n = c.nv;
    const double* L = values_.data() + c.diagonal;
    double* y_k = y + tree_start_[c.tree];
    WithBlockSize(n == 6, [&](auto N) { ForwardSubstitute<N>(n, L, y_k); });
    for (int s = c.first_block; s < c.end_block; ++s) {
      const Column& row = columns_[blocks_[s].row_column];
      const double* B = values_.data() + blocks_[s].offset;
      double* y_i = y + tree_start_[row.tree];
      WithBlockSize(n == 6 && row.nv == 6,
                    [&](auto N) { SubtractProduct<N>(row.nv, n, B, y_k, y_i); });
    }
  }
  // Lᵀ x = y, backwards.
  for (auto c = columns_.rbegin(); c != columns_.rend(); ++c) {
    const int n = c->nv;
    const double* L = values_.data() + c->diagonal;
    double* x_k = y + tree_start_[c->tree];
    for (int s = c->first_block; s < c->end_block; ++s) {
      const Column& row = columns_[blocks_[s].row_column];
      const double* B = values_.data() + blocks_[s].offset;
      const double* x_i = y + tree_start_[row.tree];
      WithBlockSize(n == 6 && row.nv == 6,
                    [&](auto N) { SubtractTransposeProduct<N>(row.nv, n, B, x_i, x_k); });
    }
    WithBlockSize(n == 6, [&](auto N) { BackSubstitute<N>(n, L, x_k); });
  }
  return true;
}

}  // namespace contactlab
