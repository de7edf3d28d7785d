#include "engine/world/rigid_contact_stage.h"

#include <spdlog/spdlog.h>

namespace contactlab {

void RigidContactStage::BuildProblem(const ProblemBuilder& builder, const Eigen::VectorXd& b,
                                     const std::vector<double>& gap_velocity) {
  const int n = static_cast<int>(active_.size());
  problem_.A.resize(3 * n, 3 * n);
  problem_.b.resize(3 * n);
  problem_.friction.resize(n);
  problem_.restitution.resize(n);
  problem_.gap_velocity.resize(n);
  const Eigen::MatrixXd& W = delassus_.W();
  for (int i = 0; i < n; ++i) {
    const int c = active_[i];
    for (int j = 0; j < n; ++j)
      problem_.A.block<3, 3>(3 * i, 3 * j) = W.block<3, 3>(3 * c, 3 * active_[j]);
    problem_.b.segment<3>(3 * i) = b.segment<3>(3 * c);
    const ContactProperties& pair = builder.contact_pair(c);
    problem_.friction[i] = pair.friction;
    problem_.restitution[i] = -b[3 * c + 2] > kRestitutionThreshold_m_per_s ? pair.restitution : 0;
    problem_.gap_velocity[i] = gap_velocity[c];
  }
}

// docs/contact-model.md §8, one algorithm: W over every contact within the margin; the active
// set, those that would end the step penetrating at the convex solve's velocities; Drumwright &
// Shell on it; contacts that the impulses drive into penetration join it, contacts it pulls
// (x_N < 0: phase 1's equality on a set the others' impulses already lift) leave it, and it is
// solved again, at most kMaxPasses times.
void RigidContactStage::Apply(const ProblemBuilder& builder,
                              const std::vector<ContactCandidate>& candidates, double dt_s,
                              const ConvexSolver& solver, Eigen::VectorXd* v) {
  const ConvexProblem& problem = builder.problem();
  impulses_ = solver.impulses();
  constraint_velocities_ = solver.constraint_velocities();
  stats_ = RigidContactStats{};
  const int nc = static_cast<int>(candidates.size());
  if (nc == 0) return;
  constraints_.resize(nc);
  for (int c = 0; c < nc; ++c) constraints_[c] = builder.contact_constraint(c);
  delassus_.Compute(problem, constraints_);
  Eigen::VectorXd b(3 * nc);
  std::vector<double> gap_velocity(nc);
  std::vector<bool> active(nc, false);
  active_.clear();
  for (int c = 0; c < nc; ++c) {
    b.segment<3>(3 * c) =
        constraint_velocities_.segment<3>(problem.entry(constraints_[c]).row_start);
    // The normal velocity that ends the step at φ = 0, a gap closed exactly, or that undoes a
    // fifth of a penetration (the drift bound of §8).
    const double phi0 = candidates[c].point.signed_distance_m;
    gap_velocity[c] = -(phi0 < 0 ? kPenetrationRecoveryPerStep * phi0 : phi0) / dt_s;
    if (b[3 * c + 2] < gap_velocity[c]) {
      active[c] = true;
      active_.push_back(c);
    }
  }
  Eigen::VectorXd x = Eigen::VectorXd::Zero(3 * nc), v_c = b;
  constexpr double kPenetrationTolerance_m_per_s = 1e-9;
  const DrumwrightShellParameters parameters;
  bool converged = true;
  while (!active_.empty() && stats_.passes < kMaxPasses) {
    BuildProblem(builder, b, gap_velocity);
    const DrumwrightShellStats previous = stats_.solver;
    const Eigen::VectorXd x_active = SolveDrumwrightShell(problem_, parameters, &stats_.solver);
    stats_.solver.outer_iterations += previous.outer_iterations;
    stats_.solver.inner_iterations += previous.inner_iterations;
    stats_.solver.capped_minimizations += previous.capped_minimizations;
    ++stats_.passes;
    stats_.num_active = static_cast<int>(active_.size());
    converged = converged && stats_.solver.converged;
    x.setZero();
    for (int i = 0; i < stats_.num_active; ++i) {
      x.segment<3>(3 * active_[i]) = x_active.segment<3>(3 * i);
    }
    v_c = b + delassus_.W() * x;
    // The set changes: penetrating contacts join, pulled ones leave.
    const double pull_tolerance = 1e-9 * x.cwiseAbs().maxCoeff();
    bool changed = false;
    for (int c = 0; c < nc; ++c) {
      const bool joins =
          !active[c] && v_c[3 * c + 2] < gap_velocity[c] - kPenetrationTolerance_m_per_s;
      const bool leaves = active[c] && x[3 * c + 2] < -pull_tolerance;
      if (!joins && !leaves) continue;
      active[c] = joins;
      changed = true;
    }
    if (!changed) break;
    active_.clear();
    for (int c = 0; c < nc; ++c) {
      if (active[c]) active_.push_back(c);
    }
  }
  stats_.solver.converged = converged;
  delassus_.AddVelocityChange(problem, x, v);
  for (int c = 0; c < nc; ++c) {
    const int row = problem.entry(constraints_[c]).row_start;
    impulses_.segment<3>(row) = x.segment<3>(3 * c);
    constraint_velocities_.segment<3>(row) = v_c.segment<3>(3 * c);
  }
}

}  // namespace contactlab
