// Stage "rigid impulses" of a step under the rigid model (docs/contact-model.md §8, Drumwright &
// Shell 2009 §3): after the convex solve, whose contacts are RigidContact (no potential) and
// which so gives the velocities with PD controllers, joint limits and couplers but without
// contact, the contact impulses of Drumwright & Shell's two phases on the contacts' Delassus
// matrix W = J A⁻¹ Jᵀ, and the velocities they make.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/solver/convex_solver.h"
#include "engine/solver/delassus_matrix.h"
#include "engine/solver/drumwright_shell.h"
#include "engine/world/contact_candidates.h"
#include "engine/world/problem_builder.h"

namespace contactlab {

// What a step's rigid stage did: the iterations and capped minimizations summed over its
// passes, phase 1's rank and residual and the final gap the last pass's, `converged` every
// pass's.
struct RigidContactStats {
  int num_active = 0;  // contacts given an impulse
  int passes = 0;      // solves (one, plus one per pass that found contacts closing)
  DrumwrightShellStats solver;
};

class RigidContactStage {
 public:
  // Restitution applies to contacts approaching faster than this (Box2D's
  // b2_velocityThreshold, scaled to a gripper's tasks): below it a contact is inelastic, so that
  // a resting body does not hop on the velocity gravity gives it in one step.
  static constexpr double kRestitutionThreshold_m_per_s = 0.1;
  // A penetration (φ0 < 0: a linearization error of the last step, or an initial overlap) is
  // undone at this fraction per step (Baumgarte's β, Box2D's 0.2): all at once, a deep one
  // would leave the bodies with its whole velocity −φ0/δt, energy the scene never had.
  static constexpr double kPenetrationRecoveryPerStep = 0.2;
  // The active set's passes (joins and leaves) stop here; the last pass's impulses are taken.
  static constexpr int kMaxPasses = 8;

  // One algorithm (§8): v is the convex solve's (in) and the step's (out); the problem and the
  // solver are the step's. The contacts that act are those that would end the step
  // penetrating, φ0 + δt v_n < 0; passes add any that the others' impulses drive into
  // penetration and drop any that phase 1 pulls.
  void Apply(const ProblemBuilder& builder, const std::vector<ContactCandidate>& candidates,
             double dt_s, const ConvexSolver& solver, Eigen::VectorXd* v);
  // Per problem row: the solver's impulses and constraint velocities at the step's end, the
  // contacts' rows the rigid stage's [N·s, m/s].
  const Eigen::VectorXd& impulses() const { return impulses_; }
  const Eigen::VectorXd& constraint_velocities() const { return constraint_velocities_; }
  const RigidContactStats& stats() const { return stats_; }

 private:
  // The Drumwright–Shell problem of the active contacts, from W and the contact velocities b.
  void BuildProblem(const ProblemBuilder& builder, const Eigen::VectorXd& b,
                    const std::vector<double>& gap_velocity);

  DelassusMatrix delassus_;
  std::vector<int> constraints_;  // per contact, its constraint in the problem
  std::vector<int> active_;       // contacts in the Drumwright–Shell problem
  DrumwrightShellProblem problem_;
  Eigen::VectorXd impulses_, constraint_velocities_;
  RigidContactStats stats_;
};

}  // namespace contactlab
