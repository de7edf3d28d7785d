#include "app/teleop/teleop_controller.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "app/teleop/teleop_program.h"
#include "engine/control/panda_arm.h"
#include "io/scene_loader.h"

namespace contactlab {

namespace {

// Rotation vector of R (axis · angle, |angle| ≤ π).
Eigen::Vector3d RotationVector(const Eigen::Matrix3d& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

// Clamps the norm of v to at most `max`.
Eigen::Vector3d ClampNorm(const Eigen::Vector3d& v, double max) {
  const double n = v.norm();
  return n > max ? Eigen::Vector3d(v * (max / n)) : v;
}

// The coupler that makes `follower` follow `leader` (docs/contact-model.md §3.2), or null.
const CouplerSpec* FindCoupler(const SceneSpec& scene, int follower, int leader) {
  for (const CouplerSpec& c : scene.couplers) {
    if (c.body_a == follower && c.body_b == leader) return &c;
  }
  return nullptr;
}

void CheckPdJoint(const World& world, int scene_body, const char* what) {
  const SceneSpec& scene = world.scene();
  if (scene_body < 0 || scene_body >= static_cast<int>(scene.bodies.size())) {
    throw std::invalid_argument(
        fmt::format("teleop: {} body index {} is out of range", what, scene_body));
  }
  const SceneBody& sb = scene.bodies[scene_body];
  const int b = world.multibody_index(scene_body);
  if (b < 0 || world.multibody().joint_num_velocities(b) != 1 || !sb.pd) {
    throw std::invalid_argument(fmt::format(
        "teleop: {} body '{}' is not a 1-dof joint with a PD controller", what, sb.body.name));
  }
}

// The scene's grip-force and joint programs (teleop.grip_force, teleop.joint_sines) into
// `config`.
TeleopConfig WithPrograms(const SceneSpec& scene, TeleopConfig config) {
  config.joint_sines = scene.teleop.joint_sines;
  if (scene.teleop.grip_force_N) config.grip_force_N = *scene.teleop.grip_force_N;
  config.grip_force_program = scene.teleop.grip_force_square_wave;
  if (config.grip_force_program) config.grip_force_N = GripForceAt(*config.grip_force_program, 0);
  config.grip_force_N = std::min(config.grip_force_N, config.max_grip_force_N);
  return config;
}

// The Panda's configuration (FindTeleopConfig), before the scene's programs.
std::optional<TeleopConfig> FindPandaConfig(const SceneSpec& scene, const std::string& prefix) {
  TeleopConfig c;
  for (int i = 1; i <= PandaArm::kNumJoints; ++i) {
    const int b = scene.FindBody(fmt::format("{}panda_link{}", prefix, i));
    if (b < 0 || !scene.bodies[b].pd) return std::nullopt;
    c.arm_bodies.push_back(b);
  }
  c.hand_body = scene.FindBody(prefix + "panda_hand");
  if (c.hand_body < 0) return std::nullopt;
  // The left finger is driven; the right one mimics it (a coupler, assets/robots/panda.urdf).
  const int left = scene.FindBody(prefix + "panda_leftfinger");
  const int right = scene.FindBody(prefix + "panda_rightfinger");
  if (left < 0 || !scene.bodies[left].pd || !FindCoupler(scene, right, left)) return std::nullopt;
  c.finger_bodies = {left, right};
  // Finger joints at 0.0584 m along the hand z; pad centres 0.0255 m further.
  c.X_HandTcp.translation() = Eigen::Vector3d(0, 0, 0.0584 + 0.0255);
  c.finger_open_m = 0.04;
  c.finger_closed_m = 0.0;
  if (scene.bodies[left].initial_position < 0.5 * c.finger_open_m) c.initial_grip = 1.0;
  c.velocity_limits = PandaArm::VelocityLimits();
  c.acceleration_limits = PandaArm::AccelerationLimits();
  return c;
}

// A prismatic joint of a body that hangs from `parent`.
bool IsPrismaticChildOf(const SceneBody& b, int parent) {
  return b.kind == SceneBody::Kind::kDynamic && b.body.joint == JointType::kPrismatic &&
         b.parent_scene_index == parent;
}

}  // namespace

std::optional<TeleopConfig> FindTeleopConfig(const SceneSpec& scene, const std::string& prefix) {
  std::optional<TeleopConfig> c = FindPandaConfig(scene, prefix);
  if (!c && prefix.empty()) c = FindFixedGripperConfig(scene);
  if (!c) return std::nullopt;
  return WithPrograms(scene, *std::move(c));
}

std::optional<TeleopConfig> FindFixedGripperConfig(const SceneSpec& scene) {
  for (const CouplerSpec& coupler : scene.couplers) {
    const int follower = coupler.body_a, leader = coupler.body_b;
    if (leader < 0 || follower < 0 || !scene.bodies[leader].pd) continue;
    const int hand = scene.bodies[leader].parent_scene_index;
    if (hand < 0 || scene.bodies[hand].body.joint != JointType::kWeld ||
        scene.bodies[hand].parent_scene_index >= 0 ||
        !IsPrismaticChildOf(scene.bodies[leader], hand) ||
        !IsPrismaticChildOf(scene.bodies[follower], hand)) {
      continue;
    }
    TeleopConfig c;
    c.hand_body = hand;
    c.finger_bodies = {leader, follower};
    const SceneBody& finger = scene.bodies[leader];
    if (finger.limits) {
      c.finger_closed_m = finger.limits->first;
      c.finger_open_m = finger.limits->second;
    }
    const double open = c.finger_open_m - c.finger_closed_m;
    if (finger.initial_position - c.finger_closed_m < 0.5 * open) c.initial_grip = 1.0;
    if (finger.pd->effort_limit < 1e4) c.max_grip_force_N = finger.pd->effort_limit;
    return c;
  }
  return std::nullopt;
}

TeleopController::TeleopController(const World& world, TeleopConfig config)
    : config_(std::move(config)) {
  const SceneSpec& scene = world.scene();
  const Multibody& model = world.multibody();
  const int n = static_cast<int>(config_.arm_bodies.size());
  for (int b : config_.arm_bodies) CheckPdJoint(world, b, "arm joint");
  // The leader's drive carries every finger's squeeze: with the followers coupled by ratios
  // ρ_i, virtual work gives a drive force (1 + Σ|ρ_i|) × the squeeze of each.
  if (!config_.finger_bodies.empty()) {
    const int leader = config_.finger_bodies.front();
    CheckPdJoint(world, leader, "finger");
    drive_per_grip_force_ = 1;
    for (size_t i = 1; i < config_.finger_bodies.size(); ++i) {
      const CouplerSpec* coupler = FindCoupler(scene, config_.finger_bodies[i], leader);
      if (!coupler) {
        throw std::invalid_argument(
            "teleop: every finger after the first must be coupled to it (URDF <mimic>)");
      }
      drive_per_grip_force_ += std::abs(coupler->parameters.gear_ratio);
    }
  }
  if (config_.hand_body < 0 || config_.hand_body >= static_cast<int>(scene.bodies.size()) ||
      world.multibody_index(config_.hand_body) < 0) {
    throw std::invalid_argument("teleop: the hand must be a body of the robot's multibody");
  }
  if (!(config_.grip_force_N > 0) || !(config_.max_grip_force_N >= config_.grip_force_N)) {
    throw std::invalid_argument("teleop: need 0 < grip_force_N <= max_grip_force_N");
  }
  grip_force_.store(config_.grip_force_N);
  grip_latched_ = config_.initial_grip.has_value();
  ShowInitialGrip();
  q_target_.resize(n);
  qdot_ = Eigen::VectorXd::Zero(n);
  if (n == 0 && !config_.joint_sines.empty()) {
    throw std::invalid_argument("teleop.joint_sines: the robot has no arm joints to drive");
  }
  if (n == 0) {  // a fixed hand: no IK, the target is where the tool is
    target_tcp_W_ = state_.target_tcp_W = state_.tcp_W = MeasuredToolPose(world);
    state_.grip_force_N = grip_force();
    return;
  }

  DifferentialIkConfig ik;
  ik.end_effector_body = world.multibody_index(config_.hand_body);
  ik.X_BT = config_.X_HandTcp;
  ik.position_lower.resize(n);
  ik.position_upper.resize(n);
  for (int i = 0; i < n; ++i) {
    const int scene_body = config_.arm_bodies[i];
    const SceneBody& sb = scene.bodies[scene_body];
    const int b = world.multibody_index(scene_body);
    ik.velocity_indices.push_back(model.velocity_start(b));
    arm_position_indices_.push_back(model.position_start(b));
    ik.position_lower[i] = sb.limits ? sb.limits->first : -std::numeric_limits<double>::infinity();
    ik.position_upper[i] = sb.limits ? sb.limits->second : std::numeric_limits<double>::infinity();
    q_target_[i] = world.inputs().pd[scene_body]->q_desired;
  }
  for (const TeleopProgramSpec::JointSine& sine : config_.joint_sines) {
    const auto arm = std::find(config_.arm_bodies.begin(), config_.arm_bodies.end(), sine.body);
    if (arm == config_.arm_bodies.end()) {
      throw std::invalid_argument(
          fmt::format("teleop.joint_sines: '{}' is not one of the arm's joints",
                      scene.bodies.at(sine.body).body.name));
    }
    joint_program_.push_back({static_cast<int>(arm - config_.arm_bodies.begin()),
                              scene.bodies[sine.body].initial_position, sine});
  }
  held_targets_.resize(n);
  for (int i = 0; i < n; ++i) held_targets_[i] = scene.bodies[config_.arm_bodies[i]].pd->q_desired;
  ik.velocity_limits = config_.velocity_limits;
  ik.acceleration_limits = config_.acceleration_limits;
  ik.posture = config_.posture.size() == n ? config_.posture : q_target_;
  ik_ = std::make_unique<DifferentialIk>(model, std::move(ik));  // validates the rest
  target_data_ = std::make_unique<MultibodyData>(model);
  v_zero_ = Eigen::VectorXd::Zero(model.num_velocities());

  q_full_ = world.q();
  for (int i = 0; i < n; ++i) q_full_[arm_position_indices_[i]] = q_target_[i];
  model.UpdateKinematics(q_full_, v_zero_, target_data_.get());
  target_tcp_W_ = ik_->CalcToolPose(*target_data_);
  state_.target_tcp_W = target_tcp_W_;
  state_.tcp_W = ik_->CalcToolPose(world.data());
  state_.grip_force_N = grip_force();
}

TeleopController::~TeleopController() = default;

void TeleopController::Reset(const World& world) {
  const int n = static_cast<int>(q_target_.size());
  for (int i = 0; i < n; ++i) q_target_[i] = world.q()[arm_position_indices_[i]];
  qdot_.setZero();
  if (ik_) {
    ik_->Reset();
    q_full_ = world.q();
    world.multibody().UpdateKinematics(q_full_, v_zero_, target_data_.get());
    target_tcp_W_ = ik_->CalcToolPose(*target_data_);
  } else {
    target_tcp_W_ = MeasuredToolPose(world);
  }
  applied_grip_force_ = applied_finger_target_ = -1;
  planned_ = PlannedStep{};
  follow_program_.store(true, std::memory_order_relaxed);
  if (config_.grip_force_program) ApplyGripProgram(world.time());
  grip_latched_ = config_.initial_grip.has_value();
  latched_device_grip_ = -1;
  ShowInitialGrip();
  state_.ik_failures = 0;
  state_.target_tcp_W = target_tcp_W_;
}

void TeleopController::SetGripForce(double newtons) {
  if (!std::isfinite(newtons)) return;
  grip_force_.store(std::clamp(newtons, 1e-3, config_.max_grip_force_N), std::memory_order_relaxed);
}

void TeleopController::FollowGripProgram(bool follow) {
  follow_program_.store(follow, std::memory_order_relaxed);
}

// The program's force at the step's start time, while followed.
void TeleopController::ApplyGripProgram(double t_s) {
  if (!following_grip_program()) return;
  SetGripForce(GripForceAt(*config_.grip_force_program, t_s));
}

// The hand's measured pose times X_HandTcp (what DifferentialIk::CalcToolPose computes).
Eigen::Isometry3d TeleopController::MeasuredToolPose(const World& world) const {
  return world.data().X_WB[world.multibody_index(config_.hand_body)] * config_.X_HandTcp;
}

TeleopCommand TeleopController::InWorldAxes(const TeleopCommand& command) const {
  TeleopCommand c = command;
  if (c.frame == CommandFrame::kTool) {
    c.linear_m_per_s = target_tcp_W_.linear() * command.linear_m_per_s;
    c.angular_rad_per_s = target_tcp_W_.linear() * command.angular_rad_per_s;
  }
  c.frame = CommandFrame::kWorld;
  return c;
}

// Before the first step the state already shows the grip in force (a scene's latch: closed).
void TeleopController::ShowInitialGrip() {
  state_.grip_latched = grip_latched_;
  state_.command.grip = grip_latched_ ? std::clamp(*config_.initial_grip, 0.0, 1.0) : 0.0;
}

// The device's grip, or the scene's latched one until the device's grip changes.
double TeleopController::LatchedGrip(double device_grip) {
  if (!grip_latched_) return device_grip;
  if (latched_device_grip_ < 0) latched_device_grip_ = device_grip;
  if (device_grip != latched_device_grip_) {
    grip_latched_ = false;
    return device_grip;
  }
  return std::clamp(*config_.initial_grip, 0.0, 1.0);
}

// The command as applied: grip in [0, 1] (or latched), non-finite twists zeroed, speeds clamped.
TeleopCommand TeleopController::ClampCommand(const TeleopCommand& command) {
  TeleopCommand c = command;
  c.grip = LatchedGrip(std::isfinite(c.grip) ? std::clamp(c.grip, 0.0, 1.0) : 0.0);
  if (!c.linear_m_per_s.allFinite()) c.linear_m_per_s.setZero();
  if (!c.angular_rad_per_s.allFinite()) c.angular_rad_per_s.setZero();
  c.linear_m_per_s = ClampNorm(c.linear_m_per_s, config_.max_linear_speed_m_per_s);
  c.angular_rad_per_s = ClampNorm(c.angular_rad_per_s, config_.max_angular_speed_rad_per_s);
  return c;
}

// The target TCP pose moves by the twist (ω, v) in world axes over δt.
void TeleopController::IntegrateTargetPose(const Eigen::Vector3d& w, const Eigen::Vector3d& v,
                                           double dt) {
  target_tcp_W_.translation() += dt * v;
  if (w.squaredNorm() > 0) {
    const Eigen::Matrix3d R = Eigen::AngleAxisd(w.norm() * dt, w.normalized()).toRotationMatrix() *
                              target_tcp_W_.linear();
    target_tcp_W_.linear() = Eigen::Quaterniond(R).normalized().toRotationMatrix();
  }
}

// Error control (docs/contact-model.md §1.2) may end a step before its planned end (attempts
// rejected inside World::Step): the targets were integrated to the planned end, so the part
// of the twist past the step's actual end is taken back before the next step's, and what the
// target pose and joint targets integrate is the command over the time actually stepped (as
// ButtonMotion counts what it executed). A time outside the last step (a reset, a restored
// record) takes nothing back; a fixed step ends exactly at its planned end (the same sum).
void TeleopController::TakeBackOvershoot(double t_s) {
  if (!(t_s > planned_.start_s && t_s < planned_.end_s)) return;
  const double overshoot_s = planned_.end_s - t_s;
  IntegrateTargetPose(-planned_.w, -planned_.v, overshoot_s);
  ik_->IntegrateTargets(qdot_, -overshoot_s, &q_target_);
}

// Closed-loop differential IK on the joint targets: the feed-forward twist plus a pull of the
// targets' tool pose towards the target pose (gain at most 0.5/δt), then the arm's PD targets,
// over the step's planned size `dt`.
DifferentialIkResult TeleopController::TrackTargetPose(const Eigen::Vector3d& w,
                                                       const Eigen::Vector3d& v, double dt,
                                                       World* world) {
  const int n = static_cast<int>(q_target_.size());
  q_full_ = world->q();
  for (int i = 0; i < n; ++i) q_full_[arm_position_indices_[i]] = q_target_[i];
  world->multibody().UpdateKinematics(q_full_, v_zero_, target_data_.get());
  const Eigen::Isometry3d X_target_fk = ik_->CalcToolPose(*target_data_);
  const double k = std::min(config_.pose_gain, 0.5 / dt);
  Eigen::Matrix<double, 6, 1> V;
  V.head<3>() = w + k * RotationVector(target_tcp_W_.linear() * X_target_fk.linear().transpose());
  V.tail<3>() = v + k * (target_tcp_W_.translation() - X_target_fk.translation());
  const DifferentialIkResult ik =
      ik_->Solve(*target_data_, q_target_, V, TwistFrame::kWorld, dt, &qdot_);
  if (!ik.ok()) {
    ++state_.ik_failures;
    if (state_.ik_failures == 1 || state_.ik_failures % 1000 == 0) {
      spdlog::warn("teleop: the IK did not converge at t = {:.3f} s ({} steps so far)",
                   world->time(), state_.ik_failures);
    }
  }
  ik_->IntegrateTargets(qdot_, dt, &q_target_);
  for (int i = 0; i < n; ++i) world->SetPdTarget(config_.arm_bodies[i], q_target_[i], qdot_[i]);
  return ik;
}

// The joint program at the step's planned end (TeleopConfig::joint_sines): the listed joints'
// sines, the other arm joints held at the scene's targets; the target pose shown is the tool's at
// those targets.
void TeleopController::DriveJointProgram(World* world) {
  const double t_end_s = world->time() + world->next_dt();
  q_target_ = held_targets_;
  qdot_.setZero();
  for (const ProgramJoint& j : joint_program_) {
    const JointTarget target = JointSineTarget(j.sine, j.q0, t_end_s);
    q_target_[j.arm_index] = target.q;
    qdot_[j.arm_index] = target.v;
  }
  const int n = static_cast<int>(q_target_.size());
  for (int i = 0; i < n; ++i) world->SetPdTarget(config_.arm_bodies[i], q_target_[i], qdot_[i]);
  q_full_ = world->q();
  for (int i = 0; i < n; ++i) q_full_[arm_position_indices_[i]] = q_target_[i];
  world->multibody().UpdateKinematics(q_full_, v_zero_, target_data_.get());
  target_tcp_W_ = ik_->CalcToolPose(*target_data_);
}

// Fingers: the leader's PD drives them all through the couplers, its effort limit the grip
// force times drive_per_grip_force_, so each finger squeezes with the grip force. Returns the
// finger target.
double TeleopController::DriveFingers(double grip, World* world) {
  const double finger_target =
      config_.finger_open_m + grip * (config_.finger_closed_m - config_.finger_open_m);
  const double force = grip_force();
  if (!config_.finger_bodies.empty()) {
    const int leader = config_.finger_bodies.front();
    if (finger_target != applied_finger_target_) world->SetPdTarget(leader, finger_target, 0.0);
    if (force != applied_grip_force_) {
      world->SetPdEffortLimit(leader, drive_per_grip_force_ * force);
    }
  }
  applied_finger_target_ = finger_target;
  applied_grip_force_ = force;
  return finger_target;
}

// The state the GUI shows: the command applied, targets, tracking errors, grip and IK health.
void TeleopController::FillState(const TeleopCommand& c, double finger_target,
                                 const DifferentialIkResult& ik, const World& world) {
  state_.command = c;
  state_.grip_latched = grip_latched_;
  state_.target_tcp_W = target_tcp_W_;
  state_.tcp_W = MeasuredToolPose(world);
  state_.position_error_m = (target_tcp_W_.translation() - state_.tcp_W.translation()).norm();
  state_.orientation_error_rad =
      RotationVector(target_tcp_W_.linear() * state_.tcp_W.linear().transpose()).norm();
  state_.grip_force_N = applied_grip_force_;
  state_.finger_target_m = finger_target;
  double opening = 0;
  for (int b : config_.finger_bodies) {
    opening += world.q()[world.multibody().position_start(world.multibody_index(b))];
  }
  state_.finger_opening_m =
      config_.finger_bodies.empty() ? 0 : opening / config_.finger_bodies.size();
  state_.ik_ok = !ik_ || drives_joints() || ik.ok();  // a fixed hand or a joint program: no IK
  state_.ik_min_singular_value = ik.min_singular_value;
  state_.ik_num_limited = ik.num_limited;
}

void TeleopController::Update(const TeleopCommand& command, World* world) {
  ApplyGripProgram(world->time());
  const TeleopCommand c = ClampCommand(command);
  DifferentialIkResult ik;
  if (drives_joints()) {
    DriveJointProgram(world);
  } else if (ik_) {
    TakeBackOvershoot(world->time());
    Eigen::Vector3d w = c.angular_rad_per_s, v = c.linear_m_per_s;
    if (c.frame == CommandFrame::kTool) {
      w = target_tcp_W_.linear() * w;
      v = target_tcp_W_.linear() * v;
    }
    // The step's planned size: δt, or error control's proposal (World::next_dt).
    const double dt = world->next_dt();
    IntegrateTargetPose(w, v, dt);
    ik = TrackTargetPose(w, v, dt, world);
    planned_ = {world->time(), world->time() + dt, w, v};
  } else {
    target_tcp_W_ = MeasuredToolPose(*world);  // a fixed hand: the twist is ignored
  }
  const double finger_target = DriveFingers(c.grip, world);
  FillState(c, finger_target, ik, *world);
}

}  // namespace contactlab
