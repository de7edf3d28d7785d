// Forward-mode sensitivities of a trajectory to contact parameters (docs/contact-model.md §9):
// S_n = ∂(q_n, v_n)/∂p, carried step to step by the chain rule through each step's derivatives,
//   S_{n+1} = ∂x_{n+1}/∂x_n · S_n + ∂x_{n+1}/∂p,
// one StepDerivatives::Apply per parameter and step (the direction (S_n's column, e_j)). The
// memory is S itself, (n_q + n_v) × n_p doubles, whatever the window's length: no tape.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "engine/world/step_derivatives.h"

namespace contactlab {

class TrajectorySensitivity {
 public:
  // Parameters as StepDerivatives takes them: global, or each of its pair (−1: global).
  TrajectorySensitivity(const WorldModel& model, std::vector<ContactParameter> parameters,
                        std::vector<int> contact_pairs = {});

  // S = 0: the state the window starts from does not depend on p.
  void Reset();
  // Steps *world and carries S over the step. Returns false when the step or its derivatives
  // failed (failure()); throws std::invalid_argument as StepDerivatives::Step does.
  bool Step(World* world);
  const std::string& failure() const { return step_.failure(); }

  // ∂q_n/∂p (n_q × n_p) and ∂v_n/∂p (n_v × n_p) at the world's current state.
  const Eigen::MatrixXd& dq_dp() const { return dq_dp_; }
  const Eigen::MatrixXd& dv_dp() const { return dv_dp_; }
  const std::vector<ContactParameter>& parameters() const { return step_.parameters(); }

 private:
  StepDerivatives step_;
  Eigen::MatrixXd dq_dp_, dv_dp_;
  StepDirection direction_;
  Eigen::VectorXd dq_, dv_;
};

}  // namespace contactlab
