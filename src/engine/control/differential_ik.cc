#include "engine/control/differential_ik.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace contactlab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void CheckSize(const Eigen::VectorXd& v, int n, const char* name) {
  if (v.size() != 0 && v.size() != n) {
    throw std::invalid_argument(std::string("DifferentialIk: ") + name + " must have " +
                                std::to_string(n) + " entries (or none)");
  }
}

// Fixed maximum size: the Gram matrix is at most 6 × 6, so the eigen solve lives on the stack.
using SmallMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;

}  // namespace

DifferentialIk::DifferentialIk(const Multibody& model, DifferentialIkConfig config)
    : model_(&model), config_(std::move(config)) {
  const DifferentialIkConfig& c = config_;
  if (c.end_effector_body < 0 || c.end_effector_body >= model.num_bodies()) {
    throw std::invalid_argument("DifferentialIk: end_effector_body out of range");
  }
  n_ = static_cast<int>(c.velocity_indices.size());
  if (n_ == 0) throw std::invalid_argument("DifferentialIk: no controlled joints");
  tree_ = model.body_tree(c.end_effector_body);
  const int v0 = model.tree_velocity_start(tree_);
  const int tree_nv = model.tree_num_velocities(tree_);
  for (int iv : c.velocity_indices) {
    // Find the 1-dof joint owning this velocity.
    int body = -1;
    for (int b = 0; b < model.num_bodies(); ++b) {
      if (model.joint_num_velocities(b) == 1 && model.velocity_start(b) == iv) body = b;
    }
    if (body < 0) {
      throw std::invalid_argument("DifferentialIk: velocity index " + std::to_string(iv) +
                                  " is not a 1-dof joint");
    }
    if (model.body_tree(body) != tree_) {
      throw std::invalid_argument("DifferentialIk: joint of velocity index " + std::to_string(iv) +
                                  " is not in the end effector's tree");
    }
    tree_columns_.push_back(iv - v0);
    position_indices_.push_back(model.position_start(body));
  }
  CheckSize(c.posture, n_, "posture");
  CheckSize(c.velocity_limits, n_, "velocity_limits");
  CheckSize(c.position_lower, n_, "position_lower");
  CheckSize(c.position_upper, n_, "position_upper");
  CheckSize(c.acceleration_limits, n_, "acceleration_limits");
  if (c.acceleration_limits.size() != 0 && !(c.acceleration_limits.array() > 0.0).all()) {
    throw std::invalid_argument("DifferentialIk: acceleration_limits must be > 0");
  }
  if (c.velocity_limits.size() != 0 && !(c.velocity_limits.array() > 0.0).all()) {
    throw std::invalid_argument("DifferentialIk: velocity_limits must be > 0");
  }
  if (c.position_lower.size() != 0 && c.position_upper.size() != 0 &&
      !(c.position_lower.array() <= c.position_upper.array()).all()) {
    throw std::invalid_argument("DifferentialIk: position_lower must be <= position_upper");
  }
  if (!(c.damping >= 0.0 && c.adaptive_damping >= 0.0 && c.singular_value_threshold >= 0.0 &&
        c.posture_weight >= 0.0 && c.posture_gain >= 0.0 && c.position_limit_gain > 0.0)) {
    throw std::invalid_argument(
        "DifferentialIk: damping, adaptive_damping, singular_value_threshold, posture_weight, "
        "posture_gain must be >= 0 and position_limit_gain > 0");
  }
  // H = JᵀW²J + (λ² + w) I must be SPD whatever J is (n > 6 arms always have a null space).
  if (!(c.damping > 0.0 || (c.posture_weight > 0.0 && c.posture.size() != 0))) {
    throw std::invalid_argument("DifferentialIk: need damping > 0 (or a posture term)");
  }
  set_task_weights(c.rotation_weight, c.translation_weight);

  J_tree_.setZero(6, tree_nv);
  J_.setZero(6, n_);
  H_.setZero(n_, n_);
  g_.setZero(n_);
  lower_.setZero(n_);
  upper_.setZero(n_);
  posture_velocity_.setZero(n_);
  warm_start_.setZero(n_);
  qp_.Resize(n_);
}

void DifferentialIk::set_posture(const Eigen::VectorXd& posture) {
  if (posture.size() != n_) throw std::invalid_argument("DifferentialIk: posture size");
  config_.posture = posture;
}

void DifferentialIk::set_task_weights(double rotation_weight, double translation_weight) {
  if (!(rotation_weight >= 0.0 && translation_weight >= 0.0 &&
        rotation_weight + translation_weight > 0.0)) {
    throw std::invalid_argument("DifferentialIk: task weights must be >= 0, not both 0");
  }
  config_.rotation_weight = rotation_weight;
  config_.translation_weight = translation_weight;
}

Eigen::Isometry3d DifferentialIk::CalcToolPose(const MultibodyData& data) const {
  return data.X_WB[config_.end_effector_body] * config_.X_BT;
}

void DifferentialIk::CalcToolJacobian(const MultibodyData& data, TwistFrame frame,
                                      Eigen::Ref<Eigen::MatrixXd> J) const {
  if (J.rows() != 6 || J.cols() != n_) {
    throw std::invalid_argument("DifferentialIk::CalcToolJacobian: J must be 6 x n");
  }
  const Eigen::Isometry3d X_WT = CalcToolPose(data);
  model_->CalcFrameJacobian(data, config_.end_effector_body, X_WT.translation(), J_tree_);
  for (int k = 0; k < n_; ++k) J.col(k) = J_tree_.col(tree_columns_[k]);
  if (frame == TwistFrame::kTool) {
    // A tool-frame twist is the world one in T's axes: [ω_T; v_T] = R_TW [ω_W; v_W].
    // Column by column so the temporaries are fixed-size (no allocation).
    const Eigen::Matrix3d R_TW = X_WT.linear().transpose();
    for (int k = 0; k < n_; ++k) {
      const Eigen::Vector3d w = R_TW * J.col(k).head<3>();
      const Eigen::Vector3d v = R_TW * J.col(k).tail<3>();
      J.col(k).head<3>() = w;
      J.col(k).tail<3>() = v;
    }
  }
}

DifferentialIkResult DifferentialIk::Solve(const MultibodyData& data, const Eigen::VectorXd& q,
                                           const Eigen::Matrix<double, 6, 1>& V, TwistFrame frame,
                                           double dt, Eigen::VectorXd* qdot) {
  if (q.size() != n_ || !(dt > 0.0)) {
    throw std::invalid_argument("DifferentialIk::Solve: q must have n entries and dt > 0");
  }
  if (qdot->size() != n_) qdot->resize(n_);  // allocates only on the first call with a new vector
  const DifferentialIkConfig& c = config_;
  DifferentialIkResult result;

  // Weighted Jacobian and twist. The weights are per block scalars, so ‖W(J q̇ − V)‖ is the same
  // in world or tool axes: the frame only changes how V is read.
  CalcToolJacobian(data, frame, J_);
  J_.topRows<3>() *= c.rotation_weight;
  J_.bottomRows<3>() *= c.translation_weight;
  Eigen::Matrix<double, 6, 1> WV;
  WV.head<3>() = c.rotation_weight * V.head<3>();
  WV.tail<3>() = c.translation_weight * V.tail<3>();

  // Smallest singular value of W J from the smaller Gram matrix (6 × 6, or n × n if n < 6).
  SmallMatrix gram;
  if (n_ >= 6) {
    gram.noalias() = J_ * J_.transpose();
  } else {
    gram.noalias() = J_.transpose() * J_;
  }
  Eigen::SelfAdjointEigenSolver<SmallMatrix> eig(gram, Eigen::EigenvaluesOnly);
  const double sigma_min = std::sqrt(std::max(eig.eigenvalues().minCoeff(), 0.0));
  result.min_singular_value = sigma_min;
  double lambda2 = c.damping * c.damping;
  if (sigma_min < c.singular_value_threshold) {
    const double r = sigma_min / c.singular_value_threshold;
    lambda2 += c.adaptive_damping * c.adaptive_damping * (1.0 - r * r);
  }
  result.damping = std::sqrt(lambda2);

  const bool has_posture = c.posture.size() != 0 && c.posture_weight > 0.0;
  const double w = has_posture ? c.posture_weight : 0.0;
  if (has_posture) {
    posture_velocity_ = c.posture_gain * (c.posture - q);
  } else {
    posture_velocity_.setZero();
  }

  // ½ q̇ᵀ H q̇ + gᵀ q̇ is half the cost up to a constant.
  H_.noalias() = J_.transpose() * J_;
  // The floor keeps H SPD if the posture weight was tuned to 0 at run time with λ = 0.
  H_.diagonal().array() += std::max(lambda2 + w, 1e-12);
  g_.noalias() = -J_.transpose() * WV;
  g_ -= w * posture_velocity_;

  // Bounds: velocity limits, and the speed toward a position limit ≤ k × distance (k ≤ 1/dt, so
  // q + dt q̇ stays inside). Clamping the position bounds into [−q̇_max, 0] / [0, q̇_max] keeps
  // the box non-empty when q is outside its limits: such a joint may only move back in.
  const double k = std::min(c.position_limit_gain, 1.0 / dt);
  for (int i = 0; i < n_; ++i) {
    const double vmax = c.velocity_limits.size() != 0 ? c.velocity_limits[i] : kInf;
    double lo = -vmax;
    double hi = vmax;
    if (c.position_lower.size() != 0 && std::isfinite(c.position_lower[i])) {
      lo = std::max(lo, std::min(-k * (q[i] - c.position_lower[i]), 0.0));
    }
    if (c.position_upper.size() != 0 && std::isfinite(c.position_upper[i])) {
      hi = std::min(hi, std::max(k * (c.position_upper[i] - q[i]), 0.0));
    }
    if (c.acceleration_limits.size() != 0) {
      // Intersect with the acceleration box around the previous command, but never beyond
      // the hard bounds: clamping into [lo, hi] keeps the box non-empty and lets the position
      // and velocity limits win a conflict.
      const double dv = c.acceleration_limits[i] * dt;
      const double lo_acc = std::clamp(warm_start_[i] - dv, lo, hi);
      const double hi_acc = std::clamp(warm_start_[i] + dv, lo, hi);
      lo = lo_acc;
      hi = hi_acc;
    }
    lower_[i] = lo;
    upper_[i] = hi;
  }

  result.qp = qp_.Solve(H_, g_, lower_, upper_, warm_start_, /*warm_start=*/true);
  if (!result.qp.converged()) {
    spdlog::warn("DifferentialIk: box QP did not converge (status {}, {} iterations)",
                 static_cast<int>(result.qp.status), result.qp.iterations);
    if (result.qp.status == BoxQpStatus::kInvalidBounds) warm_start_.setZero();
  }
  result.num_limited = result.qp.num_active;
  *qdot = warm_start_;
  return result;
}

void DifferentialIk::IntegrateTargets(const Eigen::VectorXd& qdot, double dt,
                                      Eigen::VectorXd* q_target) const {
  if (qdot.size() != n_ || q_target->size() != n_) {
    throw std::invalid_argument("DifferentialIk::IntegrateTargets: sizes must be n");
  }
  for (int i = 0; i < n_; ++i) {
    double qi = (*q_target)[i] + dt * qdot[i];
    // The QP bounds already keep q + dt q̇ inside; this only removes the rounding of the
    // multiply-add. A target that started outside is not snapped (it must not jump).
    if (config_.position_lower.size() != 0 && (*q_target)[i] >= config_.position_lower[i]) {
      qi = std::max(qi, config_.position_lower[i]);
    }
    if (config_.position_upper.size() != 0 && (*q_target)[i] <= config_.position_upper[i]) {
      qi = std::min(qi, config_.position_upper[i]);
    }
    (*q_target)[i] = qi;
  }
}

void DifferentialIk::GatherPositions(const Eigen::VectorXd& q_full, Eigen::VectorXd* q) const {
  if (q->size() != n_) q->resize(n_);
  for (int i = 0; i < n_; ++i) (*q)[i] = q_full[position_indices_[i]];
}

void DifferentialIk::ScatterPositions(const Eigen::VectorXd& q, Eigen::VectorXd* q_full) const {
  for (int i = 0; i < n_; ++i) (*q_full)[position_indices_[i]] = q[i];
}

}  // namespace contactlab
