#include "engine/world/problem_builder.h"

#include <algorithm>
#include <limits>

#include "engine/solver/delassus_estimate.h"
#include "engine/world/contact_properties.h"

namespace contactlab {
namespace {

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

}  // namespace

ProblemBuilder::ProblemBuilder(const WorldModel& model) : free_motion_(model), holonomic_(model) {
  const Multibody& mb = model.multibody();
  std::vector<int> tree_nv(mb.num_trees());
  for (int t = 0; t < mb.num_trees(); ++t) tree_nv[t] = mb.tree_num_velocities(t);
  problem_.Reset(tree_nv);
}

void ProblemBuilder::Build(const WorldModel& model, const WorldInputs& inputs,
                           const StepStart& start,
                           const std::vector<ContactCandidate>& candidates) {
  problem_.ClearConstraints();
  body_jacobian_.assign(model.multibody().num_bodies(), -1);
  free_motion_converged_ = free_motion_.Compute(model, inputs, start, &problem_);
  const int nc = static_cast<int>(candidates.size());
  // The factory's constraints must not move once the problem points at them: sized first.
  contact_factory_.Reset(inputs.contact_settings, nc);
  contact_constraint_index_.resize(nc);
  contact_frames_.resize(nc);
  contact_pairs_.resize(nc);
  contact_configurations_.resize(nc);
  contact_delassus_.resize(nc);
  for (int c = 0; c < nc; ++c) AddContact(model, inputs, start, candidates[c], c);
  AddJointConstraints(model, inputs, start);
  holonomic_.Add(model, start.dt_s, start.data, start.t, &problem_);
}

ContactProperties ProblemBuilder::PairProperties(const WorldModel& model, const WorldInputs& inputs,
                                                 const ContactCandidate& candidate) const {
  const ContactProperties& a = model.geometry(candidate.geometry_a).spec->contact;
  const ContactProperties& b = model.geometry(candidate.geometry_b).spec->contact;
  const ContactPairSpec* own =
      FindContactPair(inputs.contact_pairs, model.geometry(candidate.geometry_a).scene_body,
                      model.geometry(candidate.geometry_b).scene_body);
  if (candidate.patch < 0) {
    ContactProperties pair = CombinePointContactProperties(a, b, inputs.contact_settings);
    if (own) ApplyContactPair(*own, inputs.contact_settings, /*point_contact=*/true, &pair);
    return pair;
  }
  // A face set (§5): its own stiffness k_f = Σ A_f g_f; dissipation weighted by E_h.
  auto modulus = [&inputs](int g) {
    const HydroelasticRepresentation& r = inputs.hydroelastic[g];
    return r.compliant ? r.modulus_Pa : std::numeric_limits<double>::infinity();
  };
  ContactProperties pair = CombineHydroelasticContactProperties(
      a, modulus(candidate.geometry_a), b, modulus(candidate.geometry_b), inputs.contact_settings);
  if (own) ApplyContactPair(*own, inputs.contact_settings, /*point_contact=*/false, &pair);
  pair.stiffness_N_per_m = candidate.face_stiffness_N_per_m;
  return pair;
}

void ProblemBuilder::AddContact(const WorldModel& model, const WorldInputs& inputs,
                                const StepStart& start, const ContactCandidate& candidate, int c) {
  const Multibody& mb = model.multibody();
  const int body_a = model.geometry(candidate.geometry_a).scene_body;
  const int body_b = model.geometry(candidate.geometry_b).scene_body;
  const int tree_a = model.movable(body_a) ? mb.body_tree(model.multibody_index(body_a)) : -1;
  const int tree_b = model.movable(body_b) ? mb.body_tree(model.multibody_index(body_b)) : -1;
  const int t0 = tree_a >= 0 ? tree_a : tree_b;
  const int t1 = (tree_a >= 0 && tree_b >= 0 && tree_b != tree_a) ? tree_b : -1;

  const Eigen::Vector3d p_W = candidate.point.Midpoint();
  const Eigen::Matrix3d R_WC = ContactFrame(candidate.point.normal_W);
  contact_frames_[c] = R_WC;
  const int k = problem_.AddConstraintRows(3, t0, t1);
  contact_constraint_index_[c] = k;
  // v_c = R_WCᵀ (v_B(p) − v_A(p)) + b: B moving along +n̂ relative to A separates; the bias b
  // is the kinematic bodies' prescribed velocity.
  if (!SetContactFrame(model, start.data, body_a, body_b, p_W, R_WC, k)) {
    AddPointJacobian(model, start.data, body_b, p_W, R_WC, +1.0, k);
    AddPointJacobian(model, start.data, body_a, p_W, R_WC, -1.0, k);
  }
  const double dt = start.dt_s;
  const Eigen::Vector3d kinematic_velocity = model.KinematicStepVelocity(body_b, start.t, dt) -
                                             model.KinematicStepVelocity(body_a, start.t, dt);
  problem_.mutable_bias(k) = R_WC.transpose() * kinematic_velocity;

  // Normal velocity at the previous state v0 (Lagged's γ_n0, §2.3): J's last row alone, summed
  // in a plain loop (Eigen's matrix–vector dispatch for the whole 3 × n_v block cost more than
  // the products).
  double vn0 = problem_.mutable_bias(k)(2);
  const ConvexProblem::ConstraintEntry& e = problem_.entry(k);
  for (int q = 0; q < e.num_cliques; ++q) {
    const auto J = problem_.jacobian(k, q);
    const double* v = start.v.data() + problem_.tree_start(e.tree[q]);
    double sum = 0;
    for (int j = 0; j < J.cols(); ++j) sum += J(2, j) * v[j];
    vn0 += sum;
  }

  ContactConfiguration config;
  config.signed_distance_m = candidate.point.signed_distance_m;
  if (candidate.patch >= 0) config.elastic_force_N = candidate.face_elastic_force_N;
  config.previous_normal_velocity_m_per_s = vn0;
  const DelassusDiagonal w = contact_factory_.needs_delassus_diagonal()
                                 ? EstimateDelassusDiagonal(problem_, k)
                                 : DelassusDiagonal{};
  contact_pairs_[c] = PairProperties(model, inputs, candidate);
  contact_configurations_[c] = config;
  contact_delassus_[c] = w;
  problem_.SetConstraint(k, contact_factory_.Make(c, contact_pairs_[c], config, dt, w));
}

void ProblemBuilder::RemakeContactConstraints(const WorldModel& model, const WorldInputs& inputs,
                                              const std::vector<ContactCandidate>& candidates,
                                              double dt_s) {
  const int nc = static_cast<int>(candidates.size());
  contact_factory_.Reset(inputs.contact_settings, nc);  // the same size: Make's addresses kept
  for (int c = 0; c < nc; ++c) {
    contact_pairs_[c] = PairProperties(model, inputs, candidates[c]);
    problem_.SetConstraint(contact_constraint_index_[c],
                           contact_factory_.Make(c, contact_pairs_[c], contact_configurations_[c],
                                                 dt_s, contact_delassus_[c]));
  }
}

void ProblemBuilder::AddPointJacobian(const WorldModel& model, const MultibodyData& data,
                                      int scene_body, const Eigen::Vector3d& p_W,
                                      const Eigen::Matrix3d& R_WC, double sign, int k) {
  if (!model.movable(scene_body)) return;
  const Multibody& mb = model.multibody();
  const int b = model.multibody_index(scene_body);
  const int tree = mb.body_tree(b);
  const int nt = mb.tree_num_velocities(tree);
  if (nt == 0) return;
  const ConvexProblem::ConstraintEntry& e = problem_.entry(k);
  const int clique = (e.tree[0] == tree) ? 0 : 1;
  mb.AddRotatedPointJacobian(data, b, p_W, sign * R_WC.transpose(),
                             problem_.mutable_jacobian(k, clique));
}

bool ProblemBuilder::SetContactFrame(const WorldModel& model, const MultibodyData& data, int body_a,
                                     int body_b, const Eigen::Vector3d& p_W,
                                     const Eigen::Matrix3d& R_WC, int k) {
  const ConvexProblem::ConstraintEntry& e = problem_.entry(k);
  const bool a_moves = model.movable(body_a), b_moves = model.movable(body_b);
  // Two bodies of one tree share a clique: its block is not one body's.
  if (a_moves && b_moves && e.num_cliques == 1) return false;
  const Multibody& mb = model.multibody();
  ConvexProblem::ContactFrame frame;
  frame.R_WC = R_WC;
  frame.p_W = p_W;
  for (int q = 0; q < e.num_cliques; ++q) {
    // v_c = R_WCᵀ (v_B(p) − v_A(p)): B's clique with +, A's with −.
    const bool is_b = b_moves && mb.body_tree(model.multibody_index(body_b)) == e.tree[q];
    frame.body[q] = BodyJacobian(mb, data, model.multibody_index(is_b ? body_b : body_a));
    frame.sign[q] = is_b ? 1.0 : -1.0;
    // The clique's block from the body Jacobian: per velocity v_P = v_O + ω × p (a body's
    // non-ancestor columns are zero), as Multibody::AddRotatedPointJacobian computes it, without
    // its walk over the ancestors' joints.
    // Written out over the raw columns: through Eigen's dynamic-size maps this loop was 5 % of
    // a peg-in-hole step.
    const auto B = problem_.body_jacobian(frame.body[q]);
    auto J = problem_.mutable_jacobian(k, q);
    const Eigen::Matrix3d R = frame.sign[q] * R_WC.transpose();
    const double* b = B.data();
    double* j = J.data();
    for (int c = 0; c < B.cols(); ++c, b += 6, j += 3) {
      const double v0 = b[3] + (b[1] * p_W.z() - b[2] * p_W.y());
      const double v1 = b[4] + (b[2] * p_W.x() - b[0] * p_W.z());
      const double v2 = b[5] + (b[0] * p_W.y() - b[1] * p_W.x());
      for (int i = 0; i < 3; ++i) j[i] += R(i, 0) * v0 + R(i, 1) * v1 + R(i, 2) * v2;
    }
  }
  problem_.SetContactFrame(k, frame);
  return true;
}

int ProblemBuilder::BodyJacobian(const Multibody& mb, const MultibodyData& data, int body) {
  int& index = body_jacobian_[body];
  if (index < 0) {
    index = problem_.AddBodyJacobian(mb.body_tree(body));
    // The frame Jacobian at the world origin: [ω; v_O] per velocity.
    mb.CalcFrameJacobian(data, body, Eigen::Vector3d::Zero(),
                         problem_.mutable_body_jacobian(index));
  }
  return index;
}

void ProblemBuilder::AddJointConstraints(const WorldModel& model, const WorldInputs& inputs,
                                         const StepStart& start) {
  const Multibody& mb = model.multibody();
  const std::vector<SceneBody>& bodies = model.scene().bodies;
  const double dt = start.dt_s;
  int num_pd = 0, num_limits = 0;
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (inputs.pd[i]) ++num_pd;
    if (bodies[i].limits) num_limits += 2;
  }
  // Reserved first: the problem points into these vectors.
  pd_constraints_.clear();
  limit_constraints_.clear();
  pd_constraints_.reserve(num_pd);
  limit_constraints_.reserve(num_limits);
  for (size_t i = 0; i < bodies.size(); ++i) {
    const int b = model.multibody_index(static_cast<int>(i));
    if (b < 0 || mb.joint_num_velocities(b) != 1) continue;
    const int tree = mb.body_tree(b);
    const int local = mb.velocity_start(b) - mb.tree_velocity_start(tree);
    const double q0 = start.q[mb.position_start(b)];
    const double inverse_mass = 1.0 / problem_.tree_A(tree)(local, local);
    if (const std::optional<JointPdSpec>& pd = inputs.pd[i]) {
      const PdControllerConstraint::Parameters p{.kp = pd->kp,
                                                 .kd = pd->kd,
                                                 .q_desired = pd->q_desired,
                                                 .v_desired = pd->v_desired,
                                                 .feedforward = pd->feedforward,
                                                 .effort_limit = pd->effort_limit};
      const TimeIntegration& integrator = inputs.contact_settings.integrator;
      if (integrator.scheme == TimeIntegration::Scheme::kTheta) {
        pd_constraints_.emplace_back(PdControllerConstraint::MakeThetaData(
            p, dt, q0, start.v[mb.velocity_start(b)], integrator.theta_q, integrator.theta_v,
            inverse_mass));
      } else {
        pd_constraints_.emplace_back(p, dt, q0, inverse_mass);
      }
      const int k = problem_.AddConstraint(&pd_constraints_.back(), tree, -1);
      problem_.mutable_jacobian(k, 0)(0, local) = 1.0;
    }
    if (const std::optional<std::pair<double, double>>& limits = bodies[i].limits) {
      const double distances[2] = {q0 - limits->first, limits->second - q0};
      const double signs[2] = {1.0, -1.0};
      for (int side = 0; side < 2; ++side) {
        limit_constraints_.emplace_back(JointLimitConstraint::Parameters{}, dt, distances[side],
                                        inverse_mass);
        const int k = problem_.AddConstraint(&limit_constraints_.back(), tree, -1);
        problem_.mutable_jacobian(k, 0)(0, local) = signs[side];
      }
    }
  }
}

}  // namespace contactlab
