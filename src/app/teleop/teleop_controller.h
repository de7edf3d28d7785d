// Teleoperation of a robot arm with a parallel gripper in a World (issue 4): each step, before
// World::Step, a TeleopCommand (TCP twist + grip) becomes PD targets for the arm joints and the
// fingers (docs/contact-model.md §3: PD with effort limit).
//
// Arm: the commanded twist is integrated into a target TCP pose X_WT*. Differential IK
// (engine/control/differential_ik.h) runs on the PD *targets* (open-loop in the measured state,
// so contact forces that push the arm back do not wind up the command) with a small pose
// feedback toward X_WT* (closed-loop IK on the targets: motion lost to joint, velocity or
// acceleration limits is recovered instead of drifting):
//   V_ik = V + k_pose · [log(R* R_T^T); p* − p_T]   (world frame),
//   q̇ = DifferentialIk(V_ik),  q_d += δt q̇,  World::SetPdTarget(joint, q_d, v_d = q̇),
// with δt the step's planned size (World::next_dt; under error control a step that ends early
// has the rest taken back at the next Update: TakeBackOvershoot).
// A gripper fixed to the world (no arm joints, issue 36) is teleoperated by its fingers only: the
// twist is ignored (no IK; the target TCP pose is the measured one).
// Fingers: the first ("leader") finger's PD gets the target opening
// q_f = (1 − grip) · open + grip · closed; the others follow it through couplers (the URDF's
// <mimic>, docs/contact-model.md §3.2), like the Panda's mechanical finger coupling. The leader's
// effort limit is (1 + Σ|ρ_i|) × the grip force [N] (a live setting, SetGripForce): closing on
// an object the drive saturates, and each finger squeezes it with exactly the grip force. (Two
// independently force-limited fingers would leave fingers + object a neutral sideways mode that
// drifts: 7 mm in 10 s measured.)
//
// Joint program (TeleopConfig::joint_sines, the scene's teleop.joint_sines; issue 38): instead
// of the IK, before every step the listed joints' PD targets are set to their sines at the
// step's planned end t + δt (the implicit PD compares its target with q at the step's end,
// docs/contact-model.md §3), q0 + A sin(ω(t + δt)) at the rate A ω cos(ω(t + δt)), and every
// other arm joint to the scene's PD target; twists are ignored (as for a fixed hand), the grip
// acts as always. A function of time only: Reset and a recorded step shown need nothing.
//
// Grip-force program (TeleopConfig::grip_force_program, the scene's teleop.grip_force square
// wave): while followed, the grip force is set from it at the start of every Update at the
// world's time (the step's start); SetGripForce does not stop it (the caller says
// FollowGripProgram(false), as the GUI's slider does); Reset follows it again.
//
// Threading: everything runs on the thread that steps the World, except SetGripForce,
// grip_force(), FollowGripProgram and following_grip_program(), which may be called from any
// thread (the GUI slider).
#pragma once

#include <Eigen/Geometry>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/teleop/grip_force_program.h"
#include "engine/control/differential_ik.h"
#include "engine/world/world.h"
#include "input/twist_command.h"

namespace contactlab {

struct TeleopConfig {
  // Scene bodies of the arm's 1-dof PD joints, base to tip; empty: the hand is fixed (a gripper
  // welded to the world), twists are ignored.
  std::vector<int> arm_bodies;
  int hand_body = -1;  // scene body the tool frame is fixed to (same tree)
  Eigen::Isometry3d X_HandTcp = Eigen::Isometry3d::Identity();  // TCP in the hand frame
  // Scene bodies of the finger joints: the first has a PD (the force-limited leader), the others
  // are coupled to it.
  std::vector<int> finger_bodies;
  double finger_open_m = 0.04;   // finger joint position at grip = 0
  double finger_closed_m = 0.0;  // finger joint position at grip = 1
  double grip_force_N = 30.0;    // initial finger effort limit
  // The scene's grip-force square wave (teleop.grip_force), followed from the start and after
  // every Reset until FollowGripProgram(false).
  std::optional<GripForceSquareWave> grip_force_program;
  // The scene's joint program (teleop.joint_sines; non-empty: it drives the arm instead of the
  // IK, above). Each joint must be one of arm_bodies.
  std::vector<TeleopProgramSpec::JointSine> joint_sines;
  // Grip latch: when set, this grip (0 open … 1 closed) is applied until the device's grip first
  // changes from the value it had at the first Update; from then on the device's grip rules.
  // So a scene that starts with an object in the hand keeps holding it when the device starts
  // "open" (the keyboard does); the first toggle to closed takes over without a visible change.
  std::optional<double> initial_grip;
  double max_grip_force_N = 70.0;  // SetGripForce clamps to (0, max]

  // Command limits (the twist is clamped before integration).
  double max_linear_speed_m_per_s = 0.5;
  double max_angular_speed_rad_per_s = 1.5;
  // Pose feedback of the closed-loop IK [1/s]; capped at 0.5/δt.
  double pose_gain = 10.0;
  // Joint limits for the IK (n each; empty: position limits from the scene, velocity and
  // acceleration limits unlimited). FindTeleopConfig fills the Panda's datasheet values.
  Eigen::VectorXd velocity_limits, acceleration_limits;
  Eigen::VectorXd posture;  // IK posture (n; empty: the initial targets)
};

// The configuration for a Franka Panda loaded from assets/robots/panda.urdf with `prefix`
// (bodies <prefix>panda_link1 … link7, <prefix>panda_hand, <prefix>panda_leftfinger and
// <prefix>panda_rightfinger). TCP: midway between the finger pads (0.0839 m along hand z).
// initial_grip = 1 when the scene starts with the fingers less than half open (an object held).
// Else a gripper fixed to the world (FindFixedGripperConfig). Either takes the scene's grip
// force program: teleop.grip_force's constant as grip_force_N (at most max_grip_force_N, the
// robot's), its square wave as grip_force_program; and its joint program (joint_sines).
// std::nullopt if the scene has no such robot, its joints lack PD controllers or the right finger
// is not coupled to the left one.
std::optional<TeleopConfig> FindTeleopConfig(const SceneSpec& scene,
                                             const std::string& prefix = "");

// A parallel gripper without an arm (issue 36): a hand welded to the world with two prismatic
// fingers, the first with a PD controller, the second coupled to it (URDF <mimic>), e.g.
// assets/robots/wsg50.urdf. No arm joints; TCP at the hand origin; open = the leader's upper
// limit, closed = its lower one (0.04 and 0 without limits); initial_grip = 1 when the scene
// starts it less than half open; the max grip force the leader's effort limit (the URDF's, if
// below 1e4 N; else 70 N). The first such pair in scene order; std::nullopt if none.
std::optional<TeleopConfig> FindFixedGripperConfig(const SceneSpec& scene);

// What the GUI shows (a copy; cheap).
struct TeleopState {
  Eigen::Isometry3d target_tcp_W = Eigen::Isometry3d::Identity();  // integrated command X_WT*
  Eigen::Isometry3d tcp_W = Eigen::Isometry3d::Identity();         // measured TCP pose
  double position_error_m = 0;                                     // ‖p* − p_T‖ (measured)
  double orientation_error_rad = 0;
  TeleopCommand command;        // last command applied (after clamping; the latched grip)
  bool grip_latched = false;    // the scene's initial grip holds (TeleopConfig::initial_grip)
  double grip_force_N = 0;      // finger effort limit in use
  double finger_target_m = 0;   // finger joint target
  double finger_opening_m = 0;  // measured: mean of the finger joint positions
  bool ik_ok = true;            // the last IK QP converged
  double ik_min_singular_value = 0;
  int ik_num_limited = 0;     // joints on a velocity/position/acceleration bound
  int ik_failures = 0;        // steps whose IK QP did not converge (since Reset)
  std::string device_status;  // set by the caller (SetDeviceStatus), e.g. "replay 2.1/5.0 s"
};

class TeleopController {
 public:
  // Throws std::invalid_argument when the config does not fit the world (bodies without PD
  // controllers, different trees, ...). Targets start at the scene's PD targets.
  TeleopController(const World& world, TeleopConfig config);
  ~TeleopController();

  // `command` with its twist in world axes (a tool-frame twist rotated by the current target
  // orientation, exactly as Update will), frame = kWorld: what a recording stores so that its
  // replay reproduces the session bit for bit whatever frame the live device used.
  TeleopCommand InWorldAxes(const TeleopCommand& command) const;
  // Applies `command` for the coming step: call right before world->Step().
  void Update(const TeleopCommand& command, World* world);
  // Targets back to the world's current state (call after World::Reset, or when re-engaging).
  void Reset(const World& world);

  // Live grip force [N] (finger effort limit), clamped to (0, max_grip_force_N]. Thread-safe;
  // takes effect at the next Update (unless the program, still followed, sets it there).
  void SetGripForce(double newtons);
  // Whether Update takes the grip force from config().grip_force_program (no effect without
  // one). Thread-safe.
  void FollowGripProgram(bool follow);
  bool following_grip_program() const {
    return config_.grip_force_program && follow_program_.load(std::memory_order_relaxed);
  }
  double grip_force() const { return grip_force_.load(std::memory_order_relaxed); }
  // The scene's joint program drives the arm (TeleopConfig::joint_sines): twists are ignored.
  bool drives_joints() const { return !joint_program_.empty(); }
  void SetDeviceStatus(std::string status) { state_.device_status = std::move(status); }

  const TeleopState& state() const { return state_; }
  const TeleopConfig& config() const { return config_; }

 private:
  TeleopConfig config_;
  std::unique_ptr<DifferentialIk> ik_;
  std::unique_ptr<MultibodyData> target_data_;  // kinematics at the targets
  Eigen::VectorXd q_full_;                      // world q with the arm at its targets
  Eigen::VectorXd v_zero_;
  std::vector<int> arm_position_indices_;
  Eigen::VectorXd q_target_, qdot_;
  Eigen::Isometry3d target_tcp_W_ = Eigen::Isometry3d::Identity();
  std::atomic<double> grip_force_{30.0};
  std::atomic<bool> follow_program_{true};
  double applied_grip_force_ = -1;
  double drive_per_grip_force_ = 1;  // leader's effort limit per newton of grip (constructor)
  double applied_finger_target_ = -1;
  // The joint program: each sine with its joint's arm index and initial position q0; and the
  // PD targets of the arm joints it holds (the scene's).
  struct ProgramJoint {
    int arm_index = -1;
    double q0 = 0;
    TeleopProgramSpec::JointSine sine;
  };
  std::vector<ProgramJoint> joint_program_;
  Eigen::VectorXd held_targets_;
  void DriveJointProgram(World* world);
  void ShowInitialGrip();
  Eigen::Isometry3d MeasuredToolPose(const World& world) const;
  // Update's stages, in order.
  void ApplyGripProgram(double t_s);
  double LatchedGrip(double device_grip);
  TeleopCommand ClampCommand(const TeleopCommand& command);
  void IntegrateTargetPose(const Eigen::Vector3d& w, const Eigen::Vector3d& v, double dt);
  DifferentialIkResult TrackTargetPose(const Eigen::Vector3d& w, const Eigen::Vector3d& v,
                                       double dt, World* world);
  void TakeBackOvershoot(double t_s);
  // The last Update's step: its start, planned end and the twist integrated over it.
  struct PlannedStep {
    double start_s = 0, end_s = 0;
    Eigen::Vector3d w = Eigen::Vector3d::Zero(), v = Eigen::Vector3d::Zero();
  };
  PlannedStep planned_;
  double DriveFingers(double grip, World* world);
  void FillState(const TeleopCommand& c, double finger_target, const DifferentialIkResult& ik,
                 const World& world);
  bool grip_latched_ = false;        // initial_grip in force
  double latched_device_grip_ = -1;  // the device's grip at the first Update
  TeleopState state_;
};

}  // namespace contactlab
