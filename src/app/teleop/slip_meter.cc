#include "app/teleop/slip_meter.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "app/teleop/teleop_controller.h"

namespace contactlab {

namespace {

// The angle of a rotation [rad], from its quaternion: 2 atan2(‖q_xyz‖, |q_w|) keeps full relative
// precision for the tiny angles of a step (acos of the trace would lose it near 0).
double RotationAngle(const Eigen::Matrix3d& R) {
  const Eigen::Quaterniond q(R);
  return 2 * std::atan2(q.vec().norm(), std::abs(q.w()));
}

// Per scene body: 1 if it is `hand` or hangs from it (its parent chain reaches `hand`).
std::vector<char> HandSubtree(const SceneSpec& scene, int hand) {
  std::vector<char> in_hand(scene.bodies.size(), 0);
  if (hand < 0) return in_hand;
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    for (int b = static_cast<int>(i); b >= 0; b = scene.bodies[b].parent_scene_index) {
      if (b == hand) {
        in_hand[i] = 1;
        break;
      }
    }
  }
  return in_hand;
}

}  // namespace

int DefaultSlipHand(const SceneSpec& scene) {
  if (scene.held_object) return scene.held_object->hand;
  const std::optional<TeleopConfig> teleop = FindTeleopConfig(scene);
  return teleop ? teleop->hand_body : -1;
}

SlipMeter::SlipMeter(const World& world, int body, int hand) {
  const int n = static_cast<int>(world.scene().bodies.size());
  if (body < 0 || body >= n || hand < -1 || hand >= n) {
    throw std::invalid_argument(
        fmt::format("slip meter: body {} or hand {} is not one of the scene's {}", body, hand, n));
  }
  reading_.body = body;
  reading_.hand = hand;
  in_hand_ = HandSubtree(world.scene(), hand);
  touching_.assign(in_hand_.size(), 0);
  Restart(world);
}

void SlipMeter::Restart(const World& world) {
  if (reading_.body < 0) return;
  const int body = reading_.body, hand = reading_.hand;
  reading_ = SlipReading{};
  reading_.body = body;
  reading_.hand = hand;
  reading_.time_s = world.time();
  reading_.X_HB = RelativePose(world);
  p_HB_start_ = reading_.X_HB.translation();
  reading_.hand_bodies_touching = CountHandBodiesTouching(world);
  reading_.held = reading_.hand_bodies_touching >= 2;
  if (reading_.held) CloseGrasp(world.time());
}

void SlipMeter::Observe(const World& world) {
  if (reading_.body < 0) return;
  const double step_s = world.time() - reading_.time_s;
  if (!(step_s > 0)) {
    Restart(world);
    return;
  }
  SlipReading& r = reading_;
  const Eigen::Isometry3d X_HB = RelativePose(world);
  const Eigen::Vector3d dp_H = X_HB.translation() - r.X_HB.translation();
  const double angle_rad = RotationAngle(r.X_HB.linear().transpose() * X_HB.linear());
  r.v_slip_H = dp_H / step_s;
  r.w_slip_rad_per_s = angle_rad / step_s;
  r.step_s = step_s;
  r.has_slip = true;
  const bool was_held = r.held;
  r.hand_bodies_touching = CountHandBodiesTouching(world);
  r.held = r.hand_bodies_touching >= 2;
  r.held_through_step = was_held && r.held;
  r.X_HB = X_HB;
  r.time_s = world.time();
  if (r.held && !was_held) CloseGrasp(world.time());
  if (r.held_through_step) {
    r.creep_path_m += dp_H.norm();
    r.creep_angle_rad += angle_rad;
  }
  if (r.held) r.creep_displacement_m = (X_HB.translation() - p_HB_closed_).norm();
  r.drift_m = (X_HB.translation() - p_HB_start_).norm();
  if (!r.held) r.held_since_s = -1;
}

// A new grasp: its creep starts from B's pose now.
void SlipMeter::CloseGrasp(double time_s) {
  reading_.held_since_s = time_s;
  reading_.creep_path_m = reading_.creep_angle_rad = reading_.creep_displacement_m = 0;
  p_HB_closed_ = reading_.X_HB.translation();
}

Eigen::Isometry3d SlipMeter::RelativePose(const World& world) const {
  const Eigen::Isometry3d X_WB = world.BodyPose(reading_.body);
  if (reading_.hand < 0) return X_WB;
  return world.BodyPose(reading_.hand).inverse(Eigen::Isometry) * X_WB;
}

int SlipMeter::CountHandBodiesTouching(const World& world) {
  std::fill(touching_.begin(), touching_.end(), 0);
  const int body = reading_.body;
  int count = 0;
  for (const ContactResult& c : world.contacts()) {
    if (c.normal_force_W.squaredNorm() == 0) continue;
    const int other = c.body_a == body ? c.body_b : c.body_b == body ? c.body_a : -1;
    if (other < 0 || !in_hand_[other] || touching_[other]) continue;
    touching_[other] = 1;
    ++count;
  }
  return count;
}

}  // namespace contactlab
