// The convex problem of one time step (docs/contact-model.md §2):
//   v = argmin ℓ(v) = ½ (v − v*)ᵀ A (v − v*) + Σ_i ℓ_i(J_i v + b_i)
// Velocities are partitioned into trees (contiguous ranges of v); A is block diagonal by tree;
// each constraint touches one or two trees (its "cliques") through dense Jacobian blocks.
// The problem is built anew every step but its storage is reused: Reset with the same tree
// sizes and ClearConstraints keep every arena's capacity, so rebuilding a problem of the same
// (or smaller) size does not touch the heap.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/solver/constraint.h"

namespace contactlab {

class ConvexProblem {
 public:
  // Sets the tree partition: tree t owns v[start_t, start_t + nv_t). Zeroes A and v* and
  // clears the constraints.
  void Reset(const std::vector<int>& tree_num_velocities);
  // Removes all constraints; keeps the trees, A, v* and all capacity.
  void ClearConstraints();

  int num_velocities() const { return nv_; }
  int num_trees() const { return static_cast<int>(tree_nv_.size()); }
  int tree_start(int t) const { return tree_start_[t]; }
  int tree_nv(int t) const { return tree_nv_[t]; }

  // A's block of tree t (nv_t × nv_t, SPD), writable; v* over all velocities.
  Eigen::Map<Eigen::MatrixXd> mutable_tree_A(int t);
  Eigen::Map<const Eigen::MatrixXd> tree_A(int t) const;
  Eigen::VectorXd& mutable_free_motion_velocity() { return v_star_; }
  const Eigen::VectorXd& free_motion_velocity() const { return v_star_; }

  struct ConstraintEntry {
    const Constraint* constraint = nullptr;  // not owned; must outlive the solve
    int row_start = 0;                       // rows in the stacked v_c
    int num_rows = 0;
    int num_cliques = 0;  // 1 or 2
    int tree[2] = {-1, -1};
    int jacobian_offset[2] = {0, 0};  // into the Jacobian arena, col-major
    int contact_frame = -1;           // SetContactFrame's, or −1
  };
  // Adds a constraint touching tree_a (and tree_b ≥ 0 if two trees; −1 otherwise; tree_b must
  // differ from tree_a — a constraint inside one tree has a single Jacobian block). Its
  // Jacobian blocks (num_rows × nv_tree) and bias b (num_rows) start zeroed; write them with
  // mutable_jacobian / mutable_bias. Returns the constraint index.
  // Throws std::invalid_argument on a bad tree index (a programming error).
  // Maps obtained before an AddConstraint may be invalidated by it (the arenas grow): fill a
  // constraint's blocks before adding the next one, or re-fetch the maps.
  int AddConstraint(const Constraint* c, int tree_a, int tree_b);
  // As AddConstraint, for a constraint that is made once its Jacobian is known (its
  // regularization depends on it, docs/contact-model.md §2.1): SetConstraint must give it before
  // the problem is solved.
  int AddConstraintRows(int num_rows, int tree_a, int tree_b);
  // Throws std::invalid_argument for a null constraint or one with another number of rows.
  void SetConstraint(int index, const Constraint* c);
  Eigen::Map<Eigen::MatrixXd> mutable_jacobian(int index, int clique);
  Eigen::Map<const Eigen::MatrixXd> jacobian(int index, int clique) const;
  Eigen::Ref<Eigen::VectorXd> mutable_bias(int index);

  // Optional structure of a contact's Jacobian (docs/contact-model.md §4 "Sparsity"). A body
  // Jacobian B (6 × n_t) gives, per velocity of tree t, a rigid body's spatial velocity [ω; v_O]
  // at the world origin O, and is shared by every contact on that body; a contact's clique block
  // is then J = s·R_WCᵀ·[−[p_W]×  I]·B (s = ±1). The Hessian sums the contacts of one body pair
  // as one 6 × 6 matrix instead of one product per contact. The explicit Jacobian blocks must
  // still be written (every other use reads them) and equal this product.
  struct ContactFrame {
    Eigen::Matrix3d R_WC = Eigen::Matrix3d::Identity();
    Eigen::Vector3d p_W = Eigen::Vector3d::Zero();
    int body[2] = {-1, -1};  // per clique: a body Jacobian's index
    double sign[2] = {1, 1};
  };
  // Adds a body Jacobian on tree t (zeroed, 6 × n_t) and returns its index; removed by
  // ClearConstraints.
  int AddBodyJacobian(int tree);
  Eigen::Map<Eigen::Matrix<double, 6, Eigen::Dynamic>> mutable_body_jacobian(int body);
  Eigen::Map<const Eigen::Matrix<double, 6, Eigen::Dynamic>> body_jacobian(int body) const;
  int body_jacobian_tree(int body) const { return body_tree_[body]; }
  int num_body_jacobians() const { return static_cast<int>(body_tree_.size()); }
  // Declares constraint `index` (3 rows) a contact with this frame; its bodies, one per clique,
  // must be on the cliques' trees. Throws std::invalid_argument otherwise.
  void SetContactFrame(int index, const ContactFrame& frame);
  // The constraint's frame, or null when its Jacobian has no declared structure.
  const ContactFrame* contact_frame(int index) const {
    const int f = entries_[index].contact_frame;
    return f >= 0 ? &contact_frames_[f] : nullptr;
  }

  int num_constraints() const { return static_cast<int>(entries_.size()); }
  // Constraints added by AddConstraintRows whose SetConstraint is still missing.
  int num_unset_constraints() const { return num_unset_; }
  int num_constraint_rows() const { return num_rows_; }
  const ConstraintEntry& entry(int i) const { return entries_[i]; }
  // Stacked biases; only the first num_constraint_rows() entries are meaningful.
  const Eigen::VectorXd& bias() const { return bias_; }

  // vc = J v (stacked, no bias; resized to num_constraint_rows()).
  void MultiplyJ(const Eigen::VectorXd& v, Eigen::VectorXd* vc) const;
  // The same into vc of exactly num_constraint_rows() entries (the head of a longer buffer).
  void MultiplyJ(const Eigen::VectorXd& v, Eigen::Ref<Eigen::VectorXd> vc) const;
  // y = Jᵀ γ (overwrites y, resized to num_velocities(); the constraints' contributions are
  // accumulated into it). γ may be longer than num_constraint_rows(): its head is read.
  void MultiplyJTranspose(const Eigen::VectorXd& gamma, Eigen::VectorXd* y) const;
  // y = A x (overwrites y, resized to num_velocities()).
  void MultiplyA(const Eigen::VectorXd& x, Eigen::VectorXd* y) const;

  // True when A, v*, every Jacobian block and the biases are finite (no NaN/inf).
  bool AllFinite() const;

 private:
  std::vector<int> tree_nv_, tree_start_, A_offset_;
  std::vector<double> A_arena_;
  Eigen::VectorXd v_star_;
  std::vector<ConstraintEntry> entries_;
  std::vector<double> J_arena_;  // grows; only the first J_size_ entries are used
  std::vector<ContactFrame> contact_frames_;
  std::vector<int> body_tree_, body_offset_;  // body Jacobians, 6 × n_t col-major in B_arena_
  std::vector<double> B_arena_;
  int B_size_ = 0;
  Eigen::VectorXd bias_;  // grows; only the first num_rows_ entries are used
  int nv_ = 0, num_rows_ = 0, J_size_ = 0, num_unset_ = 0;
};

}  // namespace contactlab
