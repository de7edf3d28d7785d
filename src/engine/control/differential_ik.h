// Differential inverse kinematics for teleoperation: each control step, turn a desired
// end-effector twist V = [ω; v] into a joint-velocity command q̇ for the controlled joints by
// solving the box-constrained least-squares problem
//
//   min_q̇  ‖W (J q̇ − V)‖² + λ_eff² ‖q̇‖² + w ‖q̇ − q̇_posture‖²
//   s.t.   max(−q̇_max, −k (q − q_min)) ≤ q̇ ≤ min(q̇_max, k (q_max − q)),   k ≤ 1/dt
//
// exactly (BoxQpSolver). Here J is the 6 × n Jacobian of the tool frame T (angular velocity of
// T and velocity of T's origin, both in the frame the twist is given in), W = diag(w_rot I,
// w_trans I) weighs rotation [rad/s] against translation [m/s], q̇_posture = k_p (q_posture − q)
// pulls the redundancy toward a posture, and the bounds guarantee |q̇| ≤ q̇_max and
// q_min ≤ q + dt q̇ ≤ q_max (optionally also |q̇ − q̇_prev| ≤ a_max dt).
//
// Graceful degradation:
// - Singularities: λ_eff² = λ² + λ_max² (1 − (σ_min/ε)²) when the smallest singular value
//   σ_min of W J drops below ε (Nakamura / Chiaverini adaptive damping). Away from
//   singularities only the tiny λ acts, so tracking is exact to ~(λ/σ)²; near them the damping
//   bounds ‖q̇‖ ≤ ‖W V‖ / (2 λ_eff) + posture term. λ_eff is continuous in q, and the QP's
//   solution is continuous in its data, so q̇ never jumps for a smooth V.
// - Position limits: the speed toward a limit is capped at k × (distance to it) rather than
//   at distance / dt, so a joint decelerates exponentially into its limit (time constant 1/k)
//   instead of stopping dead in one step. A joint found outside its limits is never pushed
//   further out (and is not yanked back either).
// - Redundancy: null-space motion is resisted only by λ² + w (~1e-5), which is what makes the
//   tracking exact. When a joint saturates, the others take over its share of the task and
//   can accelerate fast (measured up to ~1 rad/s per 1 ms step in a 10 s random teleop run);
//   the optional acceleration_limits bound that by construction. Raising λ or w smooths it
//   too, at the cost of tracking error ~ (λ² + w) / σ².
//
// Which configuration: Solve takes the multibody data (kinematics for J and the tool pose) and,
// separately, the controlled joint positions q that the command will be integrated into
// (typically the PD targets; limits and posture apply to them). Pass data computed at the
// targets for open-loop target integration or at the measured state for feedback.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/control/box_qp.h"
#include "engine/multibody/multibody.h"

namespace contactlab {

// Frame the commanded twist is expressed in. Either way V = [ω; v] is the angular velocity of
// the tool frame T and the velocity of T's origin; only the coordinates differ.
enum class TwistFrame {
  kWorld,  // world axes (v is still the velocity of the tool point, not of the world origin)
  kTool,   // tool axes: Ṙ_WT = R_WT [ω]×, ṗ_WT = R_WT v
};

struct DifferentialIkConfig {
  int end_effector_body = -1;
  Eigen::Isometry3d X_BT = Eigen::Isometry3d::Identity();  // tool frame T in the body frame B
  std::vector<int> velocity_indices;  // controlled 1-dof joints, indices into v (same tree)

  // Damping. Units: the cost mixes rad/s and m/s, so λ is in the units of J (m or 1).
  double damping = 1e-3;                   // λ, always on: regularizes redundancy
  double adaptive_damping = 0.05;          // λ_max, added smoothly as σ_min → 0
  double singular_value_threshold = 0.04;  // ε: adaptive damping starts below this σ_min

  // Posture: q̇_posture = posture_gain (posture − q); w small so it acts in the null space.
  double posture_weight = 1e-5;  // w; the task error it causes is ~ w / σ² relative
  double posture_gain = 2.0;     // 1/s
  Eigen::VectorXd posture;       // rad (n); empty = no posture term

  double rotation_weight = 1.0;     // w_rot (per rad/s)
  double translation_weight = 1.0;  // w_trans (per m/s)

  Eigen::VectorXd velocity_limits;    // rad/s (n), > 0; empty = unlimited
  Eigen::VectorXd position_lower;     // rad (n); empty = unlimited; may hold −inf
  Eigen::VectorXd position_upper;     // rad (n); empty = unlimited; may hold +inf
  double position_limit_gain = 20.0;  // k, 1/s; capped at 1/dt (exact stop within the step)
  // Optional joint acceleration limits a_max [rad/s²] (n; empty = off): |q̇ − q̇_prev| ≤ a_max dt
  // against the previous command. Position and velocity limits take precedence when they
  // conflict (they are hard; this one is a comfort limit). Off by default because it makes the
  // command lag a fast-changing twist (a single Solve from rest cannot reach V).
  Eigen::VectorXd acceleration_limits;
};

struct DifferentialIkResult {
  BoxQpResult qp;
  double min_singular_value = 0.0;  // σ_min of W J (over min(6, n) singular values)
  double damping = 0.0;             // λ_eff used
  int num_limited = 0;              // joints on a velocity, position or acceleration bound
  bool ok() const { return qp.converged(); }
};

class DifferentialIk {
 public:
  // Validates the config against the (finalized) model; throws std::invalid_argument.
  // Allocates all scratch: Solve never allocates.
  DifferentialIk(const Multibody& model, DifferentialIkConfig config);

  int num_joints() const { return n_; }
  const DifferentialIkConfig& config() const { return config_; }
  const Multibody& model() const { return *model_; }

  // Runtime tuning (teleop sliders); sizes must stay n.
  void set_posture(const Eigen::VectorXd& posture);
  void set_task_weights(double rotation_weight, double translation_weight);

  // q̇ (n, rad/s) for the desired twist V (rotation rad/s first, translation m/s) in `frame`.
  // data: UpdateKinematics done; q: controlled joint positions (n) the command is integrated
  // into over dt [s]. The previous command (kept internally) warm-starts the QP. On a QP
  // failure (not expected: H is SPD by construction) q̇ is still within the bounds.
  DifferentialIkResult Solve(const MultibodyData& data, const Eigen::VectorXd& q,
                             const Eigen::Matrix<double, 6, 1>& V, TwistFrame frame, double dt,
                             Eigen::VectorXd* qdot);

  // Forgets the previous command (the acceleration limits and the QP warm start use it), e.g.
  // when teleoperation is re-engaged; the arm is then assumed at rest.
  void Reset() { warm_start_.setZero(); }

  // q_target += dt q̇, clamped to the position limits (guards against the last ulp of rounding).
  void IntegrateTargets(const Eigen::VectorXd& qdot, double dt, Eigen::VectorXd* q_target) const;

  // Controlled joint positions out of / into a full multibody q.
  void GatherPositions(const Eigen::VectorXd& q_full, Eigen::VectorXd* q) const;
  void ScatterPositions(const Eigen::VectorXd& q, Eigen::VectorXd* q_full) const;

  // Tool pose X_WT and the 6 × n tool Jacobian (rows [ω; v of T's origin]) in `frame`.
  Eigen::Isometry3d CalcToolPose(const MultibodyData& data) const;
  void CalcToolJacobian(const MultibodyData& data, TwistFrame frame,
                        Eigen::Ref<Eigen::MatrixXd> J) const;

 private:
  const Multibody* model_;
  DifferentialIkConfig config_;
  int n_ = 0;
  int tree_ = 0;
  std::vector<int> tree_columns_;      // Jacobian column (tree-local) of each controlled joint
  std::vector<int> position_indices_;  // q index of each controlled joint

  // Scratch (sized in the constructor).
  mutable Eigen::MatrixXd J_tree_;  // 6 × tree_nv
  Eigen::MatrixXd J_;               // 6 × n, weighted
  Eigen::MatrixXd H_;               // n × n
  Eigen::VectorXd g_, lower_, upper_, posture_velocity_;
  Eigen::VectorXd warm_start_;  // previous command q̇_prev (rad/s)
  BoxQpSolver qp_;
};

}  // namespace contactlab
