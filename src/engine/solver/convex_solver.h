// Newton's method with exact line search on the convex problem (contact-math.md §4).
#pragma once

#include <Eigen/Dense>
#include <memory>

#include "engine/solver/convex_problem.h"

namespace contactlab {

enum class LinearSolverType { kAuto, kDense, kSupernodal };

struct ConvexSolverParameters {
  double relative_tolerance = 1e-6;   // ε_rel
  double absolute_tolerance = 1e-14;  // ε_abs
  int max_iterations = 100;
  double max_step = 1.5;              // α_max of the line search
  int max_line_search_iterations = 60;
  double line_search_tolerance = 1e-10;  // relative, on dℓ/dα
  LinearSolverType linear_solver = LinearSolverType::kAuto;
  int dense_max_velocities = 60;  // kAuto: dense LLT at or below this n_v, CHOLMOD above
};

struct ConvexSolverStats {
  int iterations = 0;          // Newton iterations taken (0 if v0 already optimal)
  double residual = 0;         // ‖D ∇ℓ‖ at exit
  double tolerance = 0;        // the bound it was compared with
  double cost = 0;             // ℓ at exit
  int num_constraints = 0;
  int num_constraint_rows = 0;
  bool converged = false;
  bool cost_stagnated = false; // stopped because the cost stopped decreasing
  bool used_supernodal = false;
  int line_search_iterations = 0;  // total
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

  // Solves from the warm start v (in/out). Returns the statistics; never throws on
  // non-convergence (stats.converged = false; the caller reports it).
  ConvexSolverStats Solve(const ConvexProblem& problem, Eigen::VectorXd* v);

  // The impulses γ and constraint velocities v_c at the last solution (stacked rows).
  const Eigen::VectorXd& impulses() const { return gamma_; }
  const Eigen::VectorXd& constraint_velocities() const { return vc_; }

  // For tests: the gradient and Hessian (dense, n_v × n_v) of ℓ at v.
  double EvaluateCost(const ConvexProblem& problem, const Eigen::VectorXd& v,
                      Eigen::VectorXd* gradient, Eigen::MatrixXd* hessian);

 private:
  struct Workspace;
  ConvexSolverParameters params_;
  bool record_cost_history_ = false;
  std::unique_ptr<Workspace> ws_;
  Eigen::VectorXd gamma_, vc_;
};

}  // namespace contactlab
