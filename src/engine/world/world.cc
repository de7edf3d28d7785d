#include "engine/world/world.h"

#include <spdlog/fmt/fmt.h>

#include <cmath>
#include <stdexcept>
#include <utility>

#include "engine/world/integrate_positions.h"
#include "engine/world/solve_velocities.h"
#include "engine/world/step_clock.h"

namespace contactlab {
namespace {

// What went wrong in a solve that SolveVelocities refused, from the solver's flags.
const char* DescribeSolverFailure(const ConvexSolverStats& s) {
  if (s.invalid_input) return "NaN, inf or an absurd value in the step's data";
  if (s.constraint_non_finite) return "a constraint gave a NaN or inf cost or impulse";
  return "the solver returned a non-finite velocity";
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
bool World::Step() {
  const ScopedTimer timer(&stats_.total_ms);
  failure_.clear();
  return StepFixed(inputs_.contact_settings.dt_s);
}

bool World::StepFixed(double dt_s) {
  // 1. Geometry query: contacts at q0, hydroelastic faces included, far ones set aside.
  QueryGeometry(dt_s);
  // 2. Build and solve: the convex problem at (q0, v0), its minimizer v; set-aside contacts
  //    re-checked at v.
  if (!BuildAndSolve(dt_s)) return FailStep(DescribeSolverFailure(solver_stats_), v_);
  // 3. Integrate: q = q0 + δt N(q0) v.
  if (!IntegratePositions(model_.multibody(), q_, v_next_, dt_s, &q_next_)) {
    return FailStep("non-finite positions after the step", v_next_);
  }
  // 4. Results: per contact force, slip and state; per body and patch the net force.
  CollectStepResults(model_, query_.candidates, problem_builder_, solver_, dt_s, &query_.patches,
                     &results_);
  // 5. Advance: (q, v, t) at the step's end become the state.
  AdvanceState(dt_s);
  return true;
}

void World::QueryGeometry(double dt_s) {
  const ScopedTimer timer(&stats_.geometry_ms);
  geometry_query_.Run(model_, *data_, time_, dt_s, inputs_,
                      reach_rule_ ? &*reach_rule_ : nullptr, &query_);
}

// The problem of the step's candidates, solved; then the contacts left out as out of reach are
// checked at the solution, and any that would act there are put in and the step solved again
// from that solution (docs/contact-model.md §4.3): the contacts left out have ℓ_i = 0 and
// ∇ℓ_i = 0 around the final v, which is therefore the minimizer with every contact in.
bool World::BuildAndSolve(double dt_s) {
  const ScopedTimer timer(&stats_.solve_ms);
  const StepStart start{q_, v_, *data_, time_, dt_s};
  problem_builder_.Build(model_, inputs_, start, query_.candidates);
  bool solved =
      SolveVelocities(&solver_, problem_builder_.problem(), v_, time_, &v_next_, &solver_stats_);
  int iterations = solver_stats_.iterations;
  stats_.num_solves = 1;
  while (solved && reach_check_.Restore(model_, *data_, time_, dt_s,
                                        v_next_, &query_.unreachable, &query_.candidates) > 0) {
    problem_builder_.Build(model_, inputs_, start, query_.candidates);
    solved = SolveVelocities(&solver_, problem_builder_.problem(), v_next_, time_, &v_next_,
                             &solver_stats_);
    iterations += solver_stats_.iterations;
    ++stats_.num_solves;
  }
  solver_stats_.iterations = iterations;
  FillStats(solver_stats_);
  if (!solved) stats_.converged = false;
  return solved;
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

void World::FillStats(const ConvexSolverStats& s) {
  stats_.hydroelastic_ms = query_.hydroelastic_ms;
  stats_.num_hydroelastic_faces = query_.num_hydroelastic_faces;
  stats_.num_hydroelastic_polygons = query_.num_hydroelastic_polygons;
  stats_.iterations = s.iterations;
  stats_.residual = s.residual;
  stats_.cost = s.cost;
  stats_.num_contacts = static_cast<int>(query_.candidates.size());
  stats_.num_out_of_reach = static_cast<int>(query_.unreachable.size());
  stats_.num_hydroelastic_patches = static_cast<int>(query_.patches.size());
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
  // the settings' δt (a timeline restores the step size it recorded with SetLastStepSize).
  last_dt_s_ = time_s > 0 ? inputs_.contact_settings.dt_s : 0;
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
