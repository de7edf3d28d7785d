// The simulated world: a model (the scene compiled once, immutable), the inputs that change
// while it runs, and the state, advanced one time step at a time by the convex contact solver.
// A step is a short list of named stages (docs/architecture.md §3), their work in file pairs of
// their own: geometry query → build and solve → integrate → results → advance.
// Engine only: no rendering, no UI.
#pragma once

#include <Eigen/Dense>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/hydroelastic/hydroelastic_representation.h"
#include "engine/multibody/multibody.h"
#include "engine/solver/convex_solver.h"
#include "engine/world/geometry_query.h"
#include "engine/world/problem_builder.h"
#include "engine/world/rigid_contact_stage.h"
#include "engine/world/step_results.h"
#include "engine/world/world_inputs.h"
#include "engine/world/world_model.h"

namespace contactlab {

struct StepStats {
  double geometry_ms = 0, solve_ms = 0, total_ms = 0;
  double hydroelastic_ms = 0;  // contact surfaces (part of geometry_ms)
  int num_hydroelastic_patches = 0;
  int num_hydroelastic_faces = 0;  // face constraints (merged small polygons count once)
  // Contact-surface polygons, each fanned into faces (docs/contact-model.md §5); Drake's
  // default for discrete plants (kPolygon) makes each polygon one constraint.
  int num_hydroelastic_polygons = 0;
  int iterations = 0;
  double residual = 0;
  double cost = 0;
  int num_contacts = 0;
  // Point contacts within the margin left out as out of reach (contact_reach.h), and the
  // step's solves: 1, plus one per after-check that put contacts back.
  int num_out_of_reach = 0;
  int num_solves = 1;
  int num_constraints = 0;
  bool converged = true;
  double dt_s = 0;                 // the step's size (under error control the accepted one's)
  int free_motion_iterations = 0;  // the θ-method's Newton iterations (0: symplectic Euler)
  // Error control (docs/contact-model.md §1.2): the accepted step's error estimate
  // max(‖q − q̂‖∞, δt_max ‖v − v̂‖∞) (m and rad), the scene body that has it (−1: none), the attempts
  // rejected before it, and whether it was taken at the floor δt_min with its error above ε.
  double error_estimate = 0;
  int error_body = -1;
  int num_rejected = 0;
  bool at_step_floor = false;
  LinearSolverType linear_solver_used = LinearSolverType::kDense;  // the last solve's factorization
  // The rigid model's stage (docs/contact-model.md §8; zero under the compliant ones).
  RigidContactStats rigid;
};

class World {
 public:
  // Throws std::invalid_argument on an invalid scene (ValidateScene + multibody checks).
  explicit World(const SceneSpec& scene);
  // The same, sharing the scene (e.g. with snapshots that outlive the World).
  explicit World(std::shared_ptr<const SceneSpec> scene);
  ~World();

  // Advances one step: of δt, or under error control (docs/contact-model.md §1.2) one accepted
  // step of the size the error estimate chose, ending no later than end_time_s (a step cut
  // short there does not change the next step's size). Returns false on an unrecoverable
  // failure (NaN, inf or an absurd value in the step's data or its result), described by
  // failure(); the state is then left at the last good values. Non-convergence is reported in
  // last_stats().converged and logged, and the step is still taken.
  bool Step(double end_time_s = std::numeric_limits<double>::infinity());
  // The size the next Step() will try: δt, or error control's proposal (at most δt_max).
  double next_dt() const;
  // What carries over from step to step besides (q, v, t): the size of the last step (a
  // kinematic body's velocity is its mean over it) and error control's proposal for the next.
  // A recording restores it with the state for a bit-exact continuation.
  struct StepSizeState {
    double last_dt_s = 0;  // 0 before any step
    double next_dt_s = 0;  // 0: error control's first step, a tenth of δt_max
    bool operator==(const StepSizeState&) const = default;
  };
  StepSizeState step_size_state() const { return {last_dt_s_, next_dt_s_}; }
  // Throws std::invalid_argument on a negative or non-finite size.
  void SetStepSizeState(const StepSizeState& state);
  // Per scene body, the last error-controlled step's estimate over its coordinates and
  // δt_max-weighted velocities (m, rad;
  // zero for bodies that do not move; empty before such a step and after a fixed step).
  const std::vector<double>& position_error_by_body() const { return position_error_by_body_; }
  // Why the last Step() failed, naming the first body whose state is not finite or beyond
  // 1e6 (m, m/s, rad/s) if there is one (empty after a step that did not fail).
  const std::string& failure() const { return failure_; }
  // Restores the initial state and the actuation (PD targets, effort limits) exactly; the live
  // settings (overrides, hydroelastic representations) are kept.
  void Reset();

  // Live settings, between steps (the UI or command line): a change (validated by
  // ApplyOverrides), or a whole value (e.g. the one a timeline recorded with a step). Both throw
  // std::invalid_argument on a value out of range (ValidateContactSettings), changing nothing.
  void SetOverrides(const ContactOverrides& o);
  const ContactSettings& contact_settings() const { return inputs_.contact_settings; }
  void SetContactSettings(const ContactSettings& settings);
  // Teleoperation and scripted motion: new targets (and effort limit, e.g. the grip force) of
  // a PD-controlled 1-dof joint, used from the next step on. Throws std::invalid_argument for a
  // body without a PD controller or a non-finite / non-positive value.
  void SetPdTarget(int scene_body, double q_desired, double v_desired);
  void SetPdEffortLimit(int scene_body, double effort_limit);
  // The whole actuation at once, as inputs().pd holds it (a ghost or a replay applies another
  // world's actuation exactly). Throws std::invalid_argument unless every body keeps its PD
  // controller or lack of one, with finite targets and a positive effort limit.
  void SetActuation(const std::vector<std::optional<JointPdSpec>>& pd);
  // An external force from the next step on, held until changed (scene_body −1: none). Throws
  // std::invalid_argument for a body that is not dynamic or a non-finite point or force.
  void SetExternalForce(const ExternalForce& force);
  // Swaps in a representation built by BuildHydroelasticRepresentation (typically on another
  // thread) for geometry g, between steps: a pointer move, no meshing. The state, time,
  // overrides and PD targets are kept; the next step uses it. Throws std::invalid_argument if g
  // is out of range or the representation's model is not the geometry's (or its mesh is
  // missing).
  void SetHydroelasticGeometry(int g, HydroelasticRepresentation representation);

  const WorldModel& model() const { return model_; }
  const SceneSpec& scene() const { return model_.scene(); }  // the model's description
  const std::shared_ptr<const SceneSpec>& shared_scene() const { return model_.shared_scene(); }
  const WorldInputs& inputs() const { return inputs_; }
  const Multibody& multibody() const { return model_.multibody(); }
  const MultibodyData& data() const { return *data_; }  // kinematics at the current state
  double time() const { return time_; }
  double dt() const { return inputs_.contact_settings.dt_s; }
  ContactApproximation approximation() const { return inputs_.contact_settings.approximation; }
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& v() const { return v_; }
  void SetState(const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  // The state and the time: with the same inputs, the steps that follow are bit for bit those
  // that followed when the world was in this state (the solver starts from v, and nothing else
  // carries over from step to step). Throws std::invalid_argument on a wrong size or a
  // non-finite time.
  void SetState(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double time_s);

  // Scene body index → multibody body index (−1 for static/kinematic bodies).
  int multibody_index(int scene_body) const { return model_.multibody_index(scene_body); }
  // Pose and velocity of any scene body at the current state/time.
  Eigen::Isometry3d BodyPose(int scene_body) const;
  // [ω, v_origin] in the world frame. Kinematic bodies report the mean velocity of the last
  // step (the one the solver used).
  Eigen::Matrix<double, 6, 1> BodyVelocity(int scene_body) const;
  // World pose of geometry g (flattened over bodies in scene order).
  Eigen::Isometry3d GeometryPose(int g) const;
  int num_geometries() const { return model_.num_geometries(); }
  const GeometrySpec& geometry(int g) const { return *model_.geometry(g).spec; }
  int geometry_body(int g) const { return model_.geometry(g).scene_body; }

  const std::vector<ContactResult>& contacts() const { return results_.contacts; }
  // The hydroelastic contact surfaces of the last step (docs/contact-model.md §5), one per pair
  // in contact; their faces are also in contacts().
  const std::vector<HydroelasticPatch>& hydroelastic_patches() const { return query_.patches; }
  // Geometry g's hydroelastic representation in force (model kPoint and no meshes for point
  // contact), and its properties in force (the scene's, with the live E_h and resolution).
  const HydroelasticRepresentation& hydroelastic_representation(int g) const {
    return inputs_.hydroelastic[g];
  }
  HydroelasticProperties hydroelastic_properties(int g) const {
    return inputs_.hydroelastic[g].InForce(geometry(g).hydroelastic);
  }
  const StepStats& last_stats() const { return stats_; }
  // The last step's full solver statistics and its problem (valid until the next Step).
  const ConvexSolverStats& last_solver_stats() const { return solver_stats_; }
  const ConvexProblem& last_problem() const { return problem_builder_.problem(); }
  // Net contact force on a scene body over the last step: normal and friction parts [N].
  Eigen::Vector3d NetNormalForce(int scene_body) const {
    return results_.net_normal_force[scene_body];
  }
  Eigen::Vector3d NetFrictionForce(int scene_body) const {
    return results_.net_friction_force[scene_body];
  }

  double KineticEnergy() const;
  double PotentialEnergy() const;  // gravity + joint springs
  ConvexSolver& solver() { return solver_; }
  const ConvexSolver& solver() const { return solver_; }
  // Point contacts out of reach are left out of the problem and checked afterwards
  // (contact_reach.h; the default rule); nullopt keeps every contact within the margin, the
  // same solution at a larger problem's cost.
  void set_contact_reach_rule(const std::optional<ContactReachRule>& rule) { reach_rule_ = rule; }

 private:
  JointPdSpec& MutablePd(int scene_body, const char* caller);
  // Step's stages (docs/architecture.md §3), each timed into stats_ where StepStats has a field.
  // One step of dt_s through the stages (docs/architecture.md §3).
  bool StepFixed(double dt_s);
  // One accepted step by step doubling (docs/contact-model.md §1.2).
  bool StepErrorControlled(double end_time_s);
  // A full step and two half steps from the state (q_, v_, time_) of size dt_s, the state then
  // at the second half step's start; *error their positions' difference. False on a failure.
  // *tally sums the attempt's query and solves (error control reports the accepted step's total).
  struct SolveTally {
    double geometry_ms = 0, solve_ms = 0;
    int iterations = 0, solves = 0;
    void AddSolve(const StepStats& s) {
      solve_ms += s.solve_ms;
      iterations += s.iterations;
      solves += s.num_solves;
    }
  };
  bool TryDoubledStep(double dt_s, SolveTally* tally, double* error);
  void RestoreStepStart();
  double StepError();
  void AddContactOnsetError();
  void QueryGeometry(double dt_s, GeometryQuery* geometry_query, GeometryQueryResult* query,
                     bool swept_margin = false);
  // The problem of the step of dt_s from the state on the given candidates, solved from `guess`
  // into v_next_ (under the rigid model with the rigid stage's impulses); also fills stats_ from
  // the solver's.
  bool BuildAndSolve(double dt_s, GeometryQueryResult* query, const Eigen::VectorXd& guess);
  bool rigid_model() const { return IsRigidModel(inputs_.contact_settings.approximation); }
  // The rigid stage on v_next_ (rigid_contact_stage.h), its statistics into stats_.
  void ApplyRigidImpulses(double dt_s, const GeometryQueryResult& query);
  // Results of the last BuildAndSolve on `query` (CollectStepResults).
  void CollectResults(GeometryQueryResult* query, double dt_s);
  // q_next_ from q_ and v_next_ by the settings' scheme.
  bool IntegrateStepPositions(double dt_s);
  void AdvanceState(double dt_s);
  // Records why the step failed (DescribeFailure with q_ and v) and returns false.
  bool FailStep(const char* what, const Eigen::VectorXd& v);
  void FillStats(const ConvexSolverStats& s, const GeometryQueryResult& query);
  std::string DescribeFailure(const char* what, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& v) const;

  const WorldModel model_;
  std::unique_ptr<MultibodyData> data_;
  Eigen::VectorXd q_, v_;
  double time_ = 0;
  double last_dt_s_ = 0;  // the size of the step that led to the state (0 before any step)
  double next_dt_s_ = 0;  // error control's next step (0: its first step)
  WorldInputs inputs_;

  // The stages' reused storage.
  GeometryQuery geometry_query_;
  GeometryQueryResult query_;  // the last step's (shown: contacts, patches)
  // Error control's query at the half step, swapped with the above when a step is accepted.
  GeometryQuery geometry_query_half_;
  GeometryQueryResult query_half_;
  // Error control's step start, the full step's result and the warm start of a half step.
  Eigen::VectorXd q_start_, v_start_, q_full_, v_full_, v_guess_, v_position_;
  double t_start_ = 0, last_dt_start_s_ = 0;
  std::vector<double> position_error_by_body_;
  bool floor_reported_ = false;  // error control's floor is reported once per run
  std::optional<ContactReachRule> reach_rule_ = ContactReachRule{};
  ContactReachCheck reach_check_;
  ProblemBuilder problem_builder_;
  ConvexSolver solver_;
  RigidContactStage rigid_stage_;
  Eigen::VectorXd v_next_, q_next_;
  StepResults results_;
  StepStats stats_;
  std::string failure_;
  ConvexSolverStats solver_stats_;
};

}  // namespace contactlab
