#include "engine/world/world_model.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace contactlab {

WorldModel::WorldModel(std::shared_ptr<const SceneSpec> scene) : scene_(std::move(scene)) {
  if (!scene_) throw std::invalid_argument("WorldModel: no scene");
  ValidateScene(*scene_);
  BuildMultibody();
  SetInitialState();
  for (size_t i = 0; i < scene_->bodies.size(); ++i) {
    const std::vector<GeometrySpec>& body_geometries = scene_->bodies[i].geometries;
    for (size_t k = 0; k < body_geometries.size(); ++k) {
      geometries_.push_back({&body_geometries[k], static_cast<int>(i), static_cast<int>(k)});
    }
  }
}

void WorldModel::BuildMultibody() {
  scene_to_multibody_.assign(scene_->bodies.size(), -1);
  for (size_t i = 0; i < scene_->bodies.size(); ++i) {
    const SceneBody& sb = scene_->bodies[i];
    if (sb.kind != SceneBody::Kind::kDynamic) continue;
    BodySpec spec = sb.body;
    spec.parent = sb.parent_scene_index < 0 ? -1 : scene_to_multibody_[sb.parent_scene_index];
    scene_to_multibody_[i] = multibody_.AddBody(spec);
  }
  multibody_.Finalize();
  movable_.assign(scene_->bodies.size(), false);
  for (size_t i = 0; i < scene_->bodies.size(); ++i) {
    const int b = scene_to_multibody_[i];
    if (b < 0) continue;
    const int parent = scene_->bodies[i].parent_scene_index;
    movable_[i] = multibody_.joint_num_velocities(b) > 0 || (parent >= 0 && movable_[parent]);
  }
}

void WorldModel::SetInitialState() {
  q_initial_ = multibody_.DefaultPositions();
  v_initial_ = Eigen::VectorXd::Zero(multibody_.num_velocities());
  for (size_t i = 0; i < scene_->bodies.size(); ++i) {
    const SceneBody& sb = scene_->bodies[i];
    const int b = scene_to_multibody_[i];
    if (b < 0) continue;
    const int nv = multibody_.joint_num_velocities(b);
    if (sb.body.joint == JointType::kFloating) {
      multibody_.SetFloatingPose(b, sb.initial_pose, &q_initial_);
    } else if (multibody_.joint_num_positions(b) == 1) {
      q_initial_[multibody_.position_start(b)] = sb.initial_position;
    }
    if (nv > 0 && sb.initial_velocity.size() == nv) {
      v_initial_.segment(multibody_.velocity_start(b), nv) = sb.initial_velocity;
    } else if (nv > 0 && sb.initial_velocity.size() != 0) {
      throw std::invalid_argument("body '" + sb.body.name + "': velocity needs " +
                                  std::to_string(nv) + " entries");
    }
  }
}

Eigen::Isometry3d WorldModel::BodyPose(int scene_body, const MultibodyData& data, double t) const {
  const SceneBody& sb = scene_->bodies[scene_body];
  const int b = scene_to_multibody_[scene_body];
  if (b >= 0) return data.X_WB[b];
  if (sb.kind == SceneBody::Kind::kKinematic) {
    Eigen::Isometry3d X = sb.initial_pose;
    X.pretranslate(sb.motion.Displacement(t) * sb.motion.axis);
    return X;
  }
  return sb.initial_pose;
}

Eigen::Vector3d WorldModel::KinematicStepVelocity(int scene_body, double t0, double dt_s) const {
  const SceneBody& sb = scene_->bodies[scene_body];
  if (sb.kind != SceneBody::Kind::kKinematic) return Eigen::Vector3d::Zero();
  return (sb.motion.Displacement(t0 + dt_s) - sb.motion.Displacement(t0)) / dt_s * sb.motion.axis;
}

bool WorldModel::CanCollide(int i, int j) const {
  const int bi = geometries_[i].scene_body, bj = geometries_[j].scene_body;
  if (bi == bj) return false;
  if (!movable_[bi] && !movable_[bj]) return false;
  const SceneBody& si = scene_->bodies[bi];
  const SceneBody& sj = scene_->bodies[bj];
  if (si.kind == SceneBody::Kind::kDynamic && si.parent_scene_index == bj) return false;
  if (sj.kind == SceneBody::Kind::kDynamic && sj.parent_scene_index == bi) return false;
  return true;
}

}  // namespace contactlab
