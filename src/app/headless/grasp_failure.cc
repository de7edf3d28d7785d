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

GraspFailureMonitor::GraspFailureMonitor(const World& world, const HeldObjectSpec& held)
    : held_(held),
      held_name_(world.scene().bodies[held.body].body.name),
      detector_(GraspPointInHand(world.scene(), held.hand), world.BodyPose(held.hand),
                world.BodyPose(held.body)) {}

void GraspFailureMonitor::Observe(const World& world) {
  detector_.Observe(world.time(), world.BodyPose(held_.hand), world.BodyPose(held_.body));
}

void GraspFailureMonitor::Report(JsonWriter* json) const {
  json->String("held_body", held_name_)
      .Bool("failed", detector_.failed())
      .Number("time_to_failure", detector_.time_to_failure())
      .Number("max_grasp_slip", detector_.max_slip_m())
      .Number("final_grasp_slip", detector_.slip_m())
      .Number("max_rock_angle", detector_.max_rock_rad());
}

}  // namespace contactlab
