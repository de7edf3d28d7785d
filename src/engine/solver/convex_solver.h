// Newton's method with exact line search on the convex problem (docs/contact-model.md §4).
//
// Each iteration: evaluate γ_i, G_i at v; H Δv = −∇ℓ with H = A + Jᵀ G J assembled block-sparse
// (dense Eigen LLT for small n_v, supernodal CHOLMOD above); when the step enters constraint
// regimes its model cannot see, Δv is replaced by the step of those regimes' models (regime
// prediction, docs/contact-model.md §4.1); α = argmin ℓ(v + αΔv) over (0, α_max] by a
// safeguarded Newton–Raphson root search of dℓ/dα (rtsafe); v ← v + αΔv. A problem whose
// constraints fall into independent islands of trees is solved island by island (§4.2).
//
// Stopping criterion (§4), with D = diag(A)^(−½):
//   ‖D ∇ℓ‖ ≤ ε_abs + ε_rel · max(‖D A (v − v*)‖, ‖D Jᵀγ‖).
// The momentum term is the gradient's own, A (v − v*), not A v: the two terms of the max are
// then exactly the two terms of ∇ℓ = A(v − v*) − Jᵀγ, so the test is
// "the momentum balance holds to a relative ε_rel of the larger of its two sides": invariant
// to a Galilean shift of v and v* (A v is not — a fast-moving body would loosen the tolerance
// on its small contact impulses) and to rescaling the velocities, since D makes D A D unit on
// the diagonal. It does not stop falsely at v = v*: there ∇ℓ = −Jᵀγ, whose norm exceeds
// ε_rel ‖D Jᵀγ‖ unless γ = 0, i.e. unless v* is the solution.
// The solver also stops when the cost stops decreasing (the decrease of the last step is below
// cost_abs_tolerance + cost_relative_tolerance · |ℓ|): Newton cannot improve a solution
// that is exact to round-off; this counts as converged and sets cost_stagnated.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <optional>
#include <vector>

#include "engine/solver/convex_problem.h"

namespace contactlab {

// The factorization of the Newton Hessian (docs/contact-model.md §4, "Sparsity"): dense LLT,
// our tree-block Cholesky (BlockCholesky), or CHOLMOD (SupernodalCholesky).
enum class LinearSolverType { kAuto, kDense, kBlockSparse, kSupernodal };

struct ConvexSolverParameters {
  double relative_tolerance = 1e-6;   // ε_rel
  double absolute_tolerance = 1e-14;  // ε_abs
  // Cost stagnation: stop when ℓ_prev − ℓ ≤ cost_abs_tolerance + cost_relative_tolerance·|ℓ|.
  double cost_abs_tolerance = 1e-30;
  double cost_relative_tolerance = 1e-15;
  // ... and only when the residual is within this factor of the tolerance: ∇ℓ has a round-off
  // floor of its own (a body spinning fast, v ≈ v* large), but a stiff pile's ℓ can stagnate
  // at its round-off while ∇ℓ is still as large as its terms (k = 1e11 N/m: residual 1e6 × the
  // tolerance) — that is not convergence, and the iterations go on.
  double stagnation_max_residual_ratio = 100;
  // A safety net, not a tolerance: the problem is strongly convex, so Newton with exact line
  // search converges; at extreme stiffness (clutter, k = 1e11 N/m) it needs up to ~120
  // iterations while the pile forms.
  int max_iterations = 300;
  double max_step = 1.5;  // α_max of the line search
  int max_line_search_iterations = 60;
  // Line search stops at |dℓ/dα| ≤ tol · |dℓ/dα(0)| or at the round-off level of dℓ/dα.
  double line_search_tolerance = 1e-10;
  // Regime prediction (docs/contact-model.md §4.1): when the Newton step enters a constraint
  // regime its quadratic model cannot see (a sliding contact carried through stiction, an open
  // one closed), re-solve the step with that regime's model. The solution is unchanged; the
  // iterations fall (clutter: about half). A predicted step that the line search cuts below
  // prediction_min_step turns prediction off for the rest of the solve (the prediction was
  // wrong: the contact slides on).
  bool predict_regimes = true;
  double prediction_min_step = 0.01;
  // Islands (docs/contact-model.md §4.2): a problem whose constraints fall into several
  // independent groups of trees is solved island by island, each with its own Newton
  // iterations, to per-island tolerances that imply the whole problem's.
  bool solve_islands_separately = true;
  // Threads that share a step's islands (the caller included); 1 solves them in turn. More pay
  // only when the islands other than the largest hold at least min_parallel_island_size
  // velocities plus constraint rows. Valid: 1 … 64.
  int num_threads = 1;
  int min_parallel_island_size = 60;
  LinearSolverType linear_solver = LinearSolverType::kAuto;
  // kAuto: the tree-block Cholesky, faster than a dense LLT from two trees up and than CHOLMOD
  // while the fronts stay small; CHOLMOD's BLAS supernodes when the block analysis predicts at
  // least this many multiply–adds per entry of L (bench/linear_solver_bench.cc: block 1.9×
  // faster at 24, CHOLMOD 1.05× at 58 and 2.4× at 250).
  double block_cholesky_max_flops_per_nonzero = 48;
};

struct ConvexSolverStats {
  // Newton iterations taken (0 if v0 already optimal); split into islands, the most any took.
  int iterations = 0;
  double residual = 0;   // ‖D ∇ℓ‖ at exit
  double tolerance = 0;  // the bound it was compared with
  // The two sides of the momentum balance in that bound: ‖D A (v − v*)‖ and ‖D Jᵀγ‖ at exit.
  double momentum_norm = 0, impulse_norm = 0;
  double cost = 0;  // ℓ at exit
  int num_constraints = 0;
  int num_constraint_rows = 0;
  bool converged = false;
  bool cost_stagnated = false;  // stopped because the cost stopped decreasing
  LinearSolverType linear_solver_used = LinearSolverType::kDense;  // never kAuto
  bool invalid_input = false;          // NaN/inf or a non-positive diagonal of A in the input
  bool factorization_failed = false;   // H not positive definite (or CHOLMOD failure)
  bool constraint_non_finite = false;  // a constraint gave a NaN or inf cost or impulse
  int line_search_iterations = 0;      // total
  int predicted_steps = 0;             // Newton steps taken along a regime prediction
  // Cost at the start and after each iteration (only when record_cost_history is set).
  std::vector<double> cost_history;
};

class ConvexSolver {
 public:
  ConvexSolver();
  ~ConvexSolver();
  ConvexSolver(const ConvexSolver&) = delete;
  ConvexSolver& operator=(const ConvexSolver&) = delete;

  void set_parameters(const ConvexSolverParameters& p) { params_ = p; }
  const ConvexSolverParameters& parameters() const { return params_; }
  void set_record_cost_history(bool on) { record_cost_history_ = on; }

  // Solves from the warm start v (in/out; if its size is not n_v it starts from v*). Returns
  // the statistics; never throws on non-convergence (stats.converged = false, one
  // spdlog::warn). With NaN/inf in v or the problem it returns at once, v untouched.
  // Allocation-free once warmed up on problems of the same sizes and block pattern (our code;
  // CHOLMOD's supernodal numeric factorization itself mallocs and frees one update workspace
  // per call — convex_solver_allocation_test.cc measures both).
  ConvexSolverStats Solve(const ConvexProblem& problem, Eigen::VectorXd* v);

  // The impulses γ and constraint velocities v_c = J v + b at the last solution (stacked rows).
  Eigen::VectorBlock<const Eigen::VectorXd> impulses() const { return gamma_.head(num_rows_); }
  Eigen::VectorBlock<const Eigen::VectorXd> constraint_velocities() const {
    return vc_.head(num_rows_);
  }

  // The implicit function theorem's matrix (docs/contact-model.md §9): the Newton Hessian
  // H = A + Jᵀ G J at v, assembled and factored as Solve would (the same factorization
  // choice, the whole problem as one island). At a kink of some ℓ_i (stick–slip, contact
  // onset) G is the one-sided Hessian its Evaluate gives there. Returns false if H is not
  // positive definite. Allocation-free when warm, like Solve.
  bool FactorHessianAt(const ConvexProblem& problem, const Eigen::VectorXd& v);
  // x ← H⁻¹ x with the last FactorHessianAt's factor; false without one or on a non-finite x.
  bool SolveWithFactoredHessian(Eigen::VectorXd* x);

  // For tests: ℓ at v, its gradient and (if non-null) its Hessian (dense, n_v × n_v), built
  // through the same block-sparse assembly the solver factors.
  double EvaluateCost(const ConvexProblem& problem, const Eigen::VectorXd& v,
                      Eigen::VectorXd* gradient, Eigen::MatrixXd* hessian);

  // Symbolic analyses done so far by the sparse factorizations (each re-done only when the
  // block pattern changes): the tree-block Cholesky's and CHOLMOD's.
  int num_block_cholesky_analyses() const;
  int num_supernodal_analyses() const;

 private:
  struct Workspace;
  // Sizes what EvaluateAt needs (∇ℓ, γ, v_c) and computes D.
  void PrepareEvaluation(const ConvexProblem& problem);
  // PrepareEvaluation, then sizes the Newton workspace and updates the Hessian's block pattern.
  void Prepare(const ConvexProblem& problem);
  // Newton's method on the whole problem (§4); v is the warm start in, the solution out.
  void SolveConnected(const ConvexProblem& problem, Eigen::VectorXd* v, ConvexSolverStats* stats);
  // SolveConnected's stages, each at the current iterate (v, with ℓ, γ, G_i and ∇ℓ evaluated).
  struct NewtonIterate;
  // The stopping test's figures (§4): ‖D ∇ℓ‖, its two sides' norms and the tolerance.
  void CalcStoppingCriteriaResidual(ConvexSolverStats* stats) const;
  // ε_abs + ε_rel · max(momentum_norm, impulse_norm), the bound on ‖D ∇ℓ‖ (§4).
  double StoppingTolerance(double momentum_norm, double impulse_norm) const;
  // True when Newton stops at the iterate: converged (§4), stagnated at round-off near the
  // tolerance, or ℓ or ∇ℓ not finite (stats says which).
  bool ShouldStop(NewtonIterate* iterate, ConvexSolverStats* stats) const;
  // Δv from H Δv = −∇ℓ, or the predicted regimes' step (§4.1), with its line-search data;
  // false if H is not positive definite.
  bool CalcSearchDirection(const ConvexProblem& problem, LinearSolverType factorization,
                           NewtonIterate* iterate, ConvexSolverStats* stats);
  // Δv_c = J Δv (unless dvc_current), A Δv and the line search's quadratic terms.
  void CalcSearchDirectionData(const ConvexProblem& problem, bool dvc_current);
  // α of the exact line search along Δv (NaN if a constraint gave NaN or inf).
  double CalcStepLength(const ConvexProblem& problem, NewtonIterate* iterate,
                        ConvexSolverStats* stats);
  // v ← v + αΔv, the workspace moved to the line search's last evaluation.
  void UpdateIterate(const ConvexProblem& problem, double alpha, NewtonIterate* iterate,
                     Eigen::VectorXd* v);
  // Each island (§4.2) by its own solver, free trees to v*; γ, v_c and the stopping test's
  // figures gathered from the islands'.
  void SolveIslands(const ConvexProblem& problem, Eigen::VectorXd* v, ConvexSolverStats* stats);
  // SolveIslands' parts: free trees to v* (returns their ℓ at the warm start; *moved if one
  // moved); island k's velocities from v and back (with its γ and v_c); island k solved from
  // its last iterate.
  double MoveFreeTrees(const ConvexProblem& problem, Eigen::VectorXd* v, bool* moved) const;
  void GatherIsland(const ConvexProblem& problem, int k, const Eigen::VectorXd& v,
                    Eigen::VectorXd* island_v) const;
  ConvexSolverStats SolveIsland(int k, const ConvexSolverParameters& params);
  // Orders the islands largest first and returns whether they are worth sharing among
  // params_.num_threads threads (starting the threads the first time).
  bool OrderIslands(const ConvexProblem& problem);
  // Every island solved with these parameters (first extracted from the problem and gathered
  // from v if extract), on the threads if parallel; *stats gets their sums and the whole
  // problem's residual and tolerance from their terms.
  void SolveIslandsOnce(const ConvexProblem& problem, const Eigen::VectorXd& v,
                        const ConvexSolverParameters& island_params, bool extract, bool parallel,
                        ConvexSolverStats* stats);
  void ScatterIsland(const ConvexProblem& problem, int k, Eigen::VectorXd* v);
  // The whole problem's cost history from the islands' (their iterations interleaved).
  void CombineCostHistories(int num_islands, double free_cost0, ConvexSolverStats* stats) const;
  // Evaluates ℓ, γ, G (when with_hessian), v_c and ∇ℓ at v into the workspace; returns ℓ.
  double EvaluateAt(const ConvexProblem& problem, const Eigen::VectorXd& v, bool with_hessian);
  void ZeroOutputs(const ConvexProblem& problem);
  // ℓ(α), dℓ/dα, d²ℓ/dα² and the round-off level of dℓ/dα along v + αΔv from the
  // precomputed line-search terms.
  double EvaluateAlongLine(const ConvexProblem& problem, double alpha, double* dell, double* d2ell,
                           double* dell_roundoff);
  // Moves the workspace to v = v_old + αΔv, the point of the line search's last evaluation,
  // reusing its γ(α) and G_i(α) (what EvaluateAt(v, true) would compute); returns ℓ(α).
  double AcceptLineSearchPoint(const ConvexProblem& problem, const Eigen::VectorXd& v,
                               double ell_alpha);
  // Factors the assembled Hessian and solves H x = rhs in place; false if H is not positive
  // definite or x is not finite.
  bool FactorAndSolve(LinearSolverType factorization, Eigen::VectorXd* x);
  // FactorAndSolve's two halves: factors the assembled Hessian (false if not positive
  // definite), then solves with that factor in place.
  bool Factor(LinearSolverType factorization);
  bool SolveFactored(LinearSolverType factorization, Eigen::VectorXd* x);
  // The factorization of this solve's Hessian (after Prepare): kAuto resolved.
  LinearSolverType ChooseFactorization();
  // Regime prediction (§4.1) at the current iterate, given the exact Newton step Δv (ws dv):
  // replaces Δv by the step of the predicted regimes' models and returns true, if some
  // constraint predicts a regime and that step descends ℓ. Leaves Δv_c = J Δv of the exact
  // step in the workspace otherwise.
  bool PredictRegimes(const ConvexProblem& problem, LinearSolverType factorization);
  // The constraints the line search along Δv_c evaluates (ws line_constraints); zeroes γ(α) and
  // G_i(α) of the others, which vanish along the whole line.
  void SelectLineConstraints(const ConvexProblem& problem);
  // α ∈ (0, α_max] minimizing ℓ(v + αΔv) (returns 0 when Δv is not a descent direction).
  double LineSearch(const ConvexProblem& problem, double ell0, double* ell_alpha,
                    int* num_evaluations);

  ConvexSolverParameters params_;
  bool record_cost_history_ = false;
  // FactorHessianAt's factorization, until the next solve or evaluation replaces it.
  std::optional<LinearSolverType> hessian_factored_;
  std::unique_ptr<Workspace> ws_;
  // Stacked over the constraint rows: the first num_rows_ entries of buffers that only grow (a
  // change in the number of contacts from one step to the next must not reallocate them).
  Eigen::VectorXd gamma_, vc_;
  int num_rows_ = 0;
};

}  // namespace contactlab
