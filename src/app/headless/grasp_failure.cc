#include "app/headless/grasp_failure.h"

#include <algorithm>

#include "app/teleop/teleop_controller.h"

namespace contactlab {

namespace {

// The tool point (midway between the pads) when the hand is a teleoperated Panda's, else the
// hand's origin.
Eigen::Vector3d GraspPointInHand(const SceneSpec& scene, int hand) {
  const std::optional<TeleopConfig> config = FindTeleopConfig(scene);
  if (config && config->hand_body == hand) return config->X_HandTcp.translation();
  return Eigen::Vector3d::Zero();
}

}  // namespace

GraspFailureDetector::GraspFailureDetector(const Eigen::Vector3d& p_HG,
                                           const Eigen::Isometry3d& X_WH0,
                                           const Eigen::Isometry3d& X_WO0, double threshold_m)
    : p_HG_(p_HG), threshold_m_(threshold_m) {
  const Eigen::Isometry3d X_HO0 = X_WH0.inverse() * X_WO0;
  p_OG_ = X_HO0.inverse() * p_HG;
  R_HO0_ = X_HO0.linear();
}

void GraspFailureDetector::Observe(double t, const Eigen::Isometry3d& X_WH,
                                   const Eigen::Isometry3d& X_WO) {
  last_time_ = t;
  const Eigen::Isometry3d X_HO = X_WH.inverse() * X_WO;
  slip_m_ = (X_HO * p_OG_ - p_HG_).norm();
  max_rock_rad_ =
      std::max(max_rock_rad_, Eigen::AngleAxisd(X_HO.linear() * R_HO0_.transpose()).angle());
  if (failed_) return;
  max_slip_m_ = std::max(max_slip_m_, slip_m_);
  if (slip_m_ > threshold_m_) {
    failed_ = true;
    failure_time_ = t;
  }
}

GraspFailureDetector MakeGraspFailureDetector(const World& world, const HeldObjectSpec& held) {
  return GraspFailureDetector(GraspPointInHand(world.scene(), held.hand), world.BodyPose(held.hand),
                              world.BodyPose(held.body));
}

}  // namespace contactlab
