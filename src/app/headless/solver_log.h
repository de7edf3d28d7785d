// `--log-solver FILE.csv` and `--log-newton FILE.csv`: the solver's side of a run, for studies
// of its convergence and conditioning (docs/architecture.md §7; studies/README.md).
//
// SolverLog writes one row per step: the Newton iterations and the stopping test's figures
// (docs/contact-model.md §4), the contacts' mean and largest penetration, their mean slip speed
// and effective stiction tolerance (§2.5), and — with `--hessian-condition` — the condition
// number λ_max/λ_min of the Newton Hessian H = A + Jᵀ G J at the step's solution (the ICF
// paper's Figs 15, 17 and 19, the SAP paper's Fig. 15). The condition number takes the
// eigenvalues of the dense H, O(n_v³) per step: a study's diagnostic, not a runtime one.
//
// NewtonLog writes one row per Newton iterate: the cost ℓ at the warm start and after each
// iteration (the SAP paper's Fig. 10, convergence per iteration), the whole problem's ℓ summed
// over its islands (§4.2).
#pragma once

#include <Eigen/Dense>
#include <string>

#include "app/headless/csv_file.h"
#include "engine/solver/convex_solver.h"
#include "engine/world/world.h"

namespace contactlab {

extern const char kSolverLogHeader[];
extern const char kNewtonLogHeader[];

class SolverLog {
 public:
  // Writes the header. Throws std::runtime_error if the file cannot be written and
  // std::invalid_argument if hessian_condition is asked of a world whose last problem's
  // minimizer is not its velocity after the step (the rigid model's phase 2 changes it; error
  // control's accepted state is not its last solve's).
  SolverLog(const std::string& path, const World& world, bool hessian_condition);
  // Appends the world's last step.
  void Write(const World& world);

 private:
  // λ_max/λ_min of H at the last problem's solution (NaN if H is empty).
  double HessianCondition(const World& world);

  CsvFile file_;
  bool hessian_condition_;
  ConvexSolver evaluator_;  // assembles H as the world's solver does
  Eigen::VectorXd gradient_;
  Eigen::MatrixXd hessian_;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen_;
};

class NewtonLog {
 public:
  // Writes the header and has the world's solver record its cost history (a vector per solve:
  // this log's runs allocate per step). Throws std::runtime_error if the file cannot be written.
  NewtonLog(const std::string& path, World* world);
  // Appends the last step's iterates (its last solve's: a step whose out-of-reach contacts were
  // put back solves again, from the first solve's answer).
  void Write(const World& world, long long step);

 private:
  CsvFile file_;
};

}  // namespace contactlab
