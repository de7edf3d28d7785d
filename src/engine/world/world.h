// The simulated world: a multibody, its collision geometry, kinematic bodies and joint-level
// controllers, advanced one time step at a time by the convex contact solver
// (contact-math.md §1–4). Engine only: no rendering, no UI.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/broad_phase.h"
#include "engine/geometry/collision.h"
#include "engine/hydroelastic/contact_surface.h"
#include "engine/hydroelastic/hydroelastic_geometry.h"
#include "engine/multibody/multibody.h"
#include "engine/solver/contact_constraints.h"
#include "engine/solver/convex_solver.h"
#include "engine/solver/joint_constraints.h"
#include "engine/world/scene_spec.h"

namespace contactlab {

// One contact point of the last step, with the force the solver applied. A hydroelastic
// contact surface contributes one ContactResult per face (contact-math.md §5).
struct ContactResult {
  int geometry_a = -1, geometry_b = -1;
  int body_a = -1, body_b = -1;  // scene body indices
  Eigen::Vector3d position_W;    // where the force acts
  Eigen::Vector3d normal_W;      // from A into B
  double signed_distance_m = 0;  // at the start of the step
  // Force on B (minus on A) averaged over the step [N], split into normal and friction.
  Eigen::Vector3d normal_force_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d friction_force_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d slip_velocity_W = Eigen::Vector3d::Zero();  // v_t of B relative to A at end
  double normal_velocity = 0;                                 // v_n at end of step
  enum class State { kStick, kSlip, kMargin } state = State::kMargin;
  // Hydroelastic faces only (contact-math.md §5): index into World::hydroelastic_patches() and
  // of the face in that patch's surface (both −1 for a point contact), the face area A_f [m²]
  // and the pressure p0_f at its centroid [Pa] at the start of the step. For a face,
  // signed_distance_m is φ0_f = −p0_f/g_f. Small polygons are merged (kFanPolygonSize): the
  // contact then stands for faces [hydroelastic_face, hydroelastic_face +
  // hydroelastic_num_faces) (one polygon's fan), or, with hydroelastic_num_faces = 0, for all
  // of the patch's tiny polygons with this normal (hydroelastic_face: the first of them); area
  // and pressure are then the set's total area and mean pressure, and position_W its centre of
  // pressure.
  int hydroelastic_patch = -1;
  int hydroelastic_face = -1;
  int hydroelastic_num_faces = 0;
  double face_area_m2 = 0;
  double pressure_Pa = 0;
};

// One hydroelastic contact surface of the last step (for rendering and analysis). A is the
// compliant geometry; every normal points from A into B, as in ContactResult.
struct HydroelasticPatch {
  int geometry_a = -1, geometry_b = -1;
  int body_a = -1, body_b = -1;  // scene body indices
  // Triangles fanned from each polygon's centroid: surface->faces[f].vertices index
  // surface->vertices_W, with the pressure at every vertex in surface->vertex_pressure_Pa (and
  // per face: area, centroid, normal, pressure). Owned by the World; valid until the next
  // Step() or Reset().
  const hydroelastic::ContactSurface* surface = nullptr;
  // The faces that became constraints are contacts()[first_contact, first_contact +
  // num_contacts) (faces with no pressure gradient along the normal carry no spring and are
  // skipped, and small polygons are merged (kFanPolygonSize), so num_contacts ≤
  // surface->faces.size()).
  int first_contact = 0, num_contacts = 0;
  // Σ over those faces of the solver's normal and friction forces on B [N] (the step average).
  Eigen::Vector3d normal_force_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d friction_force_W = Eigen::Vector3d::Zero();
};

// One geometry's hydroelastic representation (contact-math.md §5): a compliant tet mesh with
// its pressure field p = E_h·ε, or a rigid triangle surface (or the analytic half-space).
// Immutable once built and shared (shared_ptr<const>): the sim thread keeps stepping with the
// old one while a new one is built on another thread, then swaps it in between steps
// (World::SetHydroelasticGeometry).
struct HydroelasticRepresentation {
  ContactModel model = ContactModel::kPoint;  // kPoint: none (point contact only)
  double modulus_Pa = 0;                      // E_h of a compliant geometry (0 otherwise)
  double resolution_m = 0;  // the edge length the mesh was built with (0: half-space or none)
  std::shared_ptr<const hydroelastic::CompliantGeometry> compliant;
  std::shared_ptr<const hydroelastic::RigidGeometry> rigid;
  int num_tets() const { return compliant ? compliant->mesh.num_tets() : 0; }
  int num_triangles() const { return rigid ? rigid->mesh.num_triangles() : 0; }
};

// Checks a live change of a geometry's E_h and mesh resolution (std::nullopt: unchanged).
// Throws std::invalid_argument with one line naming the geometry and the value: a modulus that
// is not positive and finite, or given for a geometry that is not compliant; a resolution on a
// point-contact geometry or a half-space, not positive and finite, coarser than the shape's
// largest dimension, or so fine that the mesh would exceed kMaxHydroelasticTets tets
// (compliant) or kMaxHydroelasticTriangles triangles (rigid) — the message gives the finest
// resolution allowed.
// Hydroelastic polygons (hydroelastic::ContactFace::polygon_size: area / (tet's longest
// edge)²) below kFanPolygonSize become one solver constraint instead of one per fan face; below
// kTinyPolygonSize they are pooled into one constraint per patch and normal (the numerical
// slivers of planes grazing tets carry ≲ 1e-6 of a tet face's force).
inline constexpr double kFanPolygonSize = 1e-2;
inline constexpr double kTinyPolygonSize = 1e-6;
inline constexpr int kMaxHydroelasticTets = 500'000;  // ≈ 160 MB: mesh, planes, BVH
inline constexpr int kMaxHydroelasticTriangles = 200'000;
void ValidateHydroelasticChange(const GeometrySpec& spec, std::optional<double> modulus_Pa,
                                std::optional<double> resolution_m);

// Builds the hydroelastic representation of a geometry from its spec, with E_h and the mesh
// resolution replaced by the given values (std::nullopt: the spec's own; a resolution of 0 in
// the spec means DefaultHydroelasticResolution). Pure: touches no World, safe on any thread.
// When `current` (the geometry's representation now, or null) was meshed at the resolution
// asked for, the mesh is reused and only the pressure is rescaled — p = E_h·ε is linear in E_h
// (contact-math.md §5), so a modulus change needs no re-meshing. Validates the new values
// (ValidateHydroelasticChange).
HydroelasticRepresentation BuildHydroelasticRepresentation(
    const GeometrySpec& spec, std::optional<double> modulus_Pa = std::nullopt,
    std::optional<double> resolution_m = std::nullopt,
    const HydroelasticRepresentation* current = nullptr);

struct StepStats {
  double geometry_ms = 0, solve_ms = 0, total_ms = 0;
  double hydroelastic_ms = 0;  // contact surfaces (part of geometry_ms)
  int num_hydroelastic_patches = 0;
  int num_hydroelastic_faces = 0;  // face constraints (merged small polygons count once)
  int iterations = 0;
  double residual = 0;
  double cost = 0;
  int num_contacts = 0;
  int num_constraints = 0;
  bool converged = true;
  bool used_supernodal = false;
};

class World {
 public:
  // Throws std::invalid_argument on an invalid scene (ValidateScene + multibody checks).
  explicit World(const SceneSpec& scene);
  ~World();

  // Advances one step of δt. Returns false on an unrecoverable failure (non-finite state);
  // the state is then left at the last good values. Non-convergence is reported in
  // last_stats().converged and logged, and the step is still taken.
  bool Step();
  // Restores the initial state exactly.
  void Reset();

  // Changes parameters between steps (the UI or command line). Validated by ApplyOverrides.
  void SetOverrides(const ContactOverrides& o);
  // Teleoperation and scripted motion: new targets (and effort limit, e.g. the grip force) of
  // a PD-controlled 1-dof joint, used from the next step on. Throws std::invalid_argument for a
  // body without a PD controller or a non-finite / non-positive value.
  void SetPdTarget(int scene_body, double q_desired, double v_desired);
  void SetPdEffortLimit(int scene_body, double effort_limit);

  const SceneSpec& scene() const { return scene_; }
  const Multibody& multibody() const { return multibody_; }
  const MultibodyData& data() const { return *data_; }  // kinematics at the current state
  double time() const { return time_; }
  double dt() const { return scene_.dt_s; }
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& v() const { return v_; }
  void SetState(const Eigen::VectorXd& q, const Eigen::VectorXd& v);

  // Scene body index → multibody body index (−1 for static/kinematic bodies).
  int multibody_index(int scene_body) const { return scene_to_multibody_[scene_body]; }
  // Pose and velocity of any scene body at the current state/time.
  Eigen::Isometry3d BodyPose(int scene_body) const;
  // [ω, v_origin] in the world frame. Kinematic bodies report the mean velocity of the last
  // step (the one the solver used).
  Eigen::Matrix<double, 6, 1> BodyVelocity(int scene_body) const;
  // World pose of geometry g (flattened over bodies in scene order).
  Eigen::Isometry3d GeometryPose(int g) const;
  int num_geometries() const { return static_cast<int>(geometries_.size()); }
  const GeometrySpec& geometry(int g) const { return *geometries_[g].spec; }
  int geometry_body(int g) const { return geometries_[g].scene_body; }

  const std::vector<ContactResult>& contacts() const { return contacts_; }
  // The hydroelastic contact surfaces of the last step (contact-math.md §5), one per pair in
  // contact; their faces are also in contacts().
  const std::vector<HydroelasticPatch>& hydroelastic_patches() const { return patches_; }
  // The pair's hydroelastic representation used (true) or point contact (false), by the rule
  // of ContactModel in scene_spec.h. *a_is_compliant tells whether geometry_a is the compliant side
  // (A of the contact surface).
  bool UsesHydroelastic(int geometry_a, int geometry_b, bool* a_is_compliant = nullptr) const;
  // Geometry g's hydroelastic representation (model kPoint and no meshes for point contact).
  const HydroelasticRepresentation& hydroelastic_representation(int g) const {
    return hydroelastic_[g];
  }
  // Swaps in a representation built by BuildHydroelasticRepresentation (typically on another
  // thread) for geometry g, between steps: a pointer move, no meshing. The state, time,
  // overrides and PD targets are kept, and geometry(g).hydroelastic reports the new E_h and
  // resolution. The next step uses it. Throws std::invalid_argument if g is out of range or
  // the representation's model is not the geometry's (or its mesh is missing).
  void SetHydroelasticGeometry(int g, HydroelasticRepresentation representation);
  const StepStats& last_stats() const { return stats_; }
  // The last step's full solver statistics and its problem (valid until the next Step).
  const ConvexSolverStats& last_solver_stats() const { return solver_stats_; }
  const ConvexProblem& last_problem() const { return problem_; }
  // Net contact force on a scene body over the last step: normal and friction parts [N].
  Eigen::Vector3d NetNormalForce(int scene_body) const;
  Eigen::Vector3d NetFrictionForce(int scene_body) const;

  double KineticEnergy() const;
  double PotentialEnergy() const;  // gravity + joint springs
  ConvexSolver& solver() { return solver_; }

 private:
  struct GeometryInstance {
    const GeometrySpec* spec;
    int scene_body;
    int index_in_body;  // spec is scene_.bodies[scene_body].geometries[index_in_body]
  };
  void BuildFromScene();
  // True for a body of a tree with at least one velocity (false: static, kinematic, welded).
  bool HasDofs(int scene_body) const;
  void ComputeContactPoints();
  void BuildHydroelasticGeometries();
  // Contact surface of compliant a against b; appends its faces to raw_contacts_.
  void AddHydroelasticPair(int geometry_a, int geometry_b);
  void BuildProblem();
  void BuildContactConstraint(int contact_index);
  // SAP's Delassus diagonal estimates w_t, w_n of a contact constraint (contact-math.md §2.1).
  void EstimateDelassusDiagonal(int constraint, double* w_t, double* w_n) const;
  void StoreResults();
  // Pair properties after §6 combination and overrides.
  ContactProperties CombinedProperties(int geometry_a, int geometry_b) const;
  // Hydroelastic pairs: d, τ_d weighted by the moduli E_h (∞ for rigid) instead of the point
  // stiffnesses, μ as for points (§6); the stiffness comes from each face instead.
  ContactProperties CombinedHydroelasticProperties(int geometry_a, int geometry_b) const;
  // Velocity of the point p_W fixed to scene body b, from kinematic motion only (zero for
  // dynamic and static bodies): the bias b of v_c = J v + b.
  Eigen::Vector3d KinematicPointVelocity(int scene_body, const Eigen::Vector3d& p_W) const;
  Eigen::Vector3d KinematicStepVelocity(const SceneBody& body, double t0) const;
  void AddPointJacobian(int scene_body, const Eigen::Vector3d& p_W, const Eigen::Matrix3d& R_WC,
                        double sign, int constraint);

  SceneSpec scene_;
  Multibody multibody_;
  std::unique_ptr<MultibodyData> data_;
  std::vector<int> scene_to_multibody_;
  std::vector<bool> movable_;  // per scene body: some joint towards the world has a dof
  std::vector<GeometryInstance> geometries_;
  Eigen::VectorXd q_, v_, q_initial_, v_initial_;
  std::vector<std::optional<JointPdSpec>> initial_pd_;
  double time_ = 0;

  // Per-step storage, reused.
  std::vector<Eigen::Isometry3d> geometry_poses_;
  std::vector<Aabb> aabbs_;
  std::vector<std::pair<int, int>> candidate_pairs_;
  BroadPhase broad_phase_;
  struct RawContact {
    int geometry_a, geometry_b;
    ContactPoint point;
    // Hydroelastic face (patch ≥ 0): k_f = A_f g_f and f0 = A_f p0_f (contact-math.md §5).
    int patch = -1, face = -1;
    int num_faces = 0;                              // ContactResult::hydroelastic_num_faces
    double face_area_m2 = 0, face_pressure_Pa = 0;  // of those faces together
    double face_stiffness_N_per_m = 0, face_elastic_force_N = 0;
  };
  // Σ over merged hydroelastic faces of one normal (AddHydroelasticPair).
  struct FaceSum {
    Eigen::Vector3d normal_W = Eigen::Vector3d::UnitZ();
    double area_m2 = 0, stiffness_N_per_m = 0, elastic_force_N = 0;  // Σ A, Σ A g, Σ A p0
    Eigen::Vector3d force_moment = Eigen::Vector3d::Zero();          // Σ A p0 c
    Eigen::Vector3d area_moment = Eigen::Vector3d::Zero();           // Σ A c
    void Add(const hydroelastic::ContactFace& face);
    Eigen::Vector3d CenterOfPressure() const;
  };
  // Per patch, tiny polygons pooled by normal: (first face, sum).
  std::vector<std::pair<int, FaceSum>> tiny_polygon_pool_;
  // Per geometry, its hydroelastic representation (built at construction, replaceable
  // between steps by SetHydroelasticGeometry), if any.
  std::vector<HydroelasticRepresentation> hydroelastic_;
  hydroelastic::ContactSurfaceScratch surface_scratch_;
  // Surfaces reused across steps (stable addresses: patches point into them).
  std::vector<std::unique_ptr<hydroelastic::ContactSurface>> surface_pool_;
  std::vector<HydroelasticPatch> patches_;
  std::vector<RawContact> raw_contacts_;
  std::vector<ContactPoint> pair_points_;
  std::vector<Eigen::MatrixXd> tree_mass_;  // M_t
  std::vector<Eigen::LLT<Eigen::MatrixXd>> tree_llt_;
  Eigen::VectorXd bias_forces_, generalized_forces_, v_star_, v_next_, q_next_;
  Eigen::MatrixXd jacobian_scratch_;  // 3 × max tree nv
  std::vector<SapContact> sap_contacts_;
  std::vector<LaggedContact> lagged_contacts_;
  std::vector<SimilarContact> similar_contacts_;
  std::vector<PdControllerConstraint> pd_constraints_;
  std::vector<JointLimitConstraint> limit_constraints_;
  std::vector<int> contact_constraint_index_;    // contact → problem constraint index
  std::vector<Eigen::Matrix3d> contact_frames_;  // R_WC per contact
  ConvexProblem problem_;
  ConvexSolver solver_;
  Eigen::VectorXd vc_scratch_;
  std::vector<ContactResult> contacts_;
  std::vector<Eigen::Vector3d> net_normal_force_, net_friction_force_;
  StepStats stats_;
  ConvexSolverStats solver_stats_;
};

}  // namespace contactlab
