#include "engine/solver/convex_solver.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "engine/solver/block_cholesky.h"
#include "engine/solver/block_sparse_hessian.h"
#include "engine/solver/constraint_islands.h"
#include "engine/solver/parallel_for.h"
#include "engine/solver/supernodal_cholesky.h"

namespace contactlab {
namespace {

// Resizes only when the size differs, so a warmed-up workspace never reallocates.
void EnsureSize(Eigen::VectorXd* x, Eigen::Index n) {
  if (x->size() != n) x->resize(n);
}

// Row-sized buffers only grow (doubling): their head is used.
void EnsureCapacity(Eigen::VectorXd* x, Eigen::Index n) {
  if (x->size() < n) x->resize(std::max(n, 2 * x->size()));
}

// Multiple of ε·Σ|terms| below which dℓ/dα is rounding noise in the line search.
constexpr double kRoundoffFactor = 64;

}  // namespace

struct ConvexSolver::Workspace {
  Eigen::VectorXd D;            // diag(A)^(−½), the scaling of the stopping criterion (§4)
  Eigen::VectorXd r;            // v − v*
  Eigen::VectorXd Ar;           // A (v − v*)
  Eigen::VectorXd JT_gamma;     // Jᵀ γ
  Eigen::VectorXd gradient;     // ∇ℓ = A (v − v*) − Jᵀ γ
  Eigen::VectorXd dv;           // Newton direction Δv
  Eigen::VectorXd A_dv;         // A Δv
  Eigen::VectorXd dvc;          // Δv_c = J Δv
  Eigen::VectorXd vc_alpha;     // v_c + α Δv_c
  Eigen::VectorXd gamma_alpha;  // γ(α)
  // The constraints the line search evaluates: all but those that vanish along the line.
  std::vector<int> line_constraints;
  // Regime prediction (§4.1): the predicted constraints' impulses (then their change from γ),
  // Jᵀγ of the model and the step it gives.
  Eigen::VectorXd gamma_model, JT_gamma_model, dv_model;
  // Line-search terms of the quadratic part: ℓ_A(α) = ℓ_A0 + α a0 + ½ α² a1 (§4).
  double ell_A0 = 0, a0 = 0, a1 = 0;

  // Constraint Hessians G_i, pre-sized matrices pooled by size so that a change in the order
  // of constraints of different sizes reuses them; G[i] points into the pool.
  std::vector<std::vector<Eigen::MatrixXd>> G_pool;
  std::vector<int> G_count;
  std::vector<Eigen::MatrixXd*> G;
  // The predicted models' Hessians (a second pool like G's) and, per constraint, the Hessian the
  // predicted step uses: its model's if it predicts a regime, G[i] otherwise.
  std::vector<std::vector<Eigen::MatrixXd>> G_predicted_pool;
  std::vector<Eigen::MatrixXd*> G_predicted;  // a predicted regime's G, then its change from G

  BlockSparseHessian hessian;
  // Islands (§4.2) and, per island, its problem, solver and velocities, reused step to step.
  ConstraintIslands islands;
  std::vector<ConvexProblem> island_problems;
  std::vector<std::unique_ptr<ConvexSolver>> island_solvers;
  std::vector<Eigen::VectorXd> island_v;
  std::vector<int> island_iterations;
  std::vector<std::vector<double>> island_cost_histories;  // only when recording
  std::vector<ConvexSolverStats> island_stats;
  // The islands largest first (a second thread then finishes the small ones while the first
  // works through the large), and the threads that share them when it pays.
  std::vector<int> island_order;
  std::vector<int> island_size;
  std::unique_ptr<ParallelFor> team;
  std::vector<ConstraintIslands::ExtractScratch> extract_scratch;  // per thread
  Eigen::MatrixXd H_dense;
  Eigen::LLT<Eigen::MatrixXd> llt;
  BlockCholesky block_cholesky;
  SupernodalCholesky cholesky;
};

// What one Newton iteration of SolveConnected hands the next.
struct ConvexSolver::NewtonIterate {
  double ell = 0;        // ℓ at v
  double ell_alpha = 0;  // ℓ(α) at the line search's last evaluation
  // The stopping test's history (§4, cost stagnation): ‖D ∇ℓ‖ at the previous iterate, and
  // whether the last step lowered ℓ by no more than its round-off.
  double previous_residual = std::numeric_limits<double>::infinity();
  bool stagnated = false;
  // Regime prediction (§4.1): still on for this solve, and whether this iteration's Δv is a
  // predicted step.
  bool predicting = true;
  bool predicted = false;
};

ConvexSolver::ConvexSolver() : ws_(std::make_unique<Workspace>()) {}
ConvexSolver::~ConvexSolver() = default;

int ConvexSolver::num_block_cholesky_analyses() const { return ws_->block_cholesky.num_analyses(); }
int ConvexSolver::num_supernodal_analyses() const { return ws_->cholesky.num_analyses(); }

void ConvexSolver::PrepareEvaluation(const ConvexProblem& problem) {
  Workspace& ws = *ws_;
  const int nv = problem.num_velocities();
  for (Eigen::VectorXd* x : {&ws.D, &ws.r, &ws.Ar, &ws.JT_gamma, &ws.gradient}) EnsureSize(x, nv);
  num_rows_ = problem.num_constraint_rows();
  EnsureCapacity(&gamma_, num_rows_);
  EnsureCapacity(&vc_, num_rows_);
  for (int t = 0; t < problem.num_trees(); ++t) {
    ws.D.segment(problem.tree_start(t), problem.tree_nv(t)) =
        problem.tree_A(t).diagonal().cwiseSqrt().cwiseInverse();
  }
}

void ConvexSolver::Prepare(const ConvexProblem& problem) {
  Workspace& ws = *ws_;
  PrepareEvaluation(problem);
  const int nv = problem.num_velocities();
  const int nrows = problem.num_constraint_rows();
  for (Eigen::VectorXd* x : {&ws.dv, &ws.A_dv, &ws.JT_gamma_model, &ws.dv_model}) {
    EnsureSize(x, nv);
  }
  for (Eigen::VectorXd* x : {&ws.dvc, &ws.vc_alpha, &ws.gamma_alpha, &ws.gamma_model}) {
    EnsureCapacity(x, nrows);
  }

  // Pool of G_i by size.
  int max_rows = 0;
  for (int i = 0; i < problem.num_constraints(); ++i) {
    max_rows = std::max(max_rows, problem.entry(i).num_rows);
  }
  ws.G_count.assign(max_rows + 1, 0);
  for (int i = 0; i < problem.num_constraints(); ++i) ++ws.G_count[problem.entry(i).num_rows];
  for (auto* pool : {&ws.G_pool, &ws.G_predicted_pool}) {
    if (static_cast<int>(pool->size()) < max_rows + 1) pool->resize(max_rows + 1);
    for (int s = 0; s <= max_rows; ++s) {
      if (static_cast<int>((*pool)[s].size()) < ws.G_count[s]) {
        (*pool)[s].resize(ws.G_count[s], Eigen::MatrixXd::Zero(s, s));
      }
    }
  }
  std::fill(ws.G_count.begin(), ws.G_count.end(), 0);
  ws.G.resize(problem.num_constraints());
  ws.G_predicted.resize(problem.num_constraints());
  for (int i = 0; i < problem.num_constraints(); ++i) {
    const int s = problem.entry(i).num_rows;
    ws.G[i] = &ws.G_pool[s][ws.G_count[s]];
    ws.G_predicted[i] = &ws.G_predicted_pool[s][ws.G_count[s]++];
  }

  ws.line_constraints.reserve(problem.num_constraints());
  ws.hessian.UpdatePattern(problem);
}

double ConvexSolver::EvaluateAt(const ConvexProblem& problem, const Eigen::VectorXd& v,
                                bool with_hessian) {
  Workspace& ws = *ws_;
  const int nrows = problem.num_constraint_rows();
  ws.r.noalias() = v - problem.free_motion_velocity();
  problem.MultiplyA(ws.r, &ws.Ar);
  problem.MultiplyJ(v, vc_.head(nrows));
  vc_.head(nrows) += problem.bias().head(nrows);
  double ell = 0.5 * ws.r.dot(ws.Ar);
  for (int i = 0; i < problem.num_constraints(); ++i) {
    const auto& e = problem.entry(i);
    Eigen::MatrixXd* G = with_hessian ? ws.G[i] : nullptr;
    ell += e.constraint->Evaluate(vc_.segment(e.row_start, e.num_rows),
                                  gamma_.segment(e.row_start, e.num_rows), G);
  }
  problem.MultiplyJTranspose(gamma_, &ws.JT_gamma);
  ws.gradient.noalias() = ws.Ar - ws.JT_gamma;
  return ell;
}

double ConvexSolver::AcceptLineSearchPoint(const ConvexProblem& problem, const Eigen::VectorXd& v,
                                           double ell_alpha) {
  // The line search's last evaluation was at the accepted α: γ(α), G_i(α) and v_c + α Δv_c
  // are the constraint state at v = v_old + α Δv, so only the O(n_v) terms are recomputed —
  // this saves a pass over the constraints and a product with J per Newton iteration.
  Workspace& ws = *ws_;
  ws.r.noalias() = v - problem.free_motion_velocity();
  problem.MultiplyA(ws.r, &ws.Ar);
  vc_.swap(ws.vc_alpha);
  gamma_.swap(ws.gamma_alpha);
  problem.MultiplyJTranspose(gamma_, &ws.JT_gamma);
  ws.gradient.noalias() = ws.Ar - ws.JT_gamma;
  return ell_alpha;
}

double ConvexSolver::EvaluateAlongLine(const ConvexProblem& problem, double alpha, double* dell,
                                       double* d2ell, double* dell_roundoff) {
  // O(n_c) per evaluation: the quadratic part uses the precomputed a0 = Δvᵀ A (v − v*) and
  // a1 = Δvᵀ A Δv, the constraints only need v_c + α Δv_c (docs/contact-model.md §4).
  Workspace& ws = *ws_;
  const int nrows = problem.num_constraint_rows();
  ws.vc_alpha.head(nrows).noalias() = vc_.head(nrows) + alpha * ws.dvc.head(nrows);
  double ell = ws.ell_A0 + alpha * ws.a0 + 0.5 * alpha * alpha * ws.a1;
  double d1 = ws.a0 + alpha * ws.a1;
  double d2 = ws.a1;
  double d1_magnitude = std::abs(ws.a0) + alpha * std::abs(ws.a1);
  for (const int i : ws.line_constraints) {
    const auto& e = problem.entry(i);
    const Eigen::MatrixXd& G = *ws.G[i];
    ell += e.constraint->Evaluate(ws.vc_alpha.segment(e.row_start, e.num_rows),
                                  ws.gamma_alpha.segment(e.row_start, e.num_rows), ws.G[i]);
    const double* dvc = ws.dvc.data() + e.row_start;
    const double* gamma = ws.gamma_alpha.data() + e.row_start;
    // Δv_cᵀ G Δv_c and γᵀ Δv_c summed per constraint in registers: summed straight into d1 and
    // d2, the loop is bound by the latency of one long chain of dependent additions.
    double curvature = 0, power = 0, power_magnitude = 0;
    for (int k = 0; k < e.num_rows; ++k) {
      const double term = gamma[k] * dvc[k];
      power += term;
      power_magnitude += std::abs(term);
      double G_dvc = 0;
      for (int j = 0; j < e.num_rows; ++j) G_dvc += G(j, k) * dvc[j];
      curvature += G_dvc * dvc[k];
    }
    d1 -= power;
    d1_magnitude += power_magnitude;
    d2 += curvature;
  }
  *dell = d1;
  *d2ell = d2;
  // dℓ/dα is a sum of terms that cancel at the minimizer: it cannot be resolved below the
  // round-off of their magnitudes.
  *dell_roundoff = kRoundoffFactor * std::numeric_limits<double>::epsilon() * d1_magnitude;
  return ell;
}

void ConvexSolver::SelectLineConstraints(const ConvexProblem& problem) {
  // A constraint that vanishes along the whole line adds nothing to ℓ(α) or its derivatives, and
  // its γ(α) and G_i(α) — the state AcceptLineSearchPoint keeps — are zero wherever α lands.
  Workspace& ws = *ws_;
  ws.line_constraints.clear();
  for (int i = 0; i < problem.num_constraints(); ++i) {
    const auto& e = problem.entry(i);
    if (e.constraint->VanishesAlong(vc_.segment(e.row_start, e.num_rows),
                                    ws.dvc.segment(e.row_start, e.num_rows), params_.max_step)) {
      ws.gamma_alpha.segment(e.row_start, e.num_rows).setZero();
      ws.G[i]->setZero();
    } else {
      ws.line_constraints.push_back(i);
    }
  }
}

double ConvexSolver::LineSearch(const ConvexProblem& problem, double ell0, double* ell_alpha,
                                int* num_evaluations) {
  // ℓ(α) is convex, so its minimizer on (0, α_max] is the root of dℓ/dα if dℓ/dα changes sign
  // there, α_max otherwise. Root search: Newton–Raphson safeguarded by bisection (rtsafe),
  // keeping a bracket [lo, hi] with dℓ/dα(lo) < 0 < dℓ/dα(hi). Returns NaN (and *ell_alpha =
  // NaN) if a constraint evaluated to NaN/inf on the way.
  Workspace& ws = *ws_;
  *num_evaluations = 0;
  *ell_alpha = ell0;
  const double f0 = ws.gradient.dot(ws.dv);  // dℓ/dα(0) = −∇ℓᵀ H⁻¹ ∇ℓ < 0
  if (!(f0 < 0)) return 0;  // not a descent direction: ∇ℓ is at round-off level
  SelectLineConstraints(problem);
  const double alpha_max = params_.max_step;
  const double tolerance = params_.line_search_tolerance * -f0;
  double f = 0, df = 0;
  // Converged when |dℓ/dα| is below the relative tolerance or at its round-off level (where
  // further Newton steps only chase rounding noise).
  double f_tolerance = tolerance;
  const auto evaluate = [&](double a) {
    double f_roundoff = 0;
    const double ell = EvaluateAlongLine(problem, a, &f, &df, &f_roundoff);
    f_tolerance = std::max(tolerance, f_roundoff);
    ++*num_evaluations;
    *ell_alpha = ell;
    return std::isfinite(ell) && std::isfinite(f) && std::isfinite(df);
  };
  // The full Newton step is exact for a quadratic ℓ and close to the minimizer near
  // convergence: try it first, α_max only when ℓ still descends there. Every return leaves
  // the workspace (γ(α), G_i(α)) evaluated at the returned α, which Solve reuses.
  double alpha = std::min(1.0, alpha_max);
  if (!evaluate(alpha)) return std::numeric_limits<double>::quiet_NaN();
  if (std::abs(f) <= f_tolerance) return alpha;
  double lo = 0;
  // Newton's next step starts from the evaluated point nearest the root.
  double base_alpha = alpha, base_f = f, base_df = df;
  if (f < 0) {
    if (alpha == alpha_max) return alpha;
    lo = alpha;
    alpha = alpha_max;
    if (!evaluate(alpha)) return std::numeric_limits<double>::quiet_NaN();
    if (f <= f_tolerance) return alpha;  // still descending at α_max: take the longest step
    if (std::abs(f) < std::abs(base_f)) base_alpha = alpha, base_f = f, base_df = df;
  }
  double hi = alpha;
  // Root search on [lo, hi] with dℓ/dα(lo) < 0 < dℓ/dα(hi): Newton–Raphson safeguarded by
  // bisection (rtsafe).
  double dx = hi - lo, dx_old = dx;
  for (;;) {
    if (*num_evaluations >= params_.max_line_search_iterations) break;
    if (hi - lo <= 4 * std::numeric_limits<double>::epsilon() * hi) break;
    const double newton = base_alpha - base_f / base_df;
    // Bisect when Newton leaves the bracket or does not halve the step (kinks in ℓ_i'').
    if (base_df > 0 && newton > lo && newton < hi &&
        std::abs(2 * base_f) <= std::abs(dx_old * base_df)) {
      dx_old = dx;
      dx = base_f / base_df;
      alpha = newton;
    } else {
      dx_old = dx;
      dx = 0.5 * (hi - lo);
      alpha = lo + dx;
    }
    if (!evaluate(alpha)) return std::numeric_limits<double>::quiet_NaN();
    if (std::abs(f) <= f_tolerance) break;
    base_alpha = alpha, base_f = f, base_df = df;
    if (f < 0) {
      lo = alpha;
    } else {
      hi = alpha;
    }
  }
  return alpha;
}

LinearSolverType ConvexSolver::ChooseFactorization() {
  if (params_.linear_solver != LinearSolverType::kAuto) return params_.linear_solver;
  BlockCholesky& block = ws_->block_cholesky;
  const bool dense_fronts =
      !block.UpdateAnalysis(ws_->hessian) ||
      block.flops_per_factor_nonzero() >= params_.block_cholesky_max_flops_per_nonzero;
  return dense_fronts ? LinearSolverType::kSupernodal : LinearSolverType::kBlockSparse;
}

bool ConvexSolver::FactorAndSolve(LinearSolverType factorization, Eigen::VectorXd* x) {
  return Factor(factorization) && SolveFactored(factorization, x);
}

bool ConvexSolver::Factor(LinearSolverType factorization) {
  Workspace& ws = *ws_;
  switch (factorization) {
    case LinearSolverType::kBlockSparse:
      return ws.block_cholesky.Factorize(ws.hessian) == BlockCholesky::Status::kSuccess;
    case LinearSolverType::kSupernodal:
      return ws.cholesky.Factorize(ws.hessian) == SupernodalCholesky::Status::kSuccess;
    default:
      ws.hessian.ToDense(&ws.H_dense);
      ws.llt.compute(ws.H_dense);
      return ws.llt.info() == Eigen::Success;
  }
}

bool ConvexSolver::SolveFactored(LinearSolverType factorization, Eigen::VectorXd* x) {
  Workspace& ws = *ws_;
  bool solved = true;
  switch (factorization) {
    case LinearSolverType::kBlockSparse:
      solved = ws.block_cholesky.Solve(*x, x);
      break;
    case LinearSolverType::kSupernodal:
      solved = ws.cholesky.Solve(*x, x);
      break;
    default:
      ws.llt.solveInPlace(*x);
  }
  return solved && x->allFinite();
}

bool ConvexSolver::PredictRegimes(const ConvexProblem& problem, LinearSolverType factorization) {
  // docs/contact-model.md §4.1: the step of the quadratic model in which every constraint that
  // the exact step carries into another regime (a kink of ℓ_i) has that regime's model. Any
  // SPD model gives a direction; it is taken only if it descends ℓ, and the exact line search
  // on ℓ itself keeps the method convergent. The models only change the path, not the solution.
  Workspace& ws = *ws_;
  // The model's Hessian is this iteration's H plus, for each predicted constraint, Jᵀ(G_model −
  // G)J: a few constraints' terms instead of assembling all of them again.
  problem.MultiplyJ(ws.dv, ws.dvc.head(problem.num_constraint_rows()));
  bool predicted = false;
  for (int i = 0; i < problem.num_constraints(); ++i) {
    const auto& e = problem.entry(i);
    auto gamma_model = ws.gamma_model.segment(e.row_start, e.num_rows);
    if (!e.constraint->PredictRegime(vc_.segment(e.row_start, e.num_rows),
                                     ws.dvc.segment(e.row_start, e.num_rows), gamma_model,
                                     ws.G_predicted[i])) {
      continue;
    }
    if (!predicted) ws.JT_gamma_model = ws.JT_gamma;
    predicted = true;
    *ws.G_predicted[i] -= *ws.G[i];
    ws.hessian.AddConstraint(problem, i, *ws.G_predicted[i]);
    // Jᵀγ of the model: this iteration's Jᵀγ with the predicted constraints' impulses changed.
    gamma_model -= gamma_.segment(e.row_start, e.num_rows);
    for (int c = 0; c < e.num_cliques; ++c) {
      const int t = e.tree[c];
      ws.JT_gamma_model.segment(problem.tree_start(t), problem.tree_nv(t)).noalias() +=
          problem.jacobian(i, c).transpose().lazyProduct(gamma_model);
    }
  }
  if (!predicted) return false;
  ws.dv_model.noalias() = ws.JT_gamma_model - ws.Ar;  // −∇ℓ of the model
  if (!FactorAndSolve(factorization, &ws.dv_model)) return false;
  if (!(ws.gradient.dot(ws.dv_model) < 0)) return false;
  ws.dv.swap(ws.dv_model);
  return true;
}

void ConvexSolver::ZeroOutputs(const ConvexProblem& problem) {
  num_rows_ = problem.num_constraint_rows();
  EnsureCapacity(&gamma_, num_rows_);
  EnsureCapacity(&vc_, num_rows_);
  gamma_.head(num_rows_).setZero();
  vc_.head(num_rows_).setZero();
}

ConvexSolverStats ConvexSolver::Solve(const ConvexProblem& problem, Eigen::VectorXd* v) {
  hessian_factored_.reset();
  ConvexSolverStats stats;
  stats.num_constraints = problem.num_constraints();
  stats.num_constraint_rows = problem.num_constraint_rows();
  const int nv = problem.num_velocities();
  if (problem.num_unset_constraints() > 0) {
    throw std::logic_error("ConvexSolver::Solve: a constraint was added without being set");
  }
  // Invalid input is reported, never solved; the outputs are then zero impulses of the
  // problem's size, so that nothing downstream reads a stale or unsized vector.
  const bool v_ok = v->size() != nv || v->allFinite();
  if (!v_ok || !problem.AllFinite()) {
    stats.invalid_input = true;
    ZeroOutputs(problem);
    spdlog::debug("ConvexSolver: NaN or inf in the {}; not solved",
                  v_ok ? "problem data" : "warm-start velocity");
    return stats;
  }
  if (v->size() != nv) *v = problem.free_motion_velocity();
  PrepareEvaluation(problem);
  if (!ws_->D.allFinite()) {  // diag(A) must be positive for A to be SPD (§2)
    stats.invalid_input = true;
    ZeroOutputs(problem);
    spdlog::debug("ConvexSolver: A has a non-positive diagonal entry; not solved");
    return stats;
  }
  bool split = false;
  if (params_.solve_islands_separately) {
    ws_->islands.Compute(problem);
    split = ws_->islands.num_islands() > 1;
  }
  if (split) {
    SolveIslands(problem, v, &stats);
  } else {
    SolveConnected(problem, v, &stats);
  }
  if (!stats.converged && !stats.constraint_non_finite) {  // non-finite: the caller's failure
    const char* reason = stats.factorization_failed ? "H not positive definite" : "iteration limit";
    spdlog::warn(
        "ConvexSolver: not converged ({}) after {} iterations: residual {:.3e} > tolerance "
        "{:.3e}, n_v = {}, {} constraints",
        reason, stats.iterations, stats.residual, stats.tolerance, nv, stats.num_constraints);
  }
  return stats;
}

// Newton's method with exact line search (docs/contact-model.md §4), in the stages of Drake's
// SapSolver: the stopping test at v, the search direction, the step length, the update.
void ConvexSolver::SolveConnected(const ConvexProblem& problem, Eigen::VectorXd* v,
                                  ConvexSolverStats* stats_out) {
  ConvexSolverStats& stats = *stats_out;
  if (record_cost_history_) stats.cost_history.reserve(params_.max_iterations + 1);
  Prepare(problem);
  const LinearSolverType factorization = ChooseFactorization();
  stats.linear_solver_used = factorization;
  NewtonIterate iterate;
  iterate.ell = EvaluateAt(problem, *v, /*with_hessian=*/true);
  iterate.predicting = params_.predict_regimes;
  for (;;) {
    // Stopping test at v: ‖D ∇ℓ‖ within its tolerance, or stagnated (§4); iteration limit.
    if (ShouldStop(&iterate, &stats) || stats.iterations >= params_.max_iterations) break;
    // Search direction: H Δv = −∇ℓ (§4), or the step of the regimes it enters (§4.1).
    if (!CalcSearchDirection(problem, factorization, &iterate, &stats)) break;
    // Step length: α = argmin ℓ(v + αΔv) over (0, α_max], a root of dℓ/dα (§4).
    const double alpha = CalcStepLength(problem, &iterate, &stats);
    if (!std::isfinite(alpha)) {  // a constraint returned NaN/inf: keep the last finite v
      stats.constraint_non_finite = true;
      break;
    }
    // Update: v ← v + αΔv, with γ(α) and G_i(α) of the line search's last evaluation.
    UpdateIterate(problem, alpha, &iterate, v);
  }
}

void ConvexSolver::CalcStoppingCriteriaResidual(ConvexSolverStats* stats) const {
  // §4: ‖D ∇ℓ‖ against ε_abs + ε_rel · max(‖D A (v − v*)‖, ‖D Jᵀγ‖), the two sides of the
  // momentum balance ∇ℓ = A (v − v*) − Jᵀγ (see convex_solver.h).
  const Workspace& ws = *ws_;
  stats->residual = ws.D.cwiseProduct(ws.gradient).norm();
  stats->momentum_norm = ws.D.cwiseProduct(ws.Ar).norm();
  stats->impulse_norm = ws.D.cwiseProduct(ws.JT_gamma).norm();
  stats->tolerance = StoppingTolerance(stats->momentum_norm, stats->impulse_norm);
}

double ConvexSolver::StoppingTolerance(double momentum_norm, double impulse_norm) const {
  return params_.absolute_tolerance +
         params_.relative_tolerance * std::max(momentum_norm, impulse_norm);
}

bool ConvexSolver::ShouldStop(NewtonIterate* iterate, ConvexSolverStats* stats) const {
  stats->cost = iterate->ell;
  CalcStoppingCriteriaResidual(stats);
  if (record_cost_history_) stats->cost_history.push_back(iterate->ell);
  if (!std::isfinite(iterate->ell) || !std::isfinite(stats->residual)) {
    stats->constraint_non_finite = true;
    return true;
  }
  if (stats->residual <= stats->tolerance) {
    stats->converged = true;
    return true;
  }
  // The cost alone is a poor judge near the solution: its change falls below round-off
  // of |ℓ| while the derivative-based line search still makes Newton progress on ∇ℓ. Stop
  // for stagnation only when the gradient has stopped shrinking too, and near the tolerance
  // (stagnation_max_residual_ratio): far from it, it is not convergence (§4, cost stagnation).
  if (iterate->stagnated && stats->residual >= 0.5 * iterate->previous_residual &&
      stats->residual <= params_.stagnation_max_residual_ratio * stats->tolerance) {
    stats->converged = true;
    stats->cost_stagnated = true;
    return true;
  }
  iterate->previous_residual = stats->residual;
  return false;
}

bool ConvexSolver::CalcSearchDirection(const ConvexProblem& problem, LinearSolverType factorization,
                                       NewtonIterate* iterate, ConvexSolverStats* stats) {
  // Newton direction (§4): H Δv = −∇ℓ, H = A + Jᵀ G J (§2).
  Workspace& ws = *ws_;
  ws.hessian.Assemble(problem, ws.G);
  ws.dv = -ws.gradient;
  if (!FactorAndSolve(factorization, &ws.dv)) {
    stats->factorization_failed = true;
    return false;
  }
  // Replaced by the step of the regimes it enters, when that descends ℓ (§4.1).
  iterate->predicted = iterate->predicting && PredictRegimes(problem, factorization);
  stats->predicted_steps += iterate->predicted;
  // PredictRegimes left J Δv of the exact step in the workspace when it kept that step.
  CalcSearchDirectionData(problem, /*dvc_current=*/iterate->predicting && !iterate->predicted);
  return true;
}

void ConvexSolver::CalcSearchDirectionData(const ConvexProblem& problem, bool dvc_current) {
  // What makes each line-search evaluation O(n_v + n_c) (§4, dℓ/dα): Δv_c = J Δv, A Δv and the
  // quadratic part ℓ_A(α) = ℓ_A0 + α a0 + ½ α² a1, a0 = Δvᵀ A (v − v*), a1 = Δvᵀ A Δv.
  Workspace& ws = *ws_;
  if (!dvc_current) problem.MultiplyJ(ws.dv, ws.dvc.head(problem.num_constraint_rows()));
  problem.MultiplyA(ws.dv, &ws.A_dv);
  ws.ell_A0 = 0.5 * ws.r.dot(ws.Ar);
  ws.a0 = ws.dv.dot(ws.Ar);
  ws.a1 = ws.dv.dot(ws.A_dv);
}

double ConvexSolver::CalcStepLength(const ConvexProblem& problem, NewtonIterate* iterate,
                                    ConvexSolverStats* stats) {
  // α = argmin_{α ∈ (0, α_max]} ℓ(v + αΔv) (§4, line search).
  iterate->ell_alpha = iterate->ell;
  int num_evaluations = 0;
  const double alpha = LineSearch(problem, iterate->ell, &iterate->ell_alpha, &num_evaluations);
  stats->line_search_iterations += num_evaluations;
  ++stats->iterations;
  // A predicted step cut short: the prediction was wrong, the contact slides on (§4.1).
  if (iterate->predicted && alpha < params_.prediction_min_step) iterate->predicting = false;
  return alpha;
}

void ConvexSolver::UpdateIterate(const ConvexProblem& problem, double alpha, NewtonIterate* iterate,
                                 Eigen::VectorXd* v) {
  // A step the line search found (α > 0: Δv descends, dℓ/dα < 0 before α) is taken even if
  // the computed ℓ(α) exceeds ℓ: near the solution the decrease ½ ∇ℓᵀH⁻¹∇ℓ falls below the
  // rounding of ℓ's large, nearly constant terms (a compliant patch of 2000 faces: ℓ ≈ 2e6,
  // noise 3e-5) while dℓ/dα still resolves it. Judging by ℓ there rejected every step and
  // left the solve at 700 × its tolerance (§4).
  if (alpha > 0) {
    v->noalias() += alpha * ws_->dv;
    iterate->stagnated =
        iterate->ell - iterate->ell_alpha <=
        params_.cost_abs_tolerance + params_.cost_relative_tolerance * std::abs(iterate->ell_alpha);
    iterate->ell = AcceptLineSearchPoint(problem, *v, iterate->ell_alpha);
  } else {
    // α = 0: Δv is not a descent direction (dℓ/dα(0) ≥ 0), ∇ℓ is at round-off level. The
    // state (γ, v_c, ∇ℓ) is still that of v.
    iterate->stagnated = true;
  }
}

void ConvexSolver::SolveIslands(const ConvexProblem& problem, Eigen::VectorXd* v,
                                ConvexSolverStats* stats) {
  // docs/contact-model.md §4.2: ℓ is a sum over the islands, so each island's minimizer is the
  // global one restricted to it, found by its own Newton iterations and factorizations — a
  // pile's hard island no longer drags every resting body through its iterations, nor cuts
  // their line searches at its kinks. A free tree's minimizer is v*.
  Workspace& ws = *ws_;
  const int num_islands = ws.islands.num_islands();
  while (static_cast<int>(ws.island_solvers.size()) < num_islands) {
    ws.island_solvers.push_back(std::make_unique<ConvexSolver>());
    ws.island_problems.emplace_back();
    ws.island_v.emplace_back();
    ws.island_cost_histories.emplace_back();
  }
  ws.island_iterations.assign(num_islands, 0);
  bool free_trees_moved = false;
  const double free_cost0 = MoveFreeTrees(problem, v, &free_trees_moved);
  // ‖D A (v − v*)‖ at the warm start (the free trees' terms are zero now).
  ws.r.noalias() = *v - problem.free_motion_velocity();
  problem.MultiplyA(ws.r, &ws.Ar);
  const double momentum0 = ws.D.cwiseProduct(ws.Ar).norm();
  const bool parallel = OrderIslands(problem);
  // Stopping (§4.2): with ε_abs/√K and ε_rel/√2 the islands' own tests imply the whole
  // problem's, but hold the small ones to their own momentum, far stricter than the pile's. So
  // a first pass lets each island also stop within an even share of the whole problem's
  // tolerance estimated at the warm start; if the whole problem's test then misses, a second
  // pass finishes the islands to the strict form.
  const double sqrt_k = std::sqrt(static_cast<double>(num_islands));
  ConvexSolverParameters island_params = params_;
  for (const bool strict : {false, true}) {
    island_params.relative_tolerance =
        strict ? params_.relative_tolerance / std::sqrt(2.0) : params_.relative_tolerance;
    island_params.absolute_tolerance =
        strict ? params_.absolute_tolerance / sqrt_k
               : (params_.absolute_tolerance + params_.relative_tolerance * momentum0) / sqrt_k;
    SolveIslandsOnce(problem, *v, island_params, /*extract=*/!strict, parallel, stats);
    if (!stats->converged || stats->residual <= stats->tolerance) break;
  }
  stats->iterations = free_trees_moved ? 1 : 0;
  for (int k = 0; k < num_islands; ++k) {
    ScatterIsland(problem, k, v);
    stats->iterations = std::max(stats->iterations, ws.island_iterations[k]);
  }
  if (record_cost_history_) CombineCostHistories(num_islands, free_cost0, stats);
}

bool ConvexSolver::OrderIslands(const ConvexProblem& problem) {
  Workspace& ws = *ws_;
  const int num_islands = ws.islands.num_islands();
  ws.island_order.resize(num_islands);
  std::iota(ws.island_order.begin(), ws.island_order.end(), 0);
  ws.extract_scratch.resize(std::max(params_.num_threads, 1));
  if (params_.num_threads <= 1) return false;
  ws.island_size.resize(num_islands);
  int total = 0, largest = 0;
  for (int k = 0; k < num_islands; ++k) {
    // A Newton iteration's work grows with the velocities and the constraint rows.
    int size = 0;
    for (const int t : ws.islands.trees(k)) size += problem.tree_nv(t);
    for (const int i : ws.islands.constraints(k)) size += problem.entry(i).num_rows;
    ws.island_size[k] = size;
    total += size;
    largest = std::max(largest, size);
  }
  // A second thread pays when what is left besides the largest island is worth more than
  // the hand-over (a few microseconds: the work of a pair of resting bodies).
  if (total - largest < params_.min_parallel_island_size) return false;
  // Ties by index: a strict order, so std::sort (in place; std::stable_sort allocates) gives
  // the same order every time.
  std::sort(ws.island_order.begin(), ws.island_order.end(), [&](int a, int b) {
    return ws.island_size[a] != ws.island_size[b] ? ws.island_size[a] > ws.island_size[b] : a < b;
  });
  if (!ws.team || ws.team->num_threads() != params_.num_threads) {
    ws.team = std::make_unique<ParallelFor>(params_.num_threads);
  }
  for (ConstraintIslands::ExtractScratch& scratch : ws.extract_scratch) {
    ConstraintIslands::Reserve(problem, &scratch);
  }
  return true;
}

void ConvexSolver::SolveIslandsOnce(const ConvexProblem& problem, const Eigen::VectorXd& v,
                                    const ConvexSolverParameters& island_params, bool extract,
                                    bool parallel, ConvexSolverStats* stats) {
  Workspace& ws = *ws_;
  const int num_islands = ws.islands.num_islands();
  ws.island_stats.resize(num_islands);
  // Each island's extraction and solve touch only its own problem, solver and velocities (and
  // the thread's scratch): the islands may run on any thread, and the sums below are taken in
  // island order, so the result is the same bit for bit.
  auto solve = [&](int j, int thread) {
    const int k = ws.island_order[j];
    if (extract) {
      ws.islands.Extract(problem, k, &ws.island_problems[k], &ws.extract_scratch[thread]);
      GatherIsland(problem, k, v, &ws.island_v[k]);
      ws.island_cost_histories[k].clear();
    }
    ws.island_stats[k] = SolveIsland(k, island_params);
  };
  if (parallel) {
    ws.team->Run(num_islands, solve);
  } else {
    for (int j = 0; j < num_islands; ++j) solve(j, 0);
  }
  double residual_sq = 0, momentum_sq = 0, impulse_sq = 0;
  int largest_island_nv = -1;
  stats->cost = 0;
  stats->converged = true;
  for (int k = 0; k < num_islands; ++k) {
    const ConvexSolverStats& s = ws.island_stats[k];
    stats->cost += s.cost;
    residual_sq += s.residual * s.residual;
    momentum_sq += s.momentum_norm * s.momentum_norm;
    impulse_sq += s.impulse_norm * s.impulse_norm;
    stats->line_search_iterations += s.line_search_iterations;
    stats->predicted_steps += s.predicted_steps;
    stats->converged = stats->converged && s.converged;
    stats->cost_stagnated = stats->cost_stagnated || s.cost_stagnated;
    stats->invalid_input = stats->invalid_input || s.invalid_input;
    stats->factorization_failed = stats->factorization_failed || s.factorization_failed;
    stats->constraint_non_finite = stats->constraint_non_finite || s.constraint_non_finite;
    if (ws.island_problems[k].num_velocities() > largest_island_nv) {
      largest_island_nv = ws.island_problems[k].num_velocities();
      stats->linear_solver_used = s.linear_solver_used;
    }
  }
  // The free trees' terms are zero at v*; the islands' add up (squared, for the norms).
  stats->residual = std::sqrt(residual_sq);
  stats->momentum_norm = std::sqrt(momentum_sq);
  stats->impulse_norm = std::sqrt(impulse_sq);
  stats->tolerance = StoppingTolerance(stats->momentum_norm, stats->impulse_norm);
}

double ConvexSolver::MoveFreeTrees(const ConvexProblem& problem, Eigen::VectorXd* v,
                                   bool* moved) const {
  double cost0 = 0;  // their ℓ at the warm start, for the cost history
  *moved = false;
  for (const int t : ws_->islands.free_trees()) {
    auto v_t = v->segment(problem.tree_start(t), problem.tree_nv(t));
    const auto v_star_t =
        problem.free_motion_velocity().segment(problem.tree_start(t), problem.tree_nv(t));
    *moved = *moved || v_t != v_star_t;
    if (record_cost_history_) {
      cost0 += 0.5 * (v_t - v_star_t).dot(problem.tree_A(t) * (v_t - v_star_t));
    }
    v_t = v_star_t;
  }
  return cost0;
}

void ConvexSolver::GatherIsland(const ConvexProblem& problem, int k, const Eigen::VectorXd& v,
                                Eigen::VectorXd* island_v) const {
  const ConvexProblem& island_problem = ws_->island_problems[k];
  EnsureSize(island_v, island_problem.num_velocities());
  const std::span<const int> trees = ws_->islands.trees(k);
  for (size_t j = 0; j < trees.size(); ++j) {
    island_v->segment(island_problem.tree_start(static_cast<int>(j)), problem.tree_nv(trees[j])) =
        v.segment(problem.tree_start(trees[j]), problem.tree_nv(trees[j]));
  }
}

ConvexSolverStats ConvexSolver::SolveIsland(int k, const ConvexSolverParameters& params) {
  Workspace& ws = *ws_;
  ConvexSolver& solver = *ws.island_solvers[k];
  solver.set_parameters(params);
  solver.set_record_cost_history(record_cost_history_);
  // The whole problem's input checks cover the island's; Newton runs at once.
  ConvexSolverStats s;
  solver.SolveConnected(ws.island_problems[k], &ws.island_v[k], &s);
  ws.island_iterations[k] += s.iterations;
  if (record_cost_history_) {  // a second pass continues the first one's history
    std::vector<double>& h = ws.island_cost_histories[k];
    h.insert(h.end(), s.cost_history.begin() + (h.empty() ? 0 : 1), s.cost_history.end());
  }
  return s;
}

void ConvexSolver::ScatterIsland(const ConvexProblem& problem, int k, Eigen::VectorXd* v) {
  const ConvexProblem& island_problem = ws_->island_problems[k];
  const ConvexSolver& solver = *ws_->island_solvers[k];
  const Eigen::VectorXd& island_v = ws_->island_v[k];
  const std::span<const int> trees = ws_->islands.trees(k);
  for (size_t j = 0; j < trees.size(); ++j) {
    v->segment(problem.tree_start(trees[j]), problem.tree_nv(trees[j])) =
        island_v.segment(island_problem.tree_start(static_cast<int>(j)), problem.tree_nv(trees[j]));
  }
  const std::span<const int> constraints = ws_->islands.constraints(k);
  for (size_t j = 0; j < constraints.size(); ++j) {
    const auto& e = problem.entry(constraints[j]);
    const int island_row = island_problem.entry(static_cast<int>(j)).row_start;
    gamma_.segment(e.row_start, e.num_rows) = solver.impulses().segment(island_row, e.num_rows);
    vc_.segment(e.row_start, e.num_rows) =
        solver.constraint_velocities().segment(island_row, e.num_rows);
  }
}

void ConvexSolver::CombineCostHistories(int num_islands, double free_cost0,
                                        ConvexSolverStats* stats) const {
  // The islands' iterations interleaved: after round j every island has taken min(j, its
  // iterations) steps and every free tree its one step to v* (where its ℓ is zero); ℓ is the
  // sum, so it decreases.
  stats->cost_history.assign(stats->iterations + 1, 0.0);
  stats->cost_history[0] = free_cost0;
  for (int k = 0; k < num_islands; ++k) {
    const std::vector<double>& h = ws_->island_cost_histories[k];
    for (int j = 0; j <= stats->iterations; ++j) {
      stats->cost_history[j] += h[std::min<size_t>(j, h.size() - 1)];
    }
  }
}

bool ConvexSolver::FactorHessianAt(const ConvexProblem& problem, const Eigen::VectorXd& v) {
  hessian_factored_.reset();
  Prepare(problem);
  EvaluateAt(problem, v, /*with_hessian=*/true);
  ws_->hessian.Assemble(problem, ws_->G);
  const LinearSolverType factorization = ChooseFactorization();
  if (!Factor(factorization)) return false;
  hessian_factored_ = factorization;
  return true;
}

bool ConvexSolver::SolveWithFactoredHessian(Eigen::VectorXd* x) {
  return hessian_factored_ && SolveFactored(*hessian_factored_, x);
}

double ConvexSolver::EvaluateCost(const ConvexProblem& problem, const Eigen::VectorXd& v,
                                  Eigen::VectorXd* gradient, Eigen::MatrixXd* hessian) {
  hessian_factored_.reset();
  Prepare(problem);
  const double ell = EvaluateAt(problem, v, hessian != nullptr);
  if (gradient != nullptr) *gradient = ws_->gradient;
  if (hessian != nullptr) {
    ws_->hessian.Assemble(problem, ws_->G);
    ws_->hessian.ToDense(hessian);
  }
  return ell;
}

}  // namespace contactlab
