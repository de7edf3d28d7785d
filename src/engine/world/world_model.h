// The model a World steps: the scene description compiled once into the multibody of its
// dynamic bodies and the index maps the step stages use. Immutable once built, like MuJoCo's
// mjModel next to its mjData: what changes while running is in WorldInputs and the state.
#pragma once

#include <Eigen/Geometry>
#include <memory>
#include <vector>

#include "engine/multibody/multibody.h"
#include "engine/world/scene_spec.h"

namespace contactlab {

// A collision geometry, flattened over bodies in scene order.
struct GeometryInstance {
  const GeometrySpec* spec = nullptr;  // scene().bodies[scene_body].geometries[index_in_body]
  int scene_body = -1;
  int index_in_body = -1;
};

class WorldModel {
 public:
  // Throws std::invalid_argument on an invalid scene (ValidateScene and the multibody's checks).
  // The scene is shared, never changed: readers (snapshots) may hold it beyond the model.
  explicit WorldModel(std::shared_ptr<const SceneSpec> scene);
  WorldModel(const WorldModel&) = delete;
  WorldModel& operator=(const WorldModel&) = delete;

  const SceneSpec& scene() const { return *scene_; }
  const std::shared_ptr<const SceneSpec>& shared_scene() const { return scene_; }
  const Multibody& multibody() const { return multibody_; }
  int num_bodies() const { return static_cast<int>(scene_->bodies.size()); }
  // Scene body index → multibody body index (−1 for static and kinematic bodies).
  int multibody_index(int scene_body) const { return scene_to_multibody_[scene_body]; }
  // True when some joint between the body and the world has a degree of freedom: a robot's
  // base welded to the world is in a tree with dofs but cannot move, and a contact between it
  // and the static ground would be a constraint on nothing.
  bool movable(int scene_body) const { return movable_[scene_body]; }
  int num_geometries() const { return static_cast<int>(geometries_.size()); }
  const GeometryInstance& geometry(int g) const { return geometries_[g]; }
  const Eigen::VectorXd& initial_positions() const { return q_initial_; }
  const Eigen::VectorXd& initial_velocities() const { return v_initial_; }

  // Pose of a scene body: the multibody's kinematics for a dynamic body, the prescribed motion
  // at time t for a kinematic one, the initial pose for a static one.
  Eigen::Isometry3d BodyPose(int scene_body, const MultibodyData& data, double t) const;
  // The mean velocity of a kinematic body over [t0, t0 + δt] (zero for other bodies): what the
  // symplectic Euler step that ends at s(t0 + δt) moves with, so a box stuck to a belt follows
  // the belt's prescribed positions exactly (the analytic velocity at either end would drift by
  // a·δt/2). Prescribed motion is a pure translation: every point of the body moves alike.
  Eigen::Vector3d KinematicStepVelocity(int scene_body, double t0, double dt_s) const;
  // Whether two geometries may exchange contact forces: on different bodies, at least one of
  // them movable, and not a body and its joint parent (they overlap by construction).
  bool CanCollide(int geometry_i, int geometry_j) const;

 private:
  void BuildMultibody();
  void SetInitialState();

  const std::shared_ptr<const SceneSpec> scene_;
  Multibody multibody_;
  std::vector<int> scene_to_multibody_;
  std::vector<bool> movable_;
  std::vector<GeometryInstance> geometries_;
  Eigen::VectorXd q_initial_, v_initial_;
};

}  // namespace contactlab
