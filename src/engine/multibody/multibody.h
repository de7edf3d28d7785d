// Multibody dynamics in joint coordinates: a forest of articulated trees.
//
// Model/data split (as MuJoCo): `Multibody` holds the immutable model, `MultibodyData` holds
// everything computed from a state (q, v). No allocation after `MultibodyData` is created.
//
// Conventions (the rest of the engine relies on these):
// - World frame W, z up. Every body has a frame B; its inertia is given about its centre of
//   mass, expressed in B.
// - Joint j connects parent frame P (a body or the world) to child body B through the joint
//   frame: X_PB(q) = X_PJ * X_J(q), where X_PJ is the fixed joint placement and X_J(q) the
//   joint's motion (identity at q = 0, q = 0 for 1-dof joints).
// - Revolute: X_J = rotation by q about `axis` (unit, in the joint frame); v = q̇ [rad/s].
// - Prismatic: X_J = translation q·axis; v = q̇ [m/s].
// - Floating: q = [p_WB (3), quaternion w,x,y,z (4)] of B relative to P;
//   v = [ω (3), v_o (3)]: angular velocity of B and translational velocity of B's origin,
//   both relative to P and expressed in P's frame (P = world for a root floating body,
//   so v is world-frame). q̇ = N(q) v with ṗ = v_o, quaṫ = ½ [0, ω] ⊗ quat.
//   Since q is X_PB itself, a floating joint's X_PJ must be the identity (AddBody checks).
// - Weld: no coordinates.
// - Velocities of one tree are contiguous in v (trees in order of their root bodies); so
//   are positions. The mass matrix is block diagonal, one dense block per tree.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <string>
#include <vector>

namespace contactlab {

enum class JointType { kFloating, kRevolute, kPrismatic, kWeld };

struct SpatialInertiaSpec {
  double mass_kg = 1.0;
  Eigen::Vector3d com_B = Eigen::Vector3d::Zero();                    // centre of mass in B
  Eigen::Matrix3d inertia_about_com_B = Eigen::Matrix3d::Identity();  // kg·m², in B
};

struct BodySpec {
  std::string name;
  int parent = -1;  // -1 = world; parents must be added before children
  JointType joint = JointType::kFloating;
  Eigen::Isometry3d X_PJ = Eigen::Isometry3d::Identity();  // joint placement in parent
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();         // 1-dof joints, joint frame
  // 1-dof joints only, treated implicitly (docs/contact-model.md §1): generalized force
  // −damping·v − stiffness·(q − rest_position).
  double damping = 0.0;        // N·m·s/rad or N·s/m
  double stiffness = 0.0;      // N·m/rad or N/m
  double rest_position = 0.0;  // rad or m
  SpatialInertiaSpec inertia;
};

struct MultibodyData;

class Multibody {
 public:
  // Returns the body index. Validates the spec (mass > 0, inertia SPD, unit axis) and throws
  // std::invalid_argument with a message naming the body and field otherwise.
  int AddBody(const BodySpec& spec);
  // Assigns coordinates; call once after the last AddBody.
  void Finalize();

  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  int num_positions() const { return nq_; }
  int num_velocities() const { return nv_; }
  int num_trees() const { return static_cast<int>(tree_velocity_start_.size()); }
  int tree_velocity_start(int tree) const { return tree_velocity_start_[tree]; }
  int tree_num_velocities(int tree) const { return tree_num_velocities_[tree]; }
  int body_tree(int body) const { return body_tree_[body]; }
  const BodySpec& body(int b) const { return bodies_[b]; }
  int FindBody(const std::string& name) const;                   // -1 if absent
  int position_start(int body) const { return q_start_[body]; }  // first q of b's joint
  int velocity_start(int body) const { return v_start_[body]; }  // first v of b's joint
  int joint_num_positions(int body) const;
  int joint_num_velocities(int body) const;

  // q = 0 for 1-dof joints, identity pose for floating joints.
  Eigen::VectorXd DefaultPositions() const;
  // Sets a floating body's pose (relative to its parent) in q.
  void SetFloatingPose(int body, const Eigen::Isometry3d& X_PB, Eigen::VectorXd* q) const;

  // Poses X_WB, spatial velocities, and the per-body quantities the algorithms below need.
  void UpdateKinematics(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                        MultibodyData* data) const;

  // Mass matrix block of `tree` (composite-rigid-body algorithm), tree_nv × tree_nv.
  // Requires UpdateKinematics.
  void CalcTreeMassMatrix(const MultibodyData& data, int tree, Eigen::MatrixXd* M) const;
  // Full block-diagonal mass matrix, nv × nv (tests, small problems).
  void CalcMassMatrix(const MultibodyData& data, Eigen::MatrixXd* M) const;

  // c(q, v) = C(q, v) v − τ_g(q): the generalized force that, with M v̇ = τ − c, balances
  // Coriolis/centrifugal/gyroscopic terms and gravity (recursive Newton–Euler, v̇ = 0).
  void CalcBiasForces(const MultibodyData& data, const Eigen::Vector3d& gravity_W,
                      Eigen::VectorXd* c) const;

  // Jacobian of the world-frame velocity of the material point of `body` that is at p_W now:
  // v_P = J v_tree. J is 3 × tree_num_velocities(body_tree(body)), columns in the tree's
  // local velocity order.
  void CalcPointJacobian(const MultibodyData& data, int body, const Eigen::Vector3d& p_W,
                         Eigen::Ref<Eigen::MatrixXd> J) const;
  // J += R · J_P for the point Jacobian J_P above and a 3 × 3 R (a contact's rows: R = ±R_WCᵀ,
  // the point's velocity in the contact frame), in one pass over the body's ancestors: no
  // zeroed scratch and no dynamic-size product per contact. J as in CalcPointJacobian.
  void AddRotatedPointJacobian(const MultibodyData& data, int body, const Eigen::Vector3d& p_W,
                               const Eigen::Matrix3d& R, Eigen::Ref<Eigen::MatrixXd> J) const;
  // 6 × tree_nv: rows 0–2 angular velocity of B (world), rows 3–5 velocity of the point of B
  // at p_W (world).
  void CalcFrameJacobian(const MultibodyData& data, int body, const Eigen::Vector3d& p_W,
                         Eigen::Ref<Eigen::MatrixXd> J) const;

  // Diagonal of joint damping D and stiffness K over v (zero for floating dofs).
  const Eigen::VectorXd& joint_damping() const { return joint_damping_; }
  const Eigen::VectorXd& joint_stiffness() const { return joint_stiffness_; }
  // Generalized joint spring force −K (q − q_rest) over v (explicit part, at q).
  void CalcJointSpringForces(const Eigen::VectorXd& q, Eigen::VectorXd* tau) const;

  // q = q0 + δt N(q0) v, quaternions renormalized (docs/contact-model.md §1).
  void IntegratePositions(const Eigen::VectorXd& q0, const Eigen::VectorXd& v, double dt,
                          Eigen::VectorXd* q) const;

  // Kinetic energy ½ vᵀ M v and potential energy of gravity and joint springs.
  double CalcKineticEnergy(const MultibodyData& data) const;
  double CalcPotentialEnergy(const MultibodyData& data, const Eigen::Vector3d& gravity_W) const;

 private:
  // UpdateKinematics' per-joint step (multibody.cc).
  void CalcJointKinematics(int b, const Eigen::Isometry3d& X_WP,
                           const Eigen::Matrix<double, 6, 1>& V_P, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v, MultibodyData* data,
                           Eigen::Matrix<double, 6, 1>* Sv,
                           Eigen::Matrix<double, 6, 1>* Sdot_v) const;
  // CRBA into a tree_nv × tree_nv view (shared by CalcTreeMassMatrix and CalcMassMatrix).
  void CalcTreeMassMatrixInto(const MultibodyData& data, int tree,
                              Eigen::Ref<Eigen::MatrixXd> M) const;
  // The frame Jacobian (rows = 6) or its last three rows, the point Jacobian (rows = 3), shared
  // by CalcFrameJacobian and CalcPointJacobian (`caller` names the one in the size error).
  void CalcJacobianRows(const char* caller, int rows, const MultibodyData& data, int body,
                        const Eigen::Vector3d& p_W, Eigen::Ref<Eigen::MatrixXd> J) const;
  // The walk those Jacobians share: checks that J is rows × the body's tree velocities (else
  // std::invalid_argument naming `caller`), then calls column(c, s) with each ancestor joint's
  // motion subspace column s = [ω; v_O] (world) and its tree-local velocity index c.
  template <typename ColumnFn>
  void ForEachAncestorColumn(const char* caller, int rows, const MultibodyData& data, int body,
                             Eigen::Ref<Eigen::MatrixXd> J, ColumnFn&& column) const;

  std::vector<BodySpec> bodies_;
  std::vector<int> body_tree_, q_start_, v_start_;
  std::vector<int> tree_velocity_start_, tree_num_velocities_;
  std::vector<std::vector<int>> tree_bodies_;
  Eigen::VectorXd joint_damping_, joint_stiffness_;
  int nq_ = 0, nv_ = 0;
  bool finalized_ = false;
  friend struct MultibodyData;
};

// Everything computed from (q, v). Sized once by the constructor (the model must be
// finalized); UpdateKinematics and the Calc* algorithms then never allocate (given outputs
// of the right size).
//
// Internally the spatial quantities are Featherstone 6-vectors in the world frame referred to
// the world origin O: a motion vector is [ω; v_O] (v_O = velocity of the material point at
// O), a force vector [n_O; f]. With every body in one frame, no per-joint transforms are
// needed in the recursions and the world-frame Jacobians read directly off S.
struct MultibodyData {
  using SpatialVector = Eigen::Matrix<double, 6, 1>;
  using SpatialMatrix = Eigen::Matrix<double, 6, 6>;
  // At most 6 columns: stored inline, so resizing to a joint's dof count never allocates.
  using MotionSubspace = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;

  explicit MultibodyData(const Multibody& model);
  Eigen::VectorXd q, v;                 // copies of the state last given
  std::vector<Eigen::Isometry3d> X_WB;  // body poses
  std::vector<Eigen::Vector3d> w_WB;    // angular velocities, world
  std::vector<Eigen::Vector3d> v_WBo;   // velocities of body origins, world

  // Scratch for the algorithms (world frame, referred to O); implementation-defined.
  std::vector<MotionSubspace> joint_motion_subspace_W;  // S_b: V_b = V_parent + S_b v_b
  std::vector<SpatialVector> spatial_velocity_W;        // V_b = [ω; v_O]
  std::vector<Eigen::Vector3d> p_WBcm;                  // centres of mass, world [m]
  std::vector<SpatialMatrix> spatial_inertia_W;         // I_b about O [kg, kg·m, kg·m²]
  std::vector<SpatialMatrix> composite_inertia_W;       // I_b + Σ descendants (CRBA)
  // Recursive Newton–Euler with v̇ = 0 and no gravity: body accelerations Ṡ v chained from
  // the root, and the subtree sums of the net forces I a + V ×* I V. Gravity is added in
  // CalcBiasForces from the composite inertias (it is linear in g).
  std::vector<SpatialVector> velocity_product_acceleration_W;
  std::vector<SpatialVector> subtree_velocity_product_force_W;
};

}  // namespace contactlab
