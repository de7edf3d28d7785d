#include "engine/world/world.h"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

namespace contactlab {

namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Springs in series; a rigid (infinite) side leaves the other's value (contact-math.md §6).
double CombineStiffness(double ka, double kb) {
  if (std::isinf(ka)) return kb;
  if (std::isinf(kb)) return ka;
  return ka * kb / (ka + kb);
}

double CombineDissipation(double ka, double da, double kb, double db) {
  if (std::isinf(ka) && std::isinf(kb)) return 0.5 * (da + db);
  if (std::isinf(ka)) return db;
  if (std::isinf(kb)) return da;
  return (kb * da + ka * db) / (ka + kb);
}

double CombineFriction(double mu_a, double mu_b) {
  if (mu_a + mu_b <= 0) return 0;
  return 2 * mu_a * mu_b / (mu_a + mu_b);
}

// Contact frame with z = n̂ (columns t̂1, t̂2, n̂).
Eigen::Matrix3d ContactFrame(const Eigen::Vector3d& n) {
  const Eigen::Vector3d helper =
      std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d t1 = n.cross(helper).normalized();
  Eigen::Matrix3d R;
  R.col(0) = t1;
  R.col(1) = n.cross(t1);
  R.col(2) = n;
  return R;
}

// ---- Hydroelastic representations (contact-math.md §5) ----

// The shape's largest dimension [m] (box: longest side; sphere: diameter; cylinder and
// capsule: max of diameter and overall length); 0 for a half-space.
double LargestDimension(const Shape& s) {
  switch (s.type) {
    case ShapeType::kSphere:
      return 2.0 * s.radius_m;
    case ShapeType::kBox:
      return 2.0 * s.half_extents_m.maxCoeff();
    case ShapeType::kCylinder:
      return std::max(2.0 * s.radius_m, s.length_m);
    case ShapeType::kCapsule:
      return std::max(2.0 * s.radius_m, s.length_m + 2.0 * s.radius_m);
    case ShapeType::kConvexMesh:
      return 2.0 * s.convex_mesh->half_size_m;
    case ShapeType::kHalfSpace:
      return 0.0;
  }
  return 0.0;
}

// Rough mesh sizes at edge length h, to refuse a resolution whose mesh would not fit in memory
// before building it: the surface generators make about 2 S/h² triangles (right triangles of
// legs h over the area S), and the shelled tet mesh has n = max(2, ⌈r/h⌉) shells (inradius r,
// volume_mesh_generators.cc): per surface triangle one core tet and 3 per outer shell, 3n − 2.
double EstimatedTriangles(const Shape& s, double h) {
  constexpr double pi = std::numbers::pi;
  double area = 0.0;
  switch (s.type) {
    case ShapeType::kSphere:
      area = 4.0 * pi * s.radius_m * s.radius_m;
      break;
    case ShapeType::kBox: {
      const Eigen::Vector3d& e = s.half_extents_m;
      area = 8.0 * (e.x() * e.y() + e.y() * e.z() + e.z() * e.x());
      break;
    }
    case ShapeType::kCylinder:
      area = 2.0 * pi * s.radius_m * (s.length_m + s.radius_m);
      break;
    case ShapeType::kCapsule:
      area = 2.0 * pi * s.radius_m * (s.length_m + 2.0 * s.radius_m);
      break;
    case ShapeType::kConvexMesh:  // the hull's own triangles, at any resolution
      return static_cast<double>(s.convex_mesh->triangles.size());
    case ShapeType::kHalfSpace:
      return 0.0;
  }
  return 2.0 * area / (h * h);
}

double EstimatedTets(const Shape& s, double h) {
  double inradius = 0.0;
  switch (s.type) {
    case ShapeType::kSphere:
    case ShapeType::kCapsule:
      inradius = s.radius_m;
      break;
    case ShapeType::kBox:
      inradius = s.half_extents_m.minCoeff();
      break;
    case ShapeType::kCylinder:
      inradius = std::min(s.radius_m, 0.5 * s.length_m);
      break;
    case ShapeType::kConvexMesh:  // hull triangles fanned in ConvexMeshShells layers
      return EstimatedTriangles(s, h) * 3.0 * hydroelastic::ConvexMeshShells(s, h);
    case ShapeType::kHalfSpace:
      return 0.0;
  }
  const double shells = std::max(2.0, std::ceil(inradius / h - 1e-9));
  return EstimatedTriangles(s, h) * (3.0 * shells - 2.0);
}

// A copy of `g` with the hydroelastic modulus E_h: p = E_h·ε is linear in E_h, so the per-vertex
// pressures and the per-tet linear fields scale by E_h/E_h,old; the mesh, face planes and BVH
// are unchanged (no re-meshing).
hydroelastic::CompliantGeometry WithModulus(const hydroelastic::CompliantGeometry& g,
                                            double modulus_Pa) {
  hydroelastic::CompliantGeometry out = g;
  const double scale = modulus_Pa / g.field.hydroelastic_modulus_Pa;
  out.field.hydroelastic_modulus_Pa = modulus_Pa;
  for (double& p : out.field.pressure_Pa) p *= scale;
  for (hydroelastic::LinearField& f : out.tet_pressure) {
    f.gradient *= scale;
    f.offset *= scale;
  }
  return out;
}

}  // namespace

void ValidateHydroelasticChange(const GeometrySpec& spec, std::optional<double> modulus_Pa,
                                std::optional<double> resolution_m) {
  const ContactModel model = spec.hydroelastic.model;
  const bool half_space = spec.shape.type == ShapeType::kHalfSpace;
  const std::string where = fmt::format("geometry '{}'", spec.name);
  if (modulus_Pa) {
    if (model != ContactModel::kHydroelasticCompliant) {
      throw std::invalid_argument(
          fmt::format("{} ({}): only a hydroelastic_compliant geometry has a hydroelastic modulus",
                      where, half_space ? "a half-space" : ContactModelName(model)));
    }
    if (!(*modulus_Pa > 0) || !std::isfinite(*modulus_Pa)) {
      throw std::invalid_argument(
          fmt::format("{}: the hydroelastic modulus must be positive and finite, got {} Pa", where,
                      *modulus_Pa));
    }
  }
  if (!resolution_m) return;
  if (half_space) {
    throw std::invalid_argument(where + " is a half-space: it has no mesh resolution");
  }
  if (model == ContactModel::kPoint) {
    throw std::invalid_argument(where + " uses point contact: it has no hydroelastic mesh");
  }
  const double h = *resolution_m;
  if (!(h > 0) || !std::isfinite(h)) {
    throw std::invalid_argument(
        fmt::format("{}: the mesh resolution must be positive and finite, got {} m", where, h));
  }
  const double largest = LargestDimension(spec.shape);
  if (h > largest) {
    throw std::invalid_argument(
        fmt::format("{}: mesh resolution {} m is coarser than the shape (largest dimension {} m)",
                    where, h, largest));
  }
  const bool compliant = model == ContactModel::kHydroelasticCompliant;
  const double limit = compliant ? kMaxHydroelasticTets : kMaxHydroelasticTriangles;
  auto count = [&](double edge) {
    return compliant ? EstimatedTets(spec.shape, edge) : EstimatedTriangles(spec.shape, edge);
  };
  if (count(h) > limit) {
    // The finest edge length within the limit (the estimate falls monotonically with h).
    double lo = h, hi = largest;
    for (int i = 0; i < 60; ++i) {
      const double mid = std::sqrt(lo * hi);
      (count(mid) > limit ? lo : hi) = mid;
    }
    throw std::invalid_argument(fmt::format(
        "{}: mesh resolution {} m is too fine (about {:.2g} {}, limit {:.0e}); the finest "
        "allowed is {:.3g} m",
        where, h, count(h), compliant ? "tets" : "triangles", limit, hi));
  }
}

HydroelasticRepresentation BuildHydroelasticRepresentation(
    const GeometrySpec& spec, std::optional<double> modulus_Pa, std::optional<double> resolution_m,
    const HydroelasticRepresentation* current) {
  ValidateHydroelasticChange(spec, modulus_Pa, resolution_m);
  const HydroelasticProperties& h = spec.hydroelastic;
  const double edge = resolution_m         ? *resolution_m
                      : h.resolution_m > 0 ? h.resolution_m
                                           : DefaultHydroelasticResolution(spec.shape);
  HydroelasticRepresentation r;
  if (h.model == ContactModel::kHydroelasticCompliant) {
    r.model = h.model;
    r.modulus_Pa = modulus_Pa.value_or(h.modulus_Pa);
    r.resolution_m = edge;
    if (current && current->compliant && current->resolution_m == edge) {
      // Same mesh: share it if E_h is unchanged too, else rescale the pressure (no meshing).
      r.compliant = current->modulus_Pa == r.modulus_Pa
                        ? current->compliant
                        : std::make_shared<const hydroelastic::CompliantGeometry>(
                              WithModulus(*current->compliant, r.modulus_Pa));
    } else {
      r.compliant = std::make_shared<const hydroelastic::CompliantGeometry>(
          hydroelastic::MakeCompliantGeometry(spec.shape, r.modulus_Pa, edge));
    }
  } else if (h.model == ContactModel::kHydroelasticRigid ||
             spec.shape.type == ShapeType::kHalfSpace) {
    // A half-space always has its (free) analytic rigid representation.
    r.model = ContactModel::kHydroelasticRigid;
    r.resolution_m = spec.shape.type == ShapeType::kHalfSpace ? 0.0 : edge;
    if (current && current->rigid && current->resolution_m == r.resolution_m) {
      r.rigid = current->rigid;
    } else {
      r.rigid = std::make_shared<const hydroelastic::RigidGeometry>(
          hydroelastic::MakeRigidGeometry(spec.shape, edge));
    }
  }
  return r;
}

World::World(const SceneSpec& scene) : scene_(scene) {
  ValidateScene(scene_);
  BuildFromScene();
}

World::~World() = default;

void World::BuildFromScene() {
  scene_to_multibody_.assign(scene_.bodies.size(), -1);
  for (size_t i = 0; i < scene_.bodies.size(); ++i) {
    const SceneBody& sb = scene_.bodies[i];
    if (sb.kind != SceneBody::Kind::kDynamic) continue;
    BodySpec spec = sb.body;
    spec.parent = sb.parent_scene_index < 0 ? -1 : scene_to_multibody_[sb.parent_scene_index];
    scene_to_multibody_[i] = multibody_.AddBody(spec);
  }
  multibody_.Finalize();
  data_ = std::make_unique<MultibodyData>(multibody_);

  q_ = multibody_.DefaultPositions();
  v_ = Eigen::VectorXd::Zero(multibody_.num_velocities());
  for (size_t i = 0; i < scene_.bodies.size(); ++i) {
    const SceneBody& sb = scene_.bodies[i];
    const int b = scene_to_multibody_[i];
    if (b < 0) continue;
    const int nv = multibody_.joint_num_velocities(b);
    if (sb.body.joint == JointType::kFloating) {
      multibody_.SetFloatingPose(b, sb.initial_pose, &q_);
    } else if (multibody_.joint_num_positions(b) == 1) {
      q_[multibody_.position_start(b)] = sb.initial_position;
    }
    if (nv > 0 && sb.initial_velocity.size() == nv) {
      v_.segment(multibody_.velocity_start(b), nv) = sb.initial_velocity;
    } else if (nv > 0 && sb.initial_velocity.size() != 0) {
      throw std::invalid_argument("body '" + sb.body.name + "': velocity needs " +
                                  std::to_string(nv) + " entries");
    }
  }
  q_initial_ = q_;
  v_initial_ = v_;
  // A body can move only if some joint between it and the world has a degree of freedom: a
  // robot's base welded to the world is in a tree with dofs but its Jacobian is zero, and a
  // contact between it and the static ground would be a constraint on nothing (SAP's Delassus
  // estimate would be 0).
  movable_.assign(scene_.bodies.size(), false);
  for (size_t i = 0; i < scene_.bodies.size(); ++i) {
    const int b = scene_to_multibody_[i];
    if (b < 0) continue;
    const int parent = scene_.bodies[i].parent_scene_index;
    movable_[i] = multibody_.joint_num_velocities(b) > 0 || (parent >= 0 && movable_[parent]);
  }
  for (const SceneBody& sb : scene_.bodies) initial_pd_.push_back(sb.pd);

  for (size_t i = 0; i < scene_.bodies.size(); ++i) {
    const std::vector<GeometrySpec>& body_geometries = scene_.bodies[i].geometries;
    for (size_t k = 0; k < body_geometries.size(); ++k) {
      geometries_.push_back({&body_geometries[k], static_cast<int>(i), static_cast<int>(k)});
    }
  }
  const int ng = num_geometries();
  geometry_poses_.resize(ng);
  aabbs_.resize(ng);
  net_normal_force_.assign(scene_.bodies.size(), Eigen::Vector3d::Zero());
  net_friction_force_.assign(scene_.bodies.size(), Eigen::Vector3d::Zero());

  std::vector<int> tree_nv(multibody_.num_trees());
  int max_nv = 1;
  for (int t = 0; t < multibody_.num_trees(); ++t) {
    tree_nv[t] = multibody_.tree_num_velocities(t);
    max_nv = std::max(max_nv, tree_nv[t]);
  }
  problem_.Reset(tree_nv);
  tree_mass_.resize(multibody_.num_trees());
  tree_llt_.resize(multibody_.num_trees());
  for (int t = 0; t < multibody_.num_trees(); ++t) {
    tree_mass_[t].resize(tree_nv[t], tree_nv[t]);
    tree_llt_[t] = Eigen::LLT<Eigen::MatrixXd>(tree_nv[t]);
  }
  jacobian_scratch_.resize(3, max_nv);
  BuildHydroelasticGeometries();
  multibody_.UpdateKinematics(q_, v_, data_.get());
}

void World::BuildHydroelasticGeometries() {
  // Meshes and pressure fields are built once here, off the step (contact-math.md §5).
  const int ng = num_geometries();
  hydroelastic_.clear();
  hydroelastic_.resize(ng);
  for (int g = 0; g < ng; ++g) {
    const GeometrySpec& spec = *geometries_[g].spec;
    hydroelastic_[g] = BuildHydroelasticRepresentation(spec);
    if (hydroelastic_[g].compliant) {
      spdlog::debug(
          "hydroelastic: geometry '{}' compliant, E_h = {:.3g} Pa, edge {:.3g} m, {} tets",
          spec.name, hydroelastic_[g].modulus_Pa, hydroelastic_[g].resolution_m,
          hydroelastic_[g].num_tets());
    }
  }
}

void World::SetHydroelasticGeometry(int g, HydroelasticRepresentation r) {
  if (g < 0 || g >= num_geometries()) {
    throw std::invalid_argument(
        fmt::format("SetHydroelasticGeometry: geometry {} out of range "
                    "(the scene has {})",
                    g, num_geometries()));
  }
  const GeometryInstance& instance = geometries_[g];
  const HydroelasticRepresentation& now = hydroelastic_[g];
  const bool complete = r.model == ContactModel::kHydroelasticCompliant ? r.compliant != nullptr
                        : r.model == ContactModel::kHydroelasticRigid   ? r.rigid != nullptr
                                                                        : false;
  if (now.model == ContactModel::kPoint || r.model != now.model || !complete) {
    throw std::invalid_argument(
        fmt::format("SetHydroelasticGeometry: geometry '{}' is {}, the new representation {}{}",
                    instance.spec->name, ContactModelName(now.model), ContactModelName(r.model),
                    complete ? "" : " without its mesh"));
  }
  // Keep the scene's record in step, so geometry(g) reports what is in use (and the E_h
  // weighting of the pair dissipation, CombinedHydroelasticProperties, uses the new E_h).
  GeometrySpec& spec = scene_.bodies[instance.scene_body].geometries[instance.index_in_body];
  if (r.compliant) spec.hydroelastic.modulus_Pa = r.modulus_Pa;
  if (spec.shape.type != ShapeType::kHalfSpace) spec.hydroelastic.resolution_m = r.resolution_m;
  // The last step's patches point into surface_pool_, not into the meshes: they stay valid.
  hydroelastic_[g] = std::move(r);
}

bool World::UsesHydroelastic(int ga, int gb, bool* a_is_compliant) const {
  const HydroelasticRepresentation& a = hydroelastic_[ga];
  const HydroelasticRepresentation& b = hydroelastic_[gb];
  const bool a_any = a.compliant || a.rigid, b_any = b.compliant || b.rigid;
  const bool use = (a.compliant && b_any) || (b.compliant && a_any);
  if (a_is_compliant) *a_is_compliant = a.compliant != nullptr;
  return use;
}

void World::Reset() {
  // Teleoperation moves PD targets; a reset puts them back with the state.
  for (size_t i = 0; i < scene_.bodies.size(); ++i) scene_.bodies[i].pd = initial_pd_[i];
  q_ = q_initial_;
  v_ = v_initial_;
  time_ = 0;
  contacts_.clear();
  patches_.clear();
  stats_ = StepStats{};
  for (auto& f : net_normal_force_) f.setZero();
  for (auto& f : net_friction_force_) f.setZero();
  multibody_.UpdateKinematics(q_, v_, data_.get());
}

void World::SetState(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  if (q.size() != q_.size() || v.size() != v_.size()) {
    throw std::invalid_argument("World::SetState: wrong state size");
  }
  q_ = q;
  v_ = v;
  multibody_.UpdateKinematics(q_, v_, data_.get());
}

void World::SetOverrides(const ContactOverrides& o) { ApplyOverrides(o, &scene_); }

void World::SetPdTarget(int scene_body, double q_desired, double v_desired) {
  if (scene_body < 0 || scene_body >= static_cast<int>(scene_.bodies.size()) ||
      !scene_.bodies[scene_body].pd) {
    throw std::invalid_argument("SetPdTarget: body has no PD controller");
  }
  if (!std::isfinite(q_desired) || !std::isfinite(v_desired)) {
    throw std::invalid_argument("SetPdTarget: targets must be finite");
  }
  scene_.bodies[scene_body].pd->q_desired = q_desired;
  scene_.bodies[scene_body].pd->v_desired = v_desired;
}

void World::SetPdEffortLimit(int scene_body, double effort_limit) {
  if (scene_body < 0 || scene_body >= static_cast<int>(scene_.bodies.size()) ||
      !scene_.bodies[scene_body].pd) {
    throw std::invalid_argument("SetPdEffortLimit: body has no PD controller");
  }
  if (!(effort_limit > 0) || !std::isfinite(effort_limit)) {
    throw std::invalid_argument("SetPdEffortLimit: the effort limit must be positive");
  }
  scene_.bodies[scene_body].pd->effort_limit = effort_limit;
}

Eigen::Isometry3d World::BodyPose(int scene_body) const {
  const SceneBody& sb = scene_.bodies[scene_body];
  const int b = scene_to_multibody_[scene_body];
  if (b >= 0) return data_->X_WB[b];
  if (sb.kind == SceneBody::Kind::kKinematic) {
    Eigen::Isometry3d X = sb.initial_pose;
    X.pretranslate(sb.motion.Displacement(time_) * sb.motion.axis);
    return X;
  }
  return sb.initial_pose;
}

Eigen::Matrix<double, 6, 1> World::BodyVelocity(int scene_body) const {
  Eigen::Matrix<double, 6, 1> V = Eigen::Matrix<double, 6, 1>::Zero();
  const SceneBody& sb = scene_.bodies[scene_body];
  const int b = scene_to_multibody_[scene_body];
  if (b >= 0) {
    V.head<3>() = data_->w_WB[b];
    V.tail<3>() = data_->v_WBo[b];
  } else if (sb.kind == SceneBody::Kind::kKinematic) {
    // The velocity the last step used (see KinematicStepVelocity), analytic before any step.
    V.tail<3>() = time_ > 0 ? KinematicStepVelocity(sb, time_ - scene_.dt_s)
                            : sb.motion.Velocity(time_) * sb.motion.axis;
  }
  return V;
}

Eigen::Isometry3d World::GeometryPose(int g) const {
  return BodyPose(geometries_[g].scene_body) * geometries_[g].spec->X_BG;
}

Eigen::Vector3d World::KinematicStepVelocity(const SceneBody& sb, double t0) const {
  // The mean velocity over [t0, t0 + δt]: what the symplectic Euler step that ends at
  // s(t0 + δt) moves with, so a box stuck to a belt follows the belt's prescribed positions
  // exactly (the analytic velocity at either end would drift by a·δt/2).
  const double dt = scene_.dt_s;
  return (sb.motion.Displacement(t0 + dt) - sb.motion.Displacement(t0)) / dt * sb.motion.axis;
}

Eigen::Vector3d World::KinematicPointVelocity(int scene_body, const Eigen::Vector3d&) const {
  const SceneBody& sb = scene_.bodies[scene_body];
  if (sb.kind != SceneBody::Kind::kKinematic) return Eigen::Vector3d::Zero();
  // Prescribed motion is a pure translation, so every point moves alike.
  return KinematicStepVelocity(sb, time_);
}

ContactProperties World::CombinedProperties(int ga, int gb) const {
  const ContactProperties& a = geometries_[ga].spec->contact;
  const ContactProperties& b = geometries_[gb].spec->contact;
  ContactProperties c;
  c.stiffness_N_per_m = CombineStiffness(a.stiffness_N_per_m, b.stiffness_N_per_m);
  c.hunt_crossley_s_per_m = CombineDissipation(a.stiffness_N_per_m, a.hunt_crossley_s_per_m,
                                               b.stiffness_N_per_m, b.hunt_crossley_s_per_m);
  c.relaxation_time_s = CombineDissipation(a.stiffness_N_per_m, a.relaxation_time_s,
                                           b.stiffness_N_per_m, b.relaxation_time_s);
  c.friction = CombineFriction(a.friction, b.friction);
  const ContactOverrides& o = scene_.overrides;
  if (o.stiffness_N_per_m) c.stiffness_N_per_m = *o.stiffness_N_per_m;
  if (o.hunt_crossley_s_per_m) c.hunt_crossley_s_per_m = *o.hunt_crossley_s_per_m;
  if (o.relaxation_time_s) c.relaxation_time_s = *o.relaxation_time_s;
  if (o.friction) c.friction = *o.friction;
  if (std::isinf(c.stiffness_N_per_m)) c.stiffness_N_per_m = 1e12;  // two rigid geometries
  return c;
}

ContactProperties World::CombinedHydroelasticProperties(int ga, int gb) const {
  // As §6, with the hydroelastic moduli E_h (∞ for a rigid side) in place of the point
  // stiffnesses; the stiffness itself is per face (k_f = A_f g_f, contact-math.md §5).
  auto modulus = [this](int g) {
    return hydroelastic_[g].compliant ? geometries_[g].spec->hydroelastic.modulus_Pa
                                      : std::numeric_limits<double>::infinity();
  };
  const ContactProperties& a = geometries_[ga].spec->contact;
  const ContactProperties& b = geometries_[gb].spec->contact;
  const double ea = modulus(ga), eb = modulus(gb);
  ContactProperties c;
  c.stiffness_N_per_m = 0;  // unused: per face
  c.hunt_crossley_s_per_m =
      CombineDissipation(ea, a.hunt_crossley_s_per_m, eb, b.hunt_crossley_s_per_m);
  c.relaxation_time_s = CombineDissipation(ea, a.relaxation_time_s, eb, b.relaxation_time_s);
  c.friction = CombineFriction(a.friction, b.friction);
  const ContactOverrides& o = scene_.overrides;
  if (o.hunt_crossley_s_per_m) c.hunt_crossley_s_per_m = *o.hunt_crossley_s_per_m;
  if (o.relaxation_time_s) c.relaxation_time_s = *o.relaxation_time_s;
  if (o.friction) c.friction = *o.friction;
  return c;
}

void World::ComputeContactPoints() {
  const int ng = num_geometries();
  for (int g = 0; g < ng; ++g) {
    geometry_poses_[g] = GeometryPose(g);
    aabbs_[g] =
        ComputeAabb(geometries_[g].spec->shape, geometry_poses_[g], scene_.contact_margin_m);
  }
  auto filter = [this](int i, int j) {
    const int bi = geometries_[i].scene_body, bj = geometries_[j].scene_body;
    if (bi == bj) return false;
    // Only pairs where at least one side has degrees of freedom can exchange forces.
    if (!HasDofs(bi) && !HasDofs(bj)) return false;
    // A body does not collide with its joint parent (they overlap by construction).
    const SceneBody& si = scene_.bodies[bi];
    const SceneBody& sj = scene_.bodies[bj];
    if (si.kind == SceneBody::Kind::kDynamic && si.parent_scene_index == bj) return false;
    if (sj.kind == SceneBody::Kind::kDynamic && sj.parent_scene_index == bi) return false;
    return true;
  };
  broad_phase_.FindPairs(aabbs_, filter, &candidate_pairs_);
  raw_contacts_.clear();
  patches_.clear();
  stats_.hydroelastic_ms = 0;
  stats_.num_hydroelastic_faces = 0;
  for (const auto& [i, j] : candidate_pairs_) {
    bool i_is_compliant = false;
    if (UsesHydroelastic(i, j, &i_is_compliant)) {
      const auto t0 = Clock::now();
      if (i_is_compliant) {
        AddHydroelasticPair(i, j);
      } else {
        AddHydroelasticPair(j, i);
      }
      stats_.hydroelastic_ms += MillisecondsSince(t0);
      continue;
    }
    pair_points_.clear();
    contactlab::ComputeContactPoints(geometries_[i].spec->shape, geometry_poses_[i],
                                     geometries_[j].spec->shape, geometry_poses_[j],
                                     scene_.contact_margin_m, &pair_points_);
    for (const ContactPoint& p : pair_points_) raw_contacts_.push_back({i, j, p});
  }
}

void World::AddHydroelasticPair(int a, int b) {
  const size_t p = patches_.size();
  if (p == surface_pool_.size()) {
    surface_pool_.push_back(std::make_unique<hydroelastic::ContactSurface>());
  }
  hydroelastic::ContactSurface* surface = surface_pool_[p].get();
  const hydroelastic::CompliantGeometry& A = *hydroelastic_[a].compliant;
  if (hydroelastic_[b].compliant) {
    hydroelastic::ComputeContactSurface(A, geometry_poses_[a], *hydroelastic_[b].compliant,
                                        geometry_poses_[b], &surface_scratch_, surface);
  } else {
    hydroelastic::ComputeContactSurface(A, geometry_poses_[a], *hydroelastic_[b].rigid,
                                        geometry_poses_[b], &surface_scratch_, surface);
  }
  if (surface->empty()) return;  // the surface stays in the pool for the next pair
  HydroelasticPatch patch;
  patch.geometry_a = a;
  patch.geometry_b = b;
  patch.body_a = geometries_[a].scene_body;
  patch.body_b = geometries_[b].scene_body;
  patch.surface = surface;
  patch.first_contact = static_cast<int>(raw_contacts_.size());
  // Every face becomes one point constraint at c_f along n̂_f (contact-math.md §5):
  // φ0_f = −p0_f/g_f, k_f = A_f g_f, and the elastic force f0 = k_f·(−φ0_f) = A_f p0_f given
  // directly so that faces with k_f → 0 stay finite — except for small polygons
  // (ContactFace::polygon_size), whose faces are merged: a polygon below kFanPolygonSize is one
  // constraint, and those below kTinyPolygonSize are pooled per normal into one constraint per
  // patch. A merged set S keeps Σ A_f (area), k = Σ A_f g_f and f0 = Σ A_f p0_f exactly (so
  // φ0 = −f0/k), placed at the centre of pressure Σ A_f p0_f c_f / f0: the net force, the
  // stiffness and (for the one-polygon case, p linear in its tet) the moment of the elastic
  // force are those of the faces, while slivers stop costing one constraint per fan face.
  auto add_constraint = [&](int first_face, int num_faces, const FaceSum& sum) {
    if (!(sum.stiffness_N_per_m > 0)) return;  // no pressure gradient along n̂: no spring
    RawContact rc;
    rc.geometry_a = a;
    rc.geometry_b = b;
    rc.point.normal_W = sum.normal_W;
    rc.point.p_A_W = rc.point.p_B_W = sum.CenterOfPressure();
    rc.point.signed_distance_m = -sum.elastic_force_N / sum.stiffness_N_per_m;
    rc.patch = static_cast<int>(p);
    rc.face = first_face;
    rc.num_faces = num_faces;
    rc.face_area_m2 = sum.area_m2;
    rc.face_pressure_Pa = sum.area_m2 > 0 ? sum.elastic_force_N / sum.area_m2 : 0.0;
    rc.face_stiffness_N_per_m = sum.stiffness_N_per_m;
    rc.face_elastic_force_N = sum.elastic_force_N;
    raw_contacts_.push_back(rc);
  };
  tiny_polygon_pool_.clear();
  const int nf = static_cast<int>(surface->faces.size());
  for (int f = 0; f < nf;) {
    const hydroelastic::ContactFace& first = surface->faces[f];
    const int count = std::clamp(first.polygon_faces, 1, nf - f);
    if (first.polygon_faces <= 0 || first.polygon_size >= kFanPolygonSize) {
      for (int k = f; k < f + count; ++k) {
        FaceSum sum;
        sum.Add(surface->faces[k]);
        add_constraint(k, 1, sum);
      }
    } else if (first.polygon_size >= kTinyPolygonSize) {
      FaceSum sum;
      for (int k = f; k < f + count; ++k) sum.Add(surface->faces[k]);
      add_constraint(f, count, sum);
    } else {
      // A polygon's faces share its normal; pools are few (one per normal direction).
      FaceSum* pool = nullptr;
      for (auto& [pool_first, candidate] : tiny_polygon_pool_) {
        if (candidate.normal_W.dot(first.normal_W) > 1 - 1e-9) {
          pool = &candidate;
          break;
        }
      }
      if (pool == nullptr) {
        pool = &tiny_polygon_pool_.emplace_back(f, FaceSum()).second;
        pool->normal_W = first.normal_W;
      }
      for (int k = f; k < f + count; ++k) pool->Add(surface->faces[k]);
    }
    f += count;
  }
  for (const auto& [pool_first, sum] : tiny_polygon_pool_) add_constraint(pool_first, 0, sum);
  patch.num_contacts = static_cast<int>(raw_contacts_.size()) - patch.first_contact;
  stats_.num_hydroelastic_faces += patch.num_contacts;
  patches_.push_back(patch);
}

void World::FaceSum::Add(const hydroelastic::ContactFace& face) {
  const hydroelastic::FacePointContact fc = hydroelastic::ComputeFacePointContact(face);
  if (!fc.valid) return;  // no pressure gradient along n̂: no spring, no share in the sum
  const double area = std::max(0.0, face.area_m2);
  const double force = area * std::max(0.0, face.pressure_Pa);
  normal_W = face.normal_W;
  area_m2 += area;
  stiffness_N_per_m += fc.stiffness_N_per_m;
  elastic_force_N += force;
  force_moment += force * face.centroid_W;
  area_moment += area * face.centroid_W;
}

Eigen::Vector3d World::FaceSum::CenterOfPressure() const {
  if (elastic_force_N > 0) return force_moment / elastic_force_N;
  if (area_m2 > 0) return area_moment / area_m2;
  return area_moment;
}

bool World::HasDofs(int scene_body) const { return movable_[scene_body]; }

void World::AddPointJacobian(int scene_body, const Eigen::Vector3d& p_W,
                             const Eigen::Matrix3d& R_WC, double sign, int constraint) {
  if (!HasDofs(scene_body)) return;
  const int b = scene_to_multibody_[scene_body];
  const int tree = multibody_.body_tree(b);
  const int nt = multibody_.tree_num_velocities(tree);
  if (nt == 0) return;
  auto Jp = jacobian_scratch_.leftCols(nt);
  multibody_.CalcPointJacobian(*data_, b, p_W, Jp);
  const ConvexProblem::ConstraintEntry& e = problem_.entry(constraint);
  const int clique = (e.tree[0] == tree) ? 0 : 1;
  problem_.mutable_jacobian(constraint, clique).noalias() += sign * R_WC.transpose() * Jp;
}

void World::BuildProblem() {
  const double dt = scene_.dt_s;
  const int nt = multibody_.num_trees();
  problem_.ClearConstraints();

  // Free motion (contact-math.md §1): A (v* − v0) = δt k(q0, v0), A = M + δt D + δt² K.
  multibody_.CalcBiasForces(*data_, scene_.gravity_W, &bias_forces_);
  multibody_.CalcJointSpringForces(q_, &generalized_forces_);
  generalized_forces_ -= bias_forces_;
  generalized_forces_.array() -= multibody_.joint_damping().array() * v_.array();
  Eigen::VectorXd& v_star = problem_.mutable_free_motion_velocity();
  for (int t = 0; t < nt; ++t) {
    const int s = multibody_.tree_velocity_start(t), n = multibody_.tree_num_velocities(t);
    multibody_.CalcTreeMassMatrix(*data_, t, &tree_mass_[t]);
    auto A = problem_.mutable_tree_A(t);
    A = tree_mass_[t];
    A.diagonal() += dt * multibody_.joint_damping().segment(s, n) +
                    dt * dt * multibody_.joint_stiffness().segment(s, n);
    tree_llt_[t].compute(A);
    v_star.segment(s, n) =
        v_.segment(s, n) + dt * tree_llt_[t].solve(generalized_forces_.segment(s, n));
  }

  // Contacts. Constraint objects live in typed vectors that must not reallocate once the
  // problem holds pointers to them: size them first.
  const int nc = static_cast<int>(raw_contacts_.size());
  sap_contacts_.clear();
  lagged_contacts_.clear();
  similar_contacts_.clear();
  switch (scene_.approximation) {
    case ContactApproximation::kSap:
      sap_contacts_.resize(nc);
      break;
    case ContactApproximation::kLagged:
      lagged_contacts_.resize(nc);
      break;
    case ContactApproximation::kSimilar:
      similar_contacts_.resize(nc);
      break;
  }
  contact_constraint_index_.resize(nc);
  contact_frames_.resize(nc);
  for (int c = 0; c < nc; ++c) BuildContactConstraint(c);

  // Joint-level PD controllers and limits (contact-math.md §3).
  pd_constraints_.clear();
  limit_constraints_.clear();
  int num_pd = 0, num_limits = 0;
  for (const SceneBody& sb : scene_.bodies) {
    if (sb.pd) ++num_pd;
    if (sb.limits) num_limits += 2;
  }
  pd_constraints_.reserve(num_pd);
  limit_constraints_.reserve(num_limits);
  for (size_t i = 0; i < scene_.bodies.size(); ++i) {
    const SceneBody& sb = scene_.bodies[i];
    const int b = scene_to_multibody_[i];
    if (b < 0 || multibody_.joint_num_velocities(b) != 1) continue;
    const int tree = multibody_.body_tree(b);
    const int local = multibody_.velocity_start(b) - multibody_.tree_velocity_start(tree);
    const double q0 = q_[multibody_.position_start(b)];
    const double inverse_mass = 1.0 / problem_.tree_A(tree)(local, local);
    if (sb.pd) {
      PdControllerConstraint::Parameters p;
      p.dt_s = dt;
      p.kp = sb.pd->kp;
      p.kd = sb.pd->kd;
      p.q0 = q0;
      p.q_desired = sb.pd->q_desired;
      p.v_desired = sb.pd->v_desired;
      p.feedforward = sb.pd->feedforward;
      p.effort_limit = sb.pd->effort_limit;
      pd_constraints_.emplace_back(PdControllerConstraint::CapGains(p, inverse_mass));
      const int k = problem_.AddConstraint(&pd_constraints_.back(), tree, -1);
      problem_.mutable_jacobian(k, 0)(0, local) = 1.0;
    }
    if (sb.limits) {
      const double distances[2] = {q0 - sb.limits->first, sb.limits->second - q0};
      const double signs[2] = {1.0, -1.0};
      for (int side = 0; side < 2; ++side) {
        limit_constraints_.emplace_back(
            JointLimitConstraint::MakeParameters(dt, distances[side], inverse_mass));
        const int k = problem_.AddConstraint(&limit_constraints_.back(), tree, -1);
        problem_.mutable_jacobian(k, 0)(0, local) = signs[side];
      }
    }
  }
}

void World::EstimateDelassusDiagonal(int constraint, double* w_t, double* w_n) const {
  // W = Σ_t J_t diag(A_t)⁻¹ J_tᵀ, only the diagonal of each tree's A (contact-math.md §2.1).
  const ConvexProblem::ConstraintEntry& e = problem_.entry(constraint);
  Eigen::Matrix3d W = Eigen::Matrix3d::Zero();
  for (int q = 0; q < e.num_cliques; ++q) {
    const auto J = problem_.jacobian(constraint, q);
    const auto A = problem_.tree_A(e.tree[q]);
    W.noalias() += J * A.diagonal().cwiseInverse().asDiagonal() * J.transpose();
  }
  const double w_rms = W.norm() / 3.0;
  // A contact on a joint axis can have a zero tangential Delassus entry: keep R_t > 0.
  *w_t = std::max({0.5 * (W(0, 0) + W(1, 1)), w_rms, 1e-12});
  *w_n = std::max(W(2, 2), w_rms);
}

void World::BuildContactConstraint(int c) {
  const double dt = scene_.dt_s;
  const RawContact& rc = raw_contacts_[c];
  const int body_a = geometries_[rc.geometry_a].scene_body;
  const int body_b = geometries_[rc.geometry_b].scene_body;
  const int mb_a = scene_to_multibody_[body_a], mb_b = scene_to_multibody_[body_b];
  const int tree_a = HasDofs(body_a) ? multibody_.body_tree(mb_a) : -1;
  const int tree_b = HasDofs(body_b) ? multibody_.body_tree(mb_b) : -1;
  int t0 = tree_a >= 0 ? tree_a : tree_b;
  int t1 = (tree_a >= 0 && tree_b >= 0 && tree_b != tree_a) ? tree_b : -1;

  const Eigen::Vector3d p_W = rc.point.Midpoint();
  const Eigen::Matrix3d R_WC = ContactFrame(rc.point.normal_W);
  contact_frames_[c] = R_WC;
  const bool hydro = rc.patch >= 0;
  const ContactProperties props = hydro
                                      ? CombinedHydroelasticProperties(rc.geometry_a, rc.geometry_b)
                                      : CombinedProperties(rc.geometry_a, rc.geometry_b);
  const double phi0 = rc.point.signed_distance_m;
  // Hydroelastic face: k_f = A_f g_f with the f0 = A_f p0_f form (contact-math.md §5, §2.2).
  const double stiffness = hydro ? rc.face_stiffness_N_per_m : props.stiffness_N_per_m;

  Constraint* constraint = nullptr;
  switch (scene_.approximation) {
    case ContactApproximation::kSap:
      constraint = &sap_contacts_[c];
      break;
    case ContactApproximation::kLagged:
      constraint = &lagged_contacts_[c];
      break;
    case ContactApproximation::kSimilar:
      constraint = &similar_contacts_[c];
      break;
  }
  const int k = problem_.AddConstraint(constraint, t0, t1);
  contact_constraint_index_[c] = k;
  // v_c = R_WCᵀ (v_B(p) − v_A(p)): B moving along +n̂ relative to A separates.
  AddPointJacobian(body_b, p_W, R_WC, +1.0, k);
  AddPointJacobian(body_a, p_W, R_WC, -1.0, k);
  const Eigen::Vector3d kinematic_velocity =
      KinematicPointVelocity(body_b, p_W) - KinematicPointVelocity(body_a, p_W);
  problem_.mutable_bias(k) = R_WC.transpose() * kinematic_velocity;

  // Contact velocity at the previous state v0 (Lagged's γ_n0, §2.3).
  Eigen::Vector3d vc0 = problem_.mutable_bias(k);
  const ConvexProblem::ConstraintEntry& e = problem_.entry(k);
  for (int q = 0; q < e.num_cliques; ++q) {
    const int s = problem_.tree_start(e.tree[q]), n = problem_.tree_nv(e.tree[q]);
    vc0 += problem_.jacobian(k, q) * v_.segment(s, n);
  }

  HuntCrossleyNormal normal;
  normal.dt_s = dt;
  normal.stiffness_N_per_m = stiffness;
  normal.dissipation_s_per_m = props.hunt_crossley_s_per_m;
  normal.penetration_m = -phi0;
  if (hydro) normal.elastic_force_N = rc.face_elastic_force_N;

  switch (scene_.approximation) {
    case ContactApproximation::kSap: {
      // Delassus diagonal estimate W = Σ_t J_t diag(A_t)⁻¹ J_tᵀ (contact-math.md §2.1).
      double w_t, w_n;
      EstimateDelassusDiagonal(k, &w_t, &w_n);
      sap_contacts_[c] =
          SapContact(SapContact::MakeParameters(dt, stiffness, props.relaxation_time_s,
                                                props.friction, phi0, w_t, w_n, scene_.sap_sigma));
      break;
    }
    case ContactApproximation::kLagged: {
      LaggedContact::Parameters p;
      p.normal = normal;
      p.friction = props.friction;
      p.lagged_normal_impulse = LaggedContact::LaggedNormalImpulse(normal, vc0.z());
      p.epsilon_m_per_s = scene_.stiction_tolerance_m_per_s;
      if (scene_.regularized_lagged) {
        double w_t, w_n;
        EstimateDelassusDiagonal(k, &w_t, &w_n);
        p.epsilon_m_per_s =
            LaggedContact::RegularizedEpsilon(scene_.stiction_tolerance_m_per_s, scene_.sap_sigma,
                                              w_t, props.friction, p.lagged_normal_impulse);
      }
      lagged_contacts_[c] = LaggedContact(p);
      break;
    }
    case ContactApproximation::kSimilar: {
      SimilarContact::Parameters p;
      p.normal = normal;
      p.friction = props.friction;
      p.epsilon_m_per_s = scene_.stiction_tolerance_m_per_s;
      similar_contacts_[c] = SimilarContact(p);
      break;
    }
  }
}

bool World::Step() {
  const auto t_start = Clock::now();
  // data_ already holds the kinematics of (q_, v_): the constructor, SetState, Reset and the end
  // of every step keep it current, so the step starts straight from geometry.
  ComputeContactPoints();
  stats_.geometry_ms = MillisecondsSince(t_start);

  const auto t_solve = Clock::now();
  BuildProblem();
  v_next_ = v_;  // warm start at v0 (contact-math.md §4)
  solver_stats_ = solver_.Solve(problem_, &v_next_);
  const ConvexSolverStats& s = solver_stats_;
  stats_.solve_ms = MillisecondsSince(t_solve);
  stats_.iterations = s.iterations;
  stats_.residual = s.residual;
  stats_.cost = s.cost;
  stats_.num_contacts = static_cast<int>(raw_contacts_.size());
  stats_.num_hydroelastic_patches = static_cast<int>(patches_.size());
  stats_.num_constraints = s.num_constraints;
  stats_.converged = s.converged;
  stats_.used_supernodal = s.used_supernodal;

  if (!v_next_.allFinite()) {
    spdlog::error("step at t = {:.6f} s: the solver returned a non-finite velocity; state kept",
                  time_);
    stats_.converged = false;
    stats_.total_ms = MillisecondsSince(t_start);
    return false;
  }
  if (!s.converged) {
    spdlog::warn(
        "step at t = {:.6f} s: solver did not converge ({} iterations, residual {:.3e} "
        "> {:.3e})",
        time_, s.iterations, s.residual, s.tolerance);
  }
  multibody_.IntegratePositions(q_, v_next_, scene_.dt_s, &q_next_);
  if (!q_next_.allFinite()) {
    spdlog::error("step at t = {:.6f} s: non-finite positions; state kept", time_);
    stats_.total_ms = MillisecondsSince(t_start);
    return false;
  }
  StoreResults();
  q_.swap(q_next_);
  v_.swap(v_next_);
  time_ += scene_.dt_s;
  multibody_.UpdateKinematics(q_, v_, data_.get());
  stats_.total_ms = MillisecondsSince(t_start);
  return true;
}

void World::StoreResults() {
  const double dt = scene_.dt_s;
  const Eigen::VectorXd& gamma = solver_.impulses();
  const Eigen::VectorXd& vc = solver_.constraint_velocities();
  const int nc = static_cast<int>(raw_contacts_.size());
  contacts_.resize(nc);
  for (auto& f : net_normal_force_) f.setZero();
  for (auto& f : net_friction_force_) f.setZero();
  for (HydroelasticPatch& patch : patches_) {
    patch.normal_force_W.setZero();
    patch.friction_force_W.setZero();
  }
  for (int c = 0; c < nc; ++c) {
    const RawContact& rc = raw_contacts_[c];
    const ConvexProblem::ConstraintEntry& e = problem_.entry(contact_constraint_index_[c]);
    const Eigen::Vector3d g = gamma.segment<3>(e.row_start);
    const Eigen::Vector3d v_c = vc.segment<3>(e.row_start);
    const Eigen::Matrix3d& R = contact_frames_[c];
    ContactResult& r = contacts_[c];
    r.geometry_a = rc.geometry_a;
    r.geometry_b = rc.geometry_b;
    r.body_a = geometries_[rc.geometry_a].scene_body;
    r.body_b = geometries_[rc.geometry_b].scene_body;
    r.position_W = rc.point.Midpoint();
    r.normal_W = rc.point.normal_W;
    r.signed_distance_m = rc.point.signed_distance_m;
    r.normal_force_W = R.col(2) * (g.z() / dt);
    r.friction_force_W = R.leftCols<2>() * (g.head<2>() / dt);
    r.slip_velocity_W = R.leftCols<2>() * v_c.head<2>();
    r.normal_velocity = v_c.z();
    if (g.z() <= 0) {
      r.state = ContactResult::State::kMargin;
    } else if (v_c.head<2>().norm() <= 2 * scene_.stiction_tolerance_m_per_s) {
      r.state = ContactResult::State::kStick;
    } else {
      r.state = ContactResult::State::kSlip;
    }
    if (rc.patch >= 0) {
      r.hydroelastic_patch = rc.patch;
      r.hydroelastic_face = rc.face;
      r.hydroelastic_num_faces = rc.num_faces;
      r.face_area_m2 = rc.face_area_m2;
      r.pressure_Pa = rc.face_pressure_Pa;
      patches_[rc.patch].normal_force_W += r.normal_force_W;
      patches_[rc.patch].friction_force_W += r.friction_force_W;
    } else {
      r.hydroelastic_patch = -1;
      r.hydroelastic_face = -1;
      r.hydroelastic_num_faces = 0;
      r.face_area_m2 = 0;
      r.pressure_Pa = 0;
    }
    net_normal_force_[r.body_b] += r.normal_force_W;
    net_friction_force_[r.body_b] += r.friction_force_W;
    net_normal_force_[r.body_a] -= r.normal_force_W;
    net_friction_force_[r.body_a] -= r.friction_force_W;
  }
}

Eigen::Vector3d World::NetNormalForce(int scene_body) const {
  return net_normal_force_[scene_body];
}

Eigen::Vector3d World::NetFrictionForce(int scene_body) const {
  return net_friction_force_[scene_body];
}

double World::KineticEnergy() const { return multibody_.CalcKineticEnergy(*data_); }

double World::PotentialEnergy() const {
  return multibody_.CalcPotentialEnergy(*data_, scene_.gravity_W);
}

}  // namespace contactlab
