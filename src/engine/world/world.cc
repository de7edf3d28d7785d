#include "engine/world/world.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "engine/world/integrate_positions.h"
#include "engine/world/solve_velocities.h"
#include "engine/world/step_clock.h"
#include "engine/world/step_size_controller.h"

namespace contactlab {
namespace {

// Error control's first step and floor, as fractions of δt_max (docs/contact-model.md §1.2).
constexpr double kFirstStepFraction = 0.1;
constexpr double kStepFloorFraction = 1e-5;

// What went wrong in a solve that SolveVelocities refused, from the solver's flags.
const char* DescribeSolverFailure(const ConvexSolverStats& s) {
  if (s.invalid_input) return "NaN, inf or an absurd value in the step's data";
  if (s.constraint_non_finite) return "a constraint gave a NaN or inf cost or impulse";
  return "the solver returned a non-finite velocity";
}

// The approximations whose friction bound is the normal impulse of the step's start
// (docs/contact-model.md §2.3).
bool LagsTheNormalImpulse(ContactApproximation approximation) {
  return approximation == ContactApproximation::kLagged ||
         approximation == ContactApproximation::kRegularizedLagged;
}

}  // namespace

World::World(const SceneSpec& scene) : World(std::make_shared<const SceneSpec>(scene)) {}

World::World(std::shared_ptr<const SceneSpec> scene)
    : model_(std::move(scene)),
      data_(std::make_unique<MultibodyData>(model_.multibody())),
      q_(model_.initial_positions()),
      v_(model_.initial_velocities()),
      inputs_(MakeInitialInputs(model_)),
      problem_builder_(model_) {
  results_.net_normal_force.assign(model_.num_bodies(), Eigen::Vector3d::Zero());
  results_.net_friction_force.assign(model_.num_bodies(), Eigen::Vector3d::Zero());
  model_.multibody().UpdateKinematics(q_, v_, data_.get());
}

World::~World() = default;

// The step's stages (docs/architecture.md §3), one line each, as MuJoCo's mj_step lists its
// own. data_ already holds the kinematics of (q_, v_): the constructor, SetState, Reset and the
// end of every step keep it current. A failed stage leaves the state as it was.
bool World::Step(double end_time_s) {
  const ScopedTimer timer(&stats_.total_ms);
  failure_.clear();
  if (inputs_.contact_settings.integrator.scheme == TimeIntegration::Scheme::kErrorControlled) {
    return StepErrorControlled(end_time_s);
  }
  return StepFixed(inputs_.contact_settings.dt_s);
}

bool World::StepFixed(double dt_s) {
  // 1. Geometry query: contacts at q0, hydroelastic faces included, far ones set aside.
  QueryGeometry(dt_s, &geometry_query_, &query_);
  // 2. Build and solve: the free motion and the convex problem at (q0, v0), its minimizer v;
  //    set-aside contacts re-checked at v.
  if (!BuildAndSolve(dt_s, &query_, v_)) return FailStep(DescribeSolverFailure(solver_stats_), v_);
  // 3. Integrate: q = q0 + δt N(q0) v (the θ-method: a weighted v).
  if (!IntegrateStepPositions(dt_s)) {
    return FailStep("non-finite positions after the step", v_next_);
  }
  // 4. Results: per contact force, slip and state; per body and patch the net force.
  CollectResults(&query_, dt_s);
  // 5. Advance: (q, v, t) at the step's end become the state.
  AdvanceState(dt_s);
  stats_.dt_s = dt_s;
  stats_.error_estimate = 0;
  stats_.error_body = -1;
  stats_.num_rejected = 0;
  stats_.at_step_floor = false;
  position_error_by_body_.clear();  // a fixed step has no estimate
  return true;
}

// docs/contact-model.md §1.2, one algorithm: step doubling after Kurtz & Castro's CENIC. An
// attempt of size h takes a full step and two half steps from x0; the full step and the first
// half step share x0's geometry query, the second half step has its own at x_{h/2}. The error
// estimate compares the full step's state with the halves' (StepError); the halves' result is
// the step's. A rejected attempt restores x0 and retries smaller on x0's query, which
// covers the smaller step (the reach shrinks with δt). The Newton tolerance follows the
// accuracy: max(1e-3 ε, 1e-8), never looser than the fixed step's.
bool World::StepErrorControlled(double end_time_s) {
  const ContactSettings& settings = inputs_.contact_settings;
  const double dt_max = settings.dt_s;
  const StepSizeLimits limits{settings.integrator.accuracy, dt_max, kStepFloorFraction * dt_max};
  double h = next_dt();
  bool cut_short = false;
  if (time_ + h > end_time_s) {
    h = end_time_s - time_;
    cut_short = true;
    if (!(h > 0)) return FailStep("error control was asked for a step ending before its start", v_);
  }
  const ConvexSolverParameters fixed_step_parameters = solver_.parameters();
  ConvexSolverParameters parameters = fixed_step_parameters;
  parameters.relative_tolerance =
      std::min(parameters.relative_tolerance, std::max(1e-3 * settings.integrator.accuracy, 1e-8));
  solver_.set_parameters(parameters);
  q_start_ = q_;
  v_start_ = v_;
  t_start_ = time_;
  last_dt_start_s_ = last_dt_s_;
  QueryGeometry(h, &geometry_query_, &query_, /*swept_margin=*/true);
  SolveTally tally;
  tally.geometry_ms = stats_.geometry_ms;
  int rejected = 0;
  for (;;) {
    double error = 0;
    if (!TryDoubledStep(h, &tally, &error)) {
      solver_.set_parameters(fixed_step_parameters);
      RestoreStepStart();
      return false;
    }
    const StepSizeDecision decision = DecideStepSize(h, error, limits);
    if (decision.accept) {
      solver_.set_parameters(fixed_step_parameters);
      CollectResults(&query_half_, 0.5 * h);
      AdvanceState(0.5 * h);
      time_ = cut_short ? end_time_s : t_start_ + h;
      std::swap(geometry_query_, geometry_query_half_);
      std::swap(query_, query_half_);
      // After a rejection the next step does not grow (Hairer, Nørsett & Wanner I §II.4): the
      // estimate just failed to predict this one.
      if (!cut_short)
        next_dt_s_ = rejected > 0 ? std::min(decision.next_dt_s, h) : decision.next_dt_s;
      stats_.geometry_ms = tally.geometry_ms;
      stats_.solve_ms = tally.solve_ms;
      stats_.iterations = tally.iterations;
      stats_.num_solves = tally.solves;
      stats_.dt_s = h;
      stats_.error_estimate = error;
      stats_.num_rejected = rejected;
      stats_.at_step_floor = decision.at_floor;
      if (decision.at_floor && !floor_reported_) {
        floor_reported_ = true;
        spdlog::warn(
            "error control hit its floor δt = {:.3g} s at t = {:.6g} s: the step's error {:.3g} "
            "is above the accuracy {:.3g} asked (reported once per run; counted in the summary)",
            h, t_start_, error, settings.integrator.accuracy);
      }
      return true;
    }
    RestoreStepStart();
    h = decision.next_dt_s;
    cut_short = false;
    ++rejected;
  }
}

bool World::TryDoubledStep(double h, SolveTally* tally, double* error) {
  // One sub-step of size dt from the state on `query`'s candidates, its solves tallied.
  const auto sub_step = [&](double dt, GeometryQueryResult* query, const Eigen::VectorXd& guess) {
    const bool solved = BuildAndSolve(dt, query, guess);
    tally->AddSolve(stats_);
    if (!solved) return FailStep(DescribeSolverFailure(solver_stats_), v_);
    if (!IntegrateStepPositions(dt))
      return FailStep("non-finite positions after the step", v_next_);
    return true;
  };
  if (!sub_step(h, &query_, v_)) return false;
  q_full_ = q_next_;
  v_full_ = v_next_;
  // The first half step: x0's geometry, warm-started between v0 and the full step's v.
  v_guess_ = 0.5 * (v_ + v_full_);
  if (!sub_step(0.5 * h, &query_, v_guess_)) return false;
  AdvanceState(0.5 * h);
  // The second half step from x_{h/2}, its own geometry, warm-started at the full step's v.
  QueryGeometry(0.5 * h, &geometry_query_half_, &query_half_, /*swept_margin=*/true);
  tally->geometry_ms += stats_.geometry_ms;
  if (!sub_step(0.5 * h, &query_half_, v_full_)) return false;
  *error = StepError();
  return true;
}

void World::RestoreStepStart() {
  q_ = q_start_;
  v_ = v_start_;
  time_ = t_start_;
  last_dt_s_ = last_dt_start_s_;
  model_.multibody().UpdateKinematics(q_, v_, data_.get());
}

// Per scene body the largest difference of its coordinates (a robot link: its joint's) between
// the full step (q_full_, v_full_) and the halves' (q_next_, v_next_), velocities weighed by
// δt_max (the position error they would make over the longest step); their maximum is the
// step's estimate max(‖Δq‖∞, δt_max ‖Δv‖∞) (docs/contact-model.md §1.2: positions alone miss the
// step that enters contact under Lagged, whose full and half steps end at the same place with
// different velocities).
double World::StepError() {
  const Multibody& mb = model_.multibody();
  const double velocity_weight_s = inputs_.contact_settings.dt_s;  // δt_max
  position_error_by_body_.assign(model_.num_bodies(), 0.0);
  double error = 0;
  stats_.error_body = -1;
  for (int b = 0; b < model_.num_bodies(); ++b) {
    const int m = model_.multibody_index(b);
    if (m < 0 || mb.joint_num_positions(m) == 0) continue;
    const int s = mb.position_start(m), n = mb.joint_num_positions(m);
    const int sv = mb.velocity_start(m), nv = mb.joint_num_velocities(m);
    const double e =
        std::max((q_full_.segment(s, n) - q_next_.segment(s, n)).cwiseAbs().maxCoeff(),
                 velocity_weight_s *
                     (v_full_.segment(sv, nv) - v_next_.segment(sv, nv)).cwiseAbs().maxCoeff());
    position_error_by_body_[b] = e;
  }
  if (LagsTheNormalImpulse(inputs_.contact_settings.approximation)) AddContactOnsetError();
  for (int b = 0; b < model_.num_bodies(); ++b) {
    const double e = position_error_by_body_[b];
    // NaN compares false: a non-finite difference makes the whole estimate NaN.
    if (!(e <= error)) {
      error = e;
      stats_.error_body = b;
    }
  }
  return error;
}

// docs/contact-model.md §1.2: a Lagged contact that is open at the second half step's start has
// no friction in that step (its friction bound is μ times the lagged normal impulse, zero), and
// so has the full step from x0; when it closes within the half step, the three solves agree and
// the friction the step lacks, μ γ_n, is invisible to step doubling. It is counted as the
// tangential velocity error it makes at the contact point, at most μ γ_n (1/m + r²/I_min) on
// each moving body (r from its centre of mass, I_min its least moment of inertia), weighed by
// δt_max like the velocity differences.
void World::AddContactOnsetError() {
  const auto gamma = solver_.impulses();
  const double velocity_weight_s = inputs_.contact_settings.dt_s;  // δt_max
  for (size_t c = 0; c < query_half_.candidates.size(); ++c) {
    const ContactCandidate& candidate = query_half_.candidates[c];
    if (candidate.patch >= 0 || candidate.point.signed_distance_m < 0) continue;
    const ConvexProblem::ConstraintEntry& e =
        problem_builder_.problem().entry(problem_builder_.contact_constraint(static_cast<int>(c)));
    const double missing_friction = problem_builder_.contact_pair(static_cast<int>(c)).friction *
                                    std::max(gamma[e.row_start + 2], 0.0);
    if (missing_friction == 0) continue;
    for (const int g : {candidate.geometry_a, candidate.geometry_b}) {
      const int b = model_.geometry(g).scene_body;
      if (!model_.movable(b)) continue;
      const SpatialInertiaSpec& inertia = scene().bodies[b].body.inertia;
      const Eigen::Vector3d r_W = candidate.point.Midpoint() - BodyPose(b) * inertia.com_B;
      const double least_moment = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(
                                      inertia.inertia_about_com_B, Eigen::EigenvaluesOnly)
                                      .eigenvalues()[0];
      const double inverse_mass =
          1 / inertia.mass_kg + (least_moment > 0 ? r_W.squaredNorm() / least_moment : 0.0);
      double& body_error = position_error_by_body_[b];
      body_error = std::max(body_error, velocity_weight_s * missing_friction * inverse_mass);
    }
  }
}

bool World::IntegrateStepPositions(double dt_s) {
  const TimeIntegration& integrator = inputs_.contact_settings.integrator;
  if (integrator.scheme == TimeIntegration::Scheme::kTheta) {
    return IntegratePositions(model_.multibody(), q_, v_, v_next_, dt_s, integrator.theta_q,
                              &v_position_, &q_next_);
  }
  return IntegratePositions(model_.multibody(), q_, v_next_, dt_s, &q_next_);
}

double World::next_dt() const {
  const ContactSettings& settings = inputs_.contact_settings;
  if (settings.integrator.scheme != TimeIntegration::Scheme::kErrorControlled) {
    return settings.dt_s;
  }
  return std::min(next_dt_s_ > 0 ? next_dt_s_ : kFirstStepFraction * settings.dt_s, settings.dt_s);
}

void World::SetStepSizeState(const StepSizeState& state) {
  if (!(state.last_dt_s >= 0) || !(state.next_dt_s >= 0) || !std::isfinite(state.last_dt_s) ||
      !std::isfinite(state.next_dt_s)) {
    throw std::invalid_argument("World::SetStepSizeState: sizes must be finite and ≥ 0");
  }
  last_dt_s_ = state.last_dt_s;
  next_dt_s_ = state.next_dt_s;
}

void World::QueryGeometry(double dt_s, GeometryQuery* geometry_query, GeometryQueryResult* query,
                          bool swept_margin) {
  const ScopedTimer timer(&stats_.geometry_ms);
  // The rigid stage decides which contacts act from the velocities (§8): none is set aside, and
  // every contact the step can reach is found before it penetrates (the swept margin), so that
  // its gap velocity lands it exactly on the surface.
  const ContactReachRule* rule = reach_rule_ && !rigid_model() ? &*reach_rule_ : nullptr;
  geometry_query->Run(model_, *data_, time_, dt_s, inputs_, rule, query,
                      swept_margin || rigid_model());
}

void World::CollectResults(GeometryQueryResult* query, double dt_s) {
  if (rigid_model()) {
    CollectStepResults(model_, query->candidates, problem_builder_, rigid_stage_.impulses(),
                       rigid_stage_.constraint_velocities(), dt_s, &query->patches, &results_);
  } else {
    CollectStepResults(model_, query->candidates, problem_builder_, solver_.impulses(),
                       solver_.constraint_velocities(), dt_s, &query->patches, &results_);
  }
}

// The problem of the step's candidates, solved; then the contacts left out as out of reach are
// checked at the solution, and any that would act there are put in and the step solved again
// from that solution (docs/contact-model.md §4.3): the contacts left out have ℓ_i = 0 and
// ∇ℓ_i = 0 around the final v, which is therefore the minimizer with every contact in.
bool World::BuildAndSolve(double dt_s, GeometryQueryResult* query, const Eigen::VectorXd& guess) {
  const ScopedTimer timer(&stats_.solve_ms);
  const StepStart start{q_, v_, *data_, time_, dt_s};
  problem_builder_.Build(model_, inputs_, start, query->candidates);
  bool solved =
      SolveVelocities(&solver_, problem_builder_.problem(), guess, time_, &v_next_, &solver_stats_);
  int iterations = solver_stats_.iterations;
  stats_.num_solves = 1;
  while (solved && reach_check_.Restore(model_, *data_, time_, dt_s, v_next_, &query->unreachable,
                                        &query->candidates) > 0) {
    problem_builder_.Build(model_, inputs_, start, query->candidates);
    solved = SolveVelocities(&solver_, problem_builder_.problem(), v_next_, time_, &v_next_,
                             &solver_stats_);
    iterations += solver_stats_.iterations;
    ++stats_.num_solves;
  }
  solver_stats_.iterations = iterations;
  FillStats(solver_stats_, *query);
  stats_.free_motion_iterations = problem_builder_.free_motion_iterations();
  if (!problem_builder_.free_motion_converged()) {
    stats_.converged = false;
    spdlog::warn(
        "t = {:.6g} s: the θ-method's free motion did not converge in {} Newton "
        "iterations; the step is taken from the last iterate",
        time_, stats_.free_motion_iterations);
  }
  if (!solved) stats_.converged = false;
  stats_.rigid = RigidContactStats{};
  if (solved && rigid_model()) ApplyRigidImpulses(dt_s, *query);
  return solved;
}

void World::ApplyRigidImpulses(double dt_s, const GeometryQueryResult& query) {
  rigid_stage_.Apply(problem_builder_, query.candidates, dt_s, solver_, &v_next_);
  stats_.rigid = rigid_stage_.stats();
  if (!stats_.rigid.solver.converged) {
    stats_.converged = false;
    spdlog::warn(
        "t = {:.6g} s: Drumwright & Shell's phase 2 did not reach its duality gap ({:.3g} after "
        "{} barrier updates) on {} contacts; the step is taken from its last feasible iterate",
        time_, stats_.rigid.solver.duality_gap, stats_.rigid.solver.outer_iterations,
        stats_.rigid.num_active);
  }
}

bool World::FailStep(const char* what, const Eigen::VectorXd& v) {
  failure_ = DescribeFailure(what, q_, v);
  return false;
}

void World::AdvanceState(double dt_s) {
  q_.swap(q_next_);
  v_.swap(v_next_);
  time_ += dt_s;
  last_dt_s_ = dt_s;
  model_.multibody().UpdateKinematics(q_, v_, data_.get());
}

std::string World::DescribeFailure(const char* what, const Eigen::VectorXd& q,
                                   const Eigen::VectorXd& v) const {
  // A state beyond this is no physical motion (docs/architecture.md, Errors and exit codes).
  constexpr double kAbsurd = 1e6;
  const Multibody& mb = model_.multibody();
  for (size_t b = 0; b < scene().bodies.size(); ++b) {
    const int m = multibody_index(static_cast<int>(b));
    if (m < 0) continue;
    const auto bad = [&](const Eigen::VectorXd& x, int start, int n) {
      return n > 0 && (!x.segment(start, n).allFinite() ||
                       x.segment(start, n).cwiseAbs().maxCoeff() > kAbsurd);
    };
    const char* which = bad(q, mb.position_start(m), mb.joint_num_positions(m))    ? "position"
                        : bad(v, mb.velocity_start(m), mb.joint_num_velocities(m)) ? "velocity"
                                                                                   : nullptr;
    if (which) {
      return fmt::format("{}; body '{}' has a non-finite or absurd {}", what,
                         scene().bodies[b].body.name, which);
    }
  }
  return fmt::format("{}; every body's state is finite (a mass, inertia or force is not)", what);
}

void World::FillStats(const ConvexSolverStats& s, const GeometryQueryResult& query) {
  stats_.hydroelastic_ms = query.hydroelastic_ms;
  stats_.num_hydroelastic_faces = query.num_hydroelastic_faces;
  stats_.num_hydroelastic_polygons = query.num_hydroelastic_polygons;
  stats_.iterations = s.iterations;
  stats_.residual = s.residual;
  stats_.cost = s.cost;
  stats_.num_contacts = static_cast<int>(query.candidates.size());
  stats_.num_out_of_reach = static_cast<int>(query.unreachable.size());
  stats_.num_hydroelastic_patches = static_cast<int>(query.patches.size());
  stats_.num_constraints = s.num_constraints;
  stats_.converged = s.converged;
  stats_.linear_solver_used = s.linear_solver_used;
}

void World::Reset() {
  ResetActuation(model_, &inputs_);
  q_ = model_.initial_positions();
  v_ = model_.initial_velocities();
  time_ = 0;
  last_dt_s_ = 0;
  next_dt_s_ = 0;
  floor_reported_ = false;
  position_error_by_body_.clear();
  query_.candidates.clear();
  query_.unreachable.clear();
  query_.patches.clear();
  results_.Clear();
  stats_ = StepStats{};
  model_.multibody().UpdateKinematics(q_, v_, data_.get());
}

void World::SetState(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  if (q.size() != q_.size() || v.size() != v_.size()) {
    throw std::invalid_argument("World::SetState: wrong state size");
  }
  q_ = q;
  v_ = v;
  model_.multibody().UpdateKinematics(q_, v_, data_.get());
}

void World::SetState(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double time_s) {
  if (!std::isfinite(time_s)) throw std::invalid_argument("World::SetState: non-finite time");
  SetState(q, v);
  time_ = time_s;
  // A state recorded after a step: its kinematic bodies moved at the step velocity of a step of
  // the settings' δt, and error control starts afresh (a recording of error-controlled steps
  // restores what it recorded with SetStepSizeState).
  last_dt_s_ = time_s > 0 ? inputs_.contact_settings.dt_s : 0;
  next_dt_s_ = 0;
}

void World::SetOverrides(const ContactOverrides& o) {
  ApplyOverrides(o, &inputs_.contact_settings);
}

JointPdSpec& World::MutablePd(int scene_body, const char* caller) {
  if (scene_body < 0 || scene_body >= model_.num_bodies() || !inputs_.pd[scene_body]) {
    throw std::invalid_argument(std::string(caller) + ": body has no PD controller");
  }
  return *inputs_.pd[scene_body];
}

void World::SetPdTarget(int scene_body, double q_desired, double v_desired) {
  JointPdSpec& pd = MutablePd(scene_body, "SetPdTarget");
  if (!std::isfinite(q_desired) || !std::isfinite(v_desired)) {
    throw std::invalid_argument("SetPdTarget: targets must be finite");
  }
  pd.q_desired = q_desired;
  pd.v_desired = v_desired;
}

void World::SetPdEffortLimit(int scene_body, double effort_limit) {
  JointPdSpec& pd = MutablePd(scene_body, "SetPdEffortLimit");
  if (!(effort_limit > 0) || !std::isfinite(effort_limit)) {
    throw std::invalid_argument("SetPdEffortLimit: the effort limit must be positive");
  }
  pd.effort_limit = effort_limit;
}

void World::SetContactSettings(const ContactSettings& settings) {
  ValidateContactSettings(settings, "SetContactSettings: ", ContactSettingNames::kOptions);
  inputs_.contact_settings = settings;
}

void World::SetActuation(const std::vector<std::optional<JointPdSpec>>& pd) {
  if (pd.size() != inputs_.pd.size()) {
    throw std::invalid_argument("SetActuation: one entry per scene body expected");
  }
  for (size_t b = 0; b < pd.size(); ++b) {
    if (pd[b].has_value() != inputs_.pd[b].has_value()) {
      throw std::invalid_argument(fmt::format("SetActuation: body '{}' {} a PD controller",
                                              scene().bodies[b].body.name,
                                              inputs_.pd[b] ? "needs" : "has no"));
    }
    if (pd[b] && (!std::isfinite(pd[b]->q_desired) || !std::isfinite(pd[b]->v_desired) ||
                  !std::isfinite(pd[b]->feedforward) || !(pd[b]->effort_limit > 0))) {
      throw std::invalid_argument(fmt::format(
          "SetActuation: body '{}': targets must be finite and the effort limit positive",
          scene().bodies[b].body.name));
    }
  }
  inputs_.pd = pd;  // same sizes: copies in place
}

void World::SetExternalForce(const ExternalForce& force) {
  if (force.scene_body != -1) {
    if (force.scene_body < 0 || force.scene_body >= model_.num_bodies() ||
        model_.multibody_index(force.scene_body) < 0) {
      throw std::invalid_argument(
          fmt::format("SetExternalForce: body {} is not a dynamic body", force.scene_body));
    }
    if (!force.p_BoQ_B.allFinite() || !force.f_Q_W.allFinite()) {
      throw std::invalid_argument("SetExternalForce: the point and force must be finite");
    }
  }
  inputs_.external_force = force;
}

void World::SetHydroelasticGeometry(int g, HydroelasticRepresentation r) {
  if (g < 0 || g >= num_geometries()) {
    throw std::invalid_argument(
        fmt::format("SetHydroelasticGeometry: geometry {} out of range (the scene has {})", g,
                    num_geometries()));
  }
  try {
    CheckHydroelasticReplacement(geometry(g).name, inputs_.hydroelastic[g], r);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("SetHydroelasticGeometry: ") + e.what());
  }
  // The last step's patches point into the query's surfaces, not into the meshes: they stay
  // valid.
  inputs_.hydroelastic[g] = std::move(r);
}

Eigen::Isometry3d World::BodyPose(int scene_body) const {
  return model_.BodyPose(scene_body, *data_, time_);
}

Eigen::Matrix<double, 6, 1> World::BodyVelocity(int scene_body) const {
  Eigen::Matrix<double, 6, 1> V = Eigen::Matrix<double, 6, 1>::Zero();
  const SceneBody& sb = scene().bodies[scene_body];
  const int b = model_.multibody_index(scene_body);
  if (b >= 0) {
    V.head<3>() = data_->w_WB[b];
    V.tail<3>() = data_->v_WBo[b];
  } else if (sb.kind == SceneBody::Kind::kKinematic) {
    // The velocity the last step used (WorldModel::KinematicStepVelocity), analytic before any
    // step.
    V.tail<3>() = last_dt_s_ > 0
                      ? model_.KinematicStepVelocity(scene_body, time_ - last_dt_s_, last_dt_s_)
                      : sb.motion.Velocity(time_) * sb.motion.axis;
  }
  return V;
}

Eigen::Isometry3d World::GeometryPose(int g) const {
  return BodyPose(geometry_body(g)) * geometry(g).X_BG;
}

double World::KineticEnergy() const { return multibody().CalcKineticEnergy(*data_); }

double World::PotentialEnergy() const {
  return multibody().CalcPotentialEnergy(*data_, scene().gravity_W);
}

}  // namespace contactlab
