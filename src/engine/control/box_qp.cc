#include "engine/control/box_qp.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace contactlab {

namespace {
constexpr std::int8_t kFree = 0;
constexpr std::int8_t kLower = -1;
constexpr std::int8_t kUpper = 1;
}  // namespace

BoxQpSolver::BoxQpSolver(int n, BoxQpOptions options) : options_(options) { Resize(n); }

void BoxQpSolver::Resize(int n) {
  if (n < 0) throw std::invalid_argument("BoxQpSolver::Resize: n must be >= 0");
  n_ = n;
  chol_.setZero(n, n);
  rhs_.setZero(n);
  multipliers_.setZero(n);
  free_.clear();
  free_.reserve(n);
  state_.assign(n, kFree);
}

bool BoxQpSolver::FactorAndSolveFree(const Eigen::Ref<const Eigen::MatrixXd>& H, int nf) {
  // Plain Cholesky–Crout on the gathered free block: n ≤ ~10, so a hand-written loop over the
  // preallocated buffer is both allocation-free and faster than a general factorization.
  for (int j = 0; j < nf; ++j) {
    double d = H(free_[j], free_[j]);
    for (int k = 0; k < j; ++k) d -= chol_(j, k) * chol_(j, k);
    // Relative pivot test: a pivot that lost all its digits means H_FF is (numerically)
    // singular and the "solution" would be garbage.
    if (!(d > 1e-14 * std::abs(H(free_[j], free_[j])))) return false;
    const double ljj = std::sqrt(d);
    chol_(j, j) = ljj;
    for (int i = j + 1; i < nf; ++i) {
      double s = H(free_[i], free_[j]);
      for (int k = 0; k < j; ++k) s -= chol_(i, k) * chol_(j, k);
      chol_(i, j) = s / ljj;
    }
  }
  // L y = rhs, then Lᵀ x = y, in place in rhs_.
  for (int i = 0; i < nf; ++i) {
    double s = rhs_[i];
    for (int k = 0; k < i; ++k) s -= chol_(i, k) * rhs_[k];
    rhs_[i] = s / chol_(i, i);
  }
  for (int i = nf - 1; i >= 0; --i) {
    double s = rhs_[i];
    for (int k = i + 1; k < nf; ++k) s -= chol_(k, i) * rhs_[k];
    rhs_[i] = s / chol_(i, i);
  }
  return true;
}

// One algorithm, kept whole: the primal active-set iteration (solve on the free set, step to the
// first bound, free the bound with the wrong multiplier sign) shares its sets and factor.
BoxQpResult BoxQpSolver::Solve(const Eigen::Ref<const Eigen::MatrixXd>& H,
                               const Eigen::Ref<const Eigen::VectorXd>& g,
                               const Eigen::Ref<const Eigen::VectorXd>& l,
                               const Eigen::Ref<const Eigen::VectorXd>& u,
                               Eigen::Ref<Eigen::VectorXd> x, bool warm_start) {
  const int n = n_;
  if (H.rows() != n || H.cols() != n || g.size() != n || l.size() != n || u.size() != n ||
      x.size() != n) {
    throw std::invalid_argument("BoxQpSolver::Solve: sizes do not match Resize(" +
                                std::to_string(n) + ")");
  }
  BoxQpResult result;
  for (int i = 0; i < n; ++i) {
    // Written so that NaN bounds fail too.
    if (!(l[i] <= u[i]) || std::isnan(g[i])) return result;  // kInvalidBounds
  }
  if (n == 0) {
    result.status = BoxQpStatus::kSolved;
    return result;
  }

  // Start: clamp the guess into the box; variables on a bound begin in the working set. A
  // guess on a bound whose multiplier turns out wrong is released by the first check, so any
  // start is correct; a good one (the previous control step) skips most iterations.
  for (int i = 0; i < n; ++i) {
    const double xi = warm_start ? x[i] : 0.0;
    if (xi <= l[i]) {
      x[i] = l[i];
      state_[i] = kLower;
    } else if (xi >= u[i]) {
      x[i] = u[i];
      state_[i] = kUpper;
    } else {
      x[i] = xi;
      state_[i] = kFree;
    }
  }

  const double h_max = H.cwiseAbs().maxCoeff();
  const double g_max = g.cwiseAbs().maxCoeff();
  const int max_iterations = options_.max_iterations > 0 ? options_.max_iterations : 10 * n + 20;

  result.status = BoxQpStatus::kMaxIterations;  // unless a break below says otherwise
  while (result.iterations < max_iterations) {
    ++result.iterations;
    free_.clear();
    for (int i = 0; i < n; ++i) {
      if (state_[i] == kFree) free_.push_back(i);
    }
    const int nf = static_cast<int>(free_.size());

    if (nf > 0) {
      // Subspace minimizer: H_FF x_F = −(g_F + H_FA x_A).
      for (int a = 0; a < nf; ++a) {
        const int i = free_[a];
        double s = -g[i];
        for (int j = 0; j < n; ++j) {
          if (state_[j] != kFree) s -= H(i, j) * x[j];
        }
        rhs_[a] = s;
      }
      if (!FactorAndSolveFree(H, nf)) {
        result.status = BoxQpStatus::kNotPositiveDefinite;
        break;
      }
      // Step from the (feasible) iterate toward the subspace minimizer, stopping at the first
      // bound in the way. α is the largest step keeping every free variable in its box.
      double alpha = 1.0;
      int blocking = -1;
      std::int8_t blocking_side = kFree;
      for (int a = 0; a < nf; ++a) {
        const int i = free_[a];
        const double p = rhs_[a] - x[i];
        if (p < 0.0 && rhs_[a] < l[i]) {
          const double t = (l[i] - x[i]) / p;
          if (t < alpha) {
            alpha = t;
            blocking = i;
            blocking_side = kLower;
          }
        } else if (p > 0.0 && rhs_[a] > u[i]) {
          const double t = (u[i] - x[i]) / p;
          if (t < alpha) {
            alpha = t;
            blocking = i;
            blocking_side = kUpper;
          }
        }
      }
      alpha = std::max(alpha, 0.0);
      for (int a = 0; a < nf; ++a) {
        const int i = free_[a];
        x[i] = blocking < 0 ? rhs_[a] : x[i] + alpha * (rhs_[a] - x[i]);
        // Rounding of the step must never leave the box: feasibility is a hard guarantee.
        x[i] = std::clamp(x[i], l[i], u[i]);
      }
      if (blocking >= 0) {
        x[blocking] = blocking_side == kLower ? l[blocking] : u[blocking];
        state_[blocking] = blocking_side;
        continue;
      }
    }

    // x minimizes over the working set; check the multipliers of the held variables.
    const double tol =
        options_.multiplier_tolerance * (g_max + h_max * x.cwiseAbs().maxCoeff() * n) + 1e-300;
    int release = -1;
    double worst = tol;
    for (int i = 0; i < n; ++i) {
      if (state_[i] == kFree || l[i] == u[i]) continue;  // a fixed variable is never released
      const double r = H.row(i).dot(x) + g[i];
      // At the lower bound the objective must not decrease when x_i increases (r ≥ 0), at the
      // upper bound when it decreases (r ≤ 0).
      const double violation = state_[i] == kLower ? -r : r;
      if (violation > worst) {
        worst = violation;
        release = i;
      }
    }
    if (release < 0) {
      result.status = BoxQpStatus::kSolved;
      break;
    }
    state_[release] = kFree;
  }

  result.num_active = 0;
  for (int i = 0; i < n; ++i) {
    if (state_[i] == kFree) {
      multipliers_[i] = 0.0;
    } else {
      multipliers_[i] = H.row(i).dot(x) + g[i];
      ++result.num_active;
    }
  }
  return result;
}

}  // namespace contactlab
