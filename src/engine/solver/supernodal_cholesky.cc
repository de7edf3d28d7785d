#include "engine/solver/supernodal_cholesky.h"

#include <cholmod.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "engine/solver/serial_openmp.h"
#include "engine/solver/tree_ordering.h"

namespace contactlab {

// CHOLMOD's state, kept out of the header so that only the solver sees cholmod.h.
struct SupernodalCholesky::Cholmod {
  cholmod_common common;
  cholmod_sparse* A = nullptr;  // permuted lower (upper if simplicial) triangle, gathered in
                                // place
  cholmod_factor* L = nullptr;
  cholmod_dense* X = nullptr;  // cholmod_solve2 workspaces, reused across solves
  cholmod_dense* Y = nullptr;
  cholmod_dense* E = nullptr;
};
namespace {

// CHOLMOD reports through this hook (its own printing is off). Warnings such as "not positive
// definite" are handled and reported by the caller, so they are only debug-logged here.
void CholmodErrorHandler(int status, const char* file, int line, const char* message) {
  if (status < 0) {
    spdlog::error("CHOLMOD error {} ({}:{}): {}", status, file, line, message);
  } else {
    spdlog::debug("CHOLMOD warning {} ({}:{}): {}", status, file, line, message);
  }
}

}  // namespace

SupernodalCholesky::SupernodalCholesky(Method method) : c_(std::make_unique<Cholmod>()) {
  cholmod_start(&c_->common);
  c_->common.print = 0;
  c_->common.error_handler = &CholmodErrorHandler;
  c_->common.supernodal = method == Method::kSupernodal   ? CHOLMOD_SUPERNODAL
                          : method == Method::kSimplicial ? CHOLMOD_SIMPLICIAL
                                                          : CHOLMOD_AUTO;
  c_->common.supernodal_switch = kSupernodalSwitch;
  c_->common.final_ll = 1;  // a simplicial factor stays LLᵀ too (no LDLᵀ conversion)
  // The ordering is ours (tree-level AMD, see the header); a CHOLMOD postorder would turn the
  // natural ordering into CHOLMOD_POSTORDERED and bring back a copy per factorization.
  c_->common.nmethods = 1;
  c_->common.method[0].ordering = CHOLMOD_NATURAL;
  c_->common.postorder = 0;
  c_->common.final_asis = 1;  // keep the supernodal LLᵀ as computed
}

SupernodalCholesky::~SupernodalCholesky() {
  FreeFactorization();
  cholmod_finish(&c_->common);
}

void SupernodalCholesky::FreeFactorization() {
  cholmod_free_sparse(&c_->A, &c_->common);
  cholmod_free_factor(&c_->L, &c_->common);
  cholmod_free_dense(&c_->X, &c_->common);
  cholmod_free_dense(&c_->Y, &c_->common);
  cholmod_free_dense(&c_->E, &c_->common);
  analyzed_serial_ = 0;
  factored_ = false;
}

bool SupernodalCholesky::is_supernodal() const { return c_->L != nullptr && c_->L->is_super; }

bool SupernodalCholesky::factorizes_in_place() const {
  const cholmod_factor* L = c_->L;
  const cholmod_sparse* A = c_->A;
  return L != nullptr && L->ordering == CHOLMOD_NATURAL && A != nullptr &&
         (L->is_super ? A->stype < 0 : A->stype > 0);
}

int64_t SupernodalCholesky::factor_nonzeros() const {
  if (c_->L == nullptr) return 0;
  if (c_->L->is_super) return static_cast<int64_t>(c_->L->xsize);
  return static_cast<int64_t>(c_->L->nzmax);
}

// One algorithm in numbered steps (tree ordering, permuted pattern, CHOLMOD analysis, value
// map), kept whole: each step fills the arrays the next one reads.
bool SupernodalCholesky::Analyze(const BlockSparseHessian& H) {
  FreeFactorization();
  const int num_trees = H.num_trees();
  const int n = H.num_velocities();

  // 1. Tree-level fill-reducing ordering (engine/solver/tree_ordering.h).
  if (!TreeEliminationOrder(H, &tree_order_)) return false;
  const int num_pairs = H.num_off_diagonal_blocks();
  std::vector<int> position(num_trees);
  permuted_start_.resize(num_trees);
  tree_start_.resize(num_trees);
  tree_nv_.resize(num_trees);
  for (int t = 0; t < num_trees; ++t) {
    tree_start_[t] = H.tree_start(t);
    tree_nv_[t] = H.tree_nv(t);
  }
  for (int k = 0, row = 0; k < num_trees; ++k) {
    const int t = tree_order_[k];
    position[t] = k;
    permuted_start_[t] = row;
    row += H.tree_nv(t);
  }

  // 2. Per tree, its neighbours later in the elimination order with the block index.
  std::vector<std::vector<std::pair<int, int>>> later(num_trees);  // (neighbour, block)
  for (int k = 0; k < num_pairs; ++k) {
    const auto [a, b] = H.off_diagonal_pair(k);
    if (position[a] < position[b]) {
      later[a].emplace_back(b, k);
    } else {
      later[b].emplace_back(a, k);
    }
  }
  for (auto& list : later) {
    std::sort(list.begin(), list.end(),
              [&](const auto& x, const auto& y) { return position[x.first] < position[y.first]; });
  }

  // 3. Lower triangle of P H Pᵀ in CSC, rows sorted, with each entry's source in H.values().
  std::vector<int> col_ptr(n + 1, 0);
  std::vector<int> row_ind;
  value_source_.clear();
  int col = 0;
  for (int k = 0; k < num_trees; ++k) {
    const int t = tree_order_[k];
    const int nt = H.tree_nv(t);
    for (int c = 0; c < nt; ++c, ++col) {
      for (int r = c; r < nt; ++r) {  // diagonal block, lower part: H_tt(r, c)
        row_ind.push_back(permuted_start_[t] + r);
        value_source_.push_back(H.diagonal_offset(t) + c * nt + r);
      }
      for (const auto& [u, block] : later[t]) {  // H(u_r, t_c) for u after t
        const int nu = H.tree_nv(u);
        const bool u_first = H.off_diagonal_pair(block).first == u;  // block is n_u × n_t
        for (int r = 0; r < nu; ++r) {
          row_ind.push_back(permuted_start_[u] + r);
          value_source_.push_back(H.off_diagonal_offset(block) +
                                  (u_first ? c * nu + r : r * nt + c));
        }
      }
      col_ptr[col + 1] = static_cast<int>(row_ind.size());
    }
  }
  const size_t nnz = row_ind.size();
  c_->A = cholmod_allocate_sparse(n, n, nnz, /*sorted=*/1, /*packed=*/1, /*stype=*/-1, CHOLMOD_REAL,
                                  &c_->common);
  if (c_->A == nullptr) return false;
  std::copy(col_ptr.begin(), col_ptr.end(), static_cast<int*>(c_->A->p));
  std::copy(row_ind.begin(), row_ind.end(), static_cast<int*>(c_->A->i));
  std::fill_n(static_cast<double*>(c_->A->x), nnz, 0.0);

  // 4. Symbolic analysis (natural ordering of the permuted matrix); supernodal or simplicial
  // (kAuto: CHOLMOD compares flops / nnz(L) with supernodal_switch).
  c_->L = cholmod_analyze(c_->A, &c_->common);
  if (c_->L == nullptr || c_->common.status < CHOLMOD_OK) return false;
  ++num_analyses_;
  flops_per_nonzero_ = c_->common.lnz > 0 ? c_->common.fl / c_->common.lnz : 0;
  if (!c_->L->is_super) {
    // cholmod_factorize reads a lower-triangular A in place only for a supernodal factor; the
    // simplicial row-by-row factorization wants the upper triangle and would otherwise build
    // the transpose on every call. The pattern is symmetric: the upper triangle in CSC is the
    // lower one in CSR, so transpose the index arrays (and the value sources) once here.
    std::vector<int> upper_ptr(n + 1, 0), upper_ind(nnz), upper_source(nnz);
    for (size_t p = 0; p < nnz; ++p) ++upper_ptr[row_ind[p] + 1];
    for (int c = 0; c < n; ++c) upper_ptr[c + 1] += upper_ptr[c];
    std::vector<int> next(upper_ptr.begin(), upper_ptr.end() - 1);
    for (int c = 0; c < n; ++c) {  // columns in order: each upper column gets sorted rows
      for (int p = col_ptr[c]; p < col_ptr[c + 1]; ++p) {
        const int q = next[row_ind[p]]++;
        upper_ind[q] = c;
        upper_source[q] = value_source_[p];
      }
    }
    std::copy(upper_ptr.begin(), upper_ptr.end(), static_cast<int*>(c_->A->p));
    std::copy(upper_ind.begin(), upper_ind.end(), static_cast<int*>(c_->A->i));
    value_source_.swap(upper_source);
    c_->A->stype = 1;
  }
  analyzed_serial_ = H.pattern_serial();
  permuted_rhs_.resize(n);
  return true;
}

SupernodalCholesky::Status SupernodalCholesky::Factorize(const BlockSparseHessian& H) {
  factored_ = false;
  if (analyzed_serial_ != H.pattern_serial() && !Analyze(H)) {
    spdlog::error("SupernodalCholesky: symbolic analysis failed (CHOLMOD status {})",
                  c_->common.status);
    FreeFactorization();
    return Status::kFailure;
  }
  // Gather the block values into the kept matrix, in place.
  double* x = static_cast<double*>(c_->A->x);
  const double* values = H.values().data();
  for (size_t p = 0; p < value_source_.size(); ++p) x[p] = values[value_source_[p]];

  RunOpenMpRegionsSerially();
  const int ok = cholmod_factorize(c_->A, c_->L, &c_->common);
  if (c_->common.status == CHOLMOD_NOT_POSDEF) return Status::kNotPositiveDefinite;
  if (!ok || c_->common.status < CHOLMOD_OK) return Status::kFailure;
  factored_ = true;
  return Status::kSuccess;
}

bool SupernodalCholesky::Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) {
  const int n = static_cast<int>(permuted_rhs_.size());
  if (!factored_ || b.size() != n) return false;
  // CHOLMOD sees P H Pᵀ in its natural order; apply the tree permutation here.
  const int num_trees = static_cast<int>(tree_order_.size());
  for (int t = 0; t < num_trees; ++t) {
    permuted_rhs_.segment(permuted_start_[t], tree_nv_[t]) = b.segment(tree_start_[t], tree_nv_[t]);
  }
  // A header over our own storage: cholmod_solve2 only reads B.
  cholmod_dense B{};
  B.nrow = n;
  B.ncol = 1;
  B.nzmax = n;
  B.d = n;
  B.x = permuted_rhs_.data();
  B.z = nullptr;
  B.xtype = CHOLMOD_REAL;
  B.dtype = CHOLMOD_DOUBLE;
  const int ok =
      cholmod_solve2(CHOLMOD_A, c_->L, &B, nullptr, &c_->X, nullptr, &c_->Y, &c_->E, &c_->common);
  if (!ok || c_->common.status < CHOLMOD_OK) return false;
  if (x->size() != n) x->resize(n);
  const Eigen::Map<const Eigen::VectorXd> solution(static_cast<const double*>(c_->X->x), n);
  for (int t = 0; t < num_trees; ++t) {
    x->segment(tree_start_[t], tree_nv_[t]) = solution.segment(permuted_start_[t], tree_nv_[t]);
  }
  return true;
}

}  // namespace contactlab
