// Stage "problem builder" of a step (docs/contact-model.md §1–§3): the convex problem
//   v = argmin ½ (v − v*)ᵀ A (v − v*) + Σ_i ℓ_i(J_i v + b_i)
// from the state at the step's start: the free motion v* and A per tree (free_motion.h), one
// contact constraint per candidate (its Jacobian in the contact frame, its pair's properties, its
// Delassus diagonal estimate when the approximation needs one, the constraint from the
// factory), then PD controllers and joint limits, then couplers, distances and welds
// (HolonomicConstraints). Storage is reused: no allocation once warm.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/solver/contact_constraint_factory.h"
#include "engine/solver/convex_problem.h"
#include "engine/solver/joint_constraints.h"
#include "engine/world/contact_candidates.h"
#include "engine/world/free_motion.h"
#include "engine/world/holonomic_constraints.h"
#include "engine/world/world_inputs.h"
#include "engine/world/world_model.h"

namespace contactlab {

// The state a step starts from.
struct StepStart {
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& v;
  const MultibodyData& data;  // kinematics at (q, v)
  double t = 0;
  double dt_s =
      0;  // the step's size δt: the settings' at a fixed step, a sub-step's under error control
};

class ProblemBuilder {
 public:
  explicit ProblemBuilder(const WorldModel& model);

  void Build(const WorldModel& model, const WorldInputs& inputs, const StepStart& start,
             const std::vector<ContactCandidate>& candidates);
  // Makes the last Build's contact constraints again with `inputs`' contact parameters (k, d, τ_d
  // and μ of the settings or a pair, v_s), keeping everything the state alone decides: the free
  // motion, Jacobians, contact configurations and Delassus estimates. A step's derivative with
  // respect to a parameter needs only this (docs/contact-model.md §9). Not for a change of the
  // approximation or of E_h (the faces' stiffness comes from the geometry query).
  void RemakeContactConstraints(const WorldModel& model, const WorldInputs& inputs,
                                const std::vector<ContactCandidate>& candidates, double dt_s);

  const ConvexProblem& problem() const { return problem_; }
  // Candidate c's constraint in problem() and its contact frame R_WC (columns t̂1, t̂2, n̂).
  int contact_constraint(int c) const { return contact_constraint_index_[c]; }
  const Eigen::Matrix3d& contact_frame(int c) const { return contact_frames_[c]; }
  // Candidate c's pair properties (§6; a face set's own stiffness) and its constraint's
  // diagnostics after the solve (ContactConstraintFactory::Diagnose).
  const ContactProperties& contact_pair(int c) const { return contact_pairs_[c]; }
  const ContactConstraintFactory& contact_factory() const { return contact_factory_; }
  // The free motion of the last Build (free_motion.h): whether the θ-method's Newton iteration
  // converged, and its iterations.
  bool free_motion_converged() const { return free_motion_converged_; }
  int free_motion_iterations() const { return free_motion_.iterations(); }

 private:
  void AddContact(const WorldModel& model, const WorldInputs& inputs, const StepStart& start,
                  const ContactCandidate& candidate, int c);
  ContactProperties PairProperties(const WorldModel& model, const WorldInputs& inputs,
                                   const ContactCandidate& candidate) const;
  // Adds sign · R_WCᵀ J_p (the velocity of the point p_W fixed to the body) to constraint k.
  void AddPointJacobian(const WorldModel& model, const MultibodyData& data, int scene_body,
                        const Eigen::Vector3d& p_W, const Eigen::Matrix3d& R_WC, double sign,
                        int k);
  // When each of constraint k's cliques is one body: writes its Jacobian blocks from the bodies'
  // Jacobians, declares that structure (ConvexProblem::ContactFrame: the Hessian then sums it
  // with the other contacts of its body pair) and returns true.
  bool SetContactFrame(const WorldModel& model, const MultibodyData& data, int body_a, int body_b,
                       const Eigen::Vector3d& p_W, const Eigen::Matrix3d& R_WC, int k);
  // The problem's body Jacobian of a multibody body, made on its first use in the step.
  int BodyJacobian(const Multibody& mb, const MultibodyData& data, int body);
  // §3: PD controllers with effort limits and joint limits on 1-dof joints.
  void AddJointConstraints(const WorldModel& model, const WorldInputs& inputs,
                           const StepStart& start);

  ConvexProblem problem_;
  FreeMotion free_motion_;
  bool free_motion_converged_ = true;
  ContactConstraintFactory contact_factory_;
  std::vector<PdControllerConstraint> pd_constraints_;
  std::vector<JointLimitConstraint> limit_constraints_;
  HolonomicConstraints holonomic_;
  std::vector<int> body_jacobian_;  // per multibody body: its body Jacobian this step, or −1
  std::vector<int> contact_constraint_index_;
  std::vector<Eigen::Matrix3d> contact_frames_;
  std::vector<ContactProperties> contact_pairs_;
  // Per candidate, what its constraint was made from besides its properties (for
  // RemakeContactConstraints).
  std::vector<ContactConfiguration> contact_configurations_;
  std::vector<DelassusDiagonal> contact_delassus_;
};

}  // namespace contactlab
