#include "engine/world/free_motion.h"

#include <algorithm>

#include "engine/world/problem_builder.h"

namespace contactlab {
namespace {

// The θ-method's Newton iteration stops when the update is this small against the velocities
// (relative, and absolute in m/s or rad/s), or after kMaxIterations (reported).
constexpr double kRelativeTolerance = 1e-12;
constexpr double kAbsoluteTolerance = 1e-14;
constexpr int kMaxIterations = 50;

}  // namespace

FreeMotion::FreeMotion(const WorldModel& model)
    : theta_data_(std::make_unique<MultibodyData>(model.multibody())) {
  const Multibody& mb = model.multibody();
  int max_nv = 1;
  tree_mass_.resize(mb.num_trees());
  // Built in place: Eigen's LLT(size) leaves its status unset until the first compute(), and
  // moving that unset value is undefined behaviour (UBSan, scripts/sanitizer_tests.sh).
  tree_llt_.reserve(mb.num_trees());
  for (int t = 0; t < mb.num_trees(); ++t) {
    const int n = mb.tree_num_velocities(t);
    max_nv = std::max(max_nv, n);
    tree_mass_[t].resize(n, n);
    tree_llt_.emplace_back(n);
  }
  jacobian_scratch_.resize(3, max_nv);
  tree_scratch_.resize(max_nv);
}

FreeMotion::~FreeMotion() = default;

bool FreeMotion::Compute(const WorldModel& model, const WorldInputs& inputs, const StepStart& start,
                         ConvexProblem* problem) {
  iterations_ = 0;
  const TimeIntegration& integrator = inputs.contact_settings.integrator;
  if (integrator.scheme == TimeIntegration::Scheme::kTheta) {
    return ComputeTheta(model, inputs, start, integrator, problem);
  }
  ComputeSymplecticEuler(model, inputs, start, problem);
  return true;
}

// §1: A (v* − v0) = δt k(q0, v0), A = M + δt D + δt² K, per tree.
void FreeMotion::ComputeSymplecticEuler(const WorldModel& model, const WorldInputs& inputs,
                                        const StepStart& start, ConvexProblem* problem) {
  const Multibody& mb = model.multibody();
  const double dt = start.dt_s;
  CalcForces(model, inputs, start, start.q, start.v, start.data);
  Eigen::VectorXd& v_star = problem->mutable_free_motion_velocity();
  for (int t = 0; t < mb.num_trees(); ++t) {
    const int s = mb.tree_velocity_start(t), n = mb.tree_num_velocities(t);
    mb.CalcTreeMassMatrix(start.data, t, &tree_mass_[t]);
    auto A = problem->mutable_tree_A(t);
    A = tree_mass_[t];
    A.diagonal() +=
        dt * mb.joint_damping().segment(s, n) + dt * dt * mb.joint_stiffness().segment(s, n);
    if (n == 6) {  // a free body: a fixed-size factorization, a quarter of the dynamic one's cost
      const Eigen::Matrix<double, 6, 6> A6 = A;
      v_star.segment<6>(s) =
          start.v.segment<6>(s) +
          dt * Eigen::LLT<Eigen::Matrix<double, 6, 6>>(A6).solve(generalized_forces_.segment<6>(s));
      continue;
    }
    tree_llt_[t].compute(A);
    auto acceleration = tree_scratch_.head(n);  // A⁻¹ k, into reused storage
    acceleration = tree_llt_[t].solve(generalized_forces_.segment(s, n));
    v_star.segment(s, n) = start.v.segment(s, n) + dt * acceleration;
  }
}

// §1.1, one algorithm: Newton's method on the momentum residual (SAP paper eq. 14)
//   m(v) = M(q^θ)(v − v0) − δt k(q^θ, v^θ),  q^θ = q0 + θ_v δt N(q0)(θ_q v + (1 − θ_q) v0),
//   v^θ = θ_v v + (1 − θ_v) v0,
// with the SPD matrix A_θ = M(q0) + θ_v δt D + θ_v θ_q δt² K of eq. 15–17 in place of ∂m/∂v
// (exact for joint springs and dampers on a constant mass matrix; the dropped terms, the
// derivatives of M and of the bias forces, are O(δt) and only slow the contraction). A_θ is
// factored once per step and is also the contact stage's A, so that eq. 18 linearizes the same
// balance. θ_v = 0 needs no iteration: the forces are those at (q0, v0).
bool FreeMotion::ComputeTheta(const WorldModel& model, const WorldInputs& inputs,
                              const StepStart& start, const TimeIntegration& theta,
                              ConvexProblem* problem) {
  const Multibody& mb = model.multibody();
  const double dt = start.dt_s, tq = theta.theta_q, tv = theta.theta_v;
  for (int t = 0; t < mb.num_trees(); ++t) {
    const int s = mb.tree_velocity_start(t), n = mb.tree_num_velocities(t);
    mb.CalcTreeMassMatrix(start.data, t, &tree_mass_[t]);
    auto A = problem->mutable_tree_A(t);
    A = tree_mass_[t];
    A.diagonal() += tv * dt * mb.joint_damping().segment(s, n) +
                    tv * tq * dt * dt * mb.joint_stiffness().segment(s, n);
    tree_llt_[t].compute(A);
  }
  v_ = start.v;
  residual_.resize(v_.size());
  bool converged = false;
  iterations_ = 0;
  while (!converged && iterations_ < kMaxIterations) {
    ++iterations_;
    // The residual at the iterate: kinematics at (q^θ, v^θ), M(q^θ)(v − v0) − δt k.
    v_position_ = tq * v_ + (1 - tq) * start.v;
    mb.IntegratePositions(start.q, v_position_, tv * dt, &q_theta_);
    v_theta_ = tv * v_ + (1 - tv) * start.v;
    mb.UpdateKinematics(q_theta_, v_theta_, theta_data_.get());
    CalcForces(model, inputs, start, q_theta_, v_theta_, *theta_data_);
    residual_ = v_ - start.v;
    double update_norm = 0;
    for (int t = 0; t < mb.num_trees(); ++t) {
      const int s = mb.tree_velocity_start(t), n = mb.tree_num_velocities(t);
      if (n == 0) continue;
      mb.CalcTreeMassMatrix(*theta_data_, t, &tree_mass_[t]);
      auto update = tree_scratch_.head(n);  // −A_θ⁻¹ m(v), into reused storage
      update.noalias() = tree_mass_[t] * residual_.segment(s, n);
      update -= dt * generalized_forces_.segment(s, n);
      tree_llt_[t].solveInPlace(update);
      v_.segment(s, n) -= update;
      update_norm = std::max(update_norm, update.cwiseAbs().maxCoeff());
    }
    // Explicit in v (θ_v = 0): one evaluation, at (q0, v0), is the answer.
    converged =
        tv == 0 || update_norm <= kAbsoluteTolerance +
                                      kRelativeTolerance * std::max(v_.cwiseAbs().maxCoeff(),
                                                                    start.v.cwiseAbs().maxCoeff());
  }
  problem->mutable_free_motion_velocity() = v_;
  return converged;
}

void FreeMotion::CalcForces(const WorldModel& model, const WorldInputs& inputs,
                            const StepStart& start, const Eigen::VectorXd& q,
                            const Eigen::VectorXd& v, const MultibodyData& data) {
  const Multibody& mb = model.multibody();
  mb.CalcBiasForces(data, model.scene().gravity_W, &bias_forces_);
  mb.CalcJointSpringForces(q, &generalized_forces_);
  generalized_forces_ -= bias_forces_;
  generalized_forces_.array() -= mb.joint_damping().array() * v.array();
  AddExternalForce(model, inputs, start);
}

// A force f at the material point Q does the virtual work f·v_Q = f·(J_Q v), so its
// generalized force is J_Qᵀ f (explicit: evaluated at the start of the step, like gravity).
void FreeMotion::AddExternalForce(const WorldModel& model, const WorldInputs& inputs,
                                  const StepStart& start) {
  const ExternalForce& force = inputs.external_force;
  if (force.scene_body < 0) return;
  const Multibody& mb = model.multibody();
  const int b = model.multibody_index(force.scene_body);
  const int t = mb.body_tree(b), s = mb.tree_velocity_start(t), n = mb.tree_num_velocities(t);
  auto J_Q = jacobian_scratch_.leftCols(n);
  mb.CalcPointJacobian(start.data, b, start.data.X_WB[b] * force.p_BoQ_B, J_Q);
  generalized_forces_.segment(s, n).noalias() += J_Q.transpose() * force.f_Q_W;
}

}  // namespace contactlab
