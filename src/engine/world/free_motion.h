// Stage "free motion" of a step (docs/contact-model.md §1–§1.1): the velocities v* the bodies
// would reach without contact and joint constraints, and the SPD matrix A per tree that weighs
// the contact stage's ½‖v − v*‖²_A. Symplectic Euler (the default) solves
//   (M + δt D + δt² K)(v* − v0) = δt k(q0, v0)
// once per tree; the θ-method (SAP paper eq. 13–14) solves the momentum residual
//   m(v) = M(q^θ)(v − v0) − δt k(q^θ, v^θ) = 0
// by Newton's method, its matrix A_θ = M(q0) + θ_v δt D + θ_v θ_q δt² K (eq. 15–17) factored
// once and reused by every iteration. Storage is reused: no allocation once warm.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "engine/solver/convex_problem.h"
#include "engine/solver/time_integration.h"
#include "engine/world/world_inputs.h"
#include "engine/world/world_model.h"

namespace contactlab {

struct StepStart;

class FreeMotion {
 public:
  explicit FreeMotion(const WorldModel& model);
  ~FreeMotion();

  // Writes v* and A of every tree into *problem for the step from `start`, by the settings'
  // scheme (error control steps by symplectic Euler). Returns false when the θ-method's Newton
  // iteration did not converge (the last iterate is used; iterations() says how many ran).
  bool Compute(const WorldModel& model, const WorldInputs& inputs, const StepStart& start,
               ConvexProblem* problem);
  // The θ-method's Newton iterations of the last Compute (0 for symplectic Euler).
  int iterations() const { return iterations_; }

 private:
  void ComputeSymplecticEuler(const WorldModel& model, const WorldInputs& inputs,
                              const StepStart& start, ConvexProblem* problem);
  bool ComputeTheta(const WorldModel& model, const WorldInputs& inputs, const StepStart& start,
                    const TimeIntegration& theta, ConvexProblem* problem);
  // generalized_forces_ = k(q, v) = −K(q − q_rest) − c(q, v) − D v + Jᵀ f_ext(q0), from the
  // kinematics in `data` (the external force is explicit: at the step's start, like gravity's
  // point of application).
  void CalcForces(const WorldModel& model, const WorldInputs& inputs, const StepStart& start,
                  const Eigen::VectorXd& q, const Eigen::VectorXd& v, const MultibodyData& data);
  void AddExternalForce(const WorldModel& model, const WorldInputs& inputs, const StepStart& start);

  std::vector<Eigen::MatrixXd> tree_mass_;  // M_t
  std::vector<Eigen::LLT<Eigen::MatrixXd>> tree_llt_;
  Eigen::VectorXd bias_forces_, generalized_forces_;
  // Reused storage, so that a warm step does not allocate: 3 × max tree nv, max tree nv.
  Eigen::MatrixXd jacobian_scratch_;
  Eigen::VectorXd tree_scratch_;
  // The θ-method's iterate v, its (q^θ, v^θ) with their kinematics, and the residual.
  Eigen::VectorXd v_, v_position_, q_theta_, v_theta_, residual_;
  std::unique_ptr<MultibodyData> theta_data_;
  int iterations_ = 0;
};

}  // namespace contactlab
