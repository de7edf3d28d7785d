#include "engine/world/holonomic_constraints.h"

#include <algorithm>

#include "engine/solver/delassus_estimate.h"

namespace contactlab {
namespace {

Eigen::Isometry3d Pose(const WorldModel& model, int scene_body, const MultibodyData& data,
                       double t) {
  return scene_body < 0 ? Eigen::Isometry3d::Identity() : model.BodyPose(scene_body, data, t);
}

int TreeOf(const WorldModel& model, int scene_body) {
  if (scene_body < 0 || !model.movable(scene_body)) return -1;
  return model.multibody().body_tree(model.multibody_index(scene_body));
}

}  // namespace

HolonomicConstraints::HolonomicConstraints(const WorldModel& model) {
  const Multibody& mb = model.multibody();
  int max_nv = 1;
  for (int t = 0; t < mb.num_trees(); ++t) max_nv = std::max(max_nv, mb.tree_num_velocities(t));
  frame_jacobian_.resize(6, max_nv);
  projection_.resize(6, 6);
  row_masses_.resize(6);
  const SceneSpec& scene = model.scene();
  couplers_.reserve(scene.couplers.size());
  distances_.reserve(scene.distances.size());
  welds_.reserve(scene.welds.size());
}

void HolonomicConstraints::Add(const WorldModel& model, double dt_s, const MultibodyData& data,
                               double t, ConvexProblem* problem) {
  // The problem points into these vectors: they never grow beyond the reserved size.
  couplers_.clear();
  distances_.clear();
  welds_.clear();
  AddCouplers(model, dt_s, data, problem);
  AddDistances(model, dt_s, data, t, problem);
  AddWelds(model, dt_s, data, t, problem);
}

int HolonomicConstraints::AddRows(const WorldModel& model, int a, int b, int rows,
                                  ConvexProblem* problem) {
  const int tree_a = TreeOf(model, a), tree_b = TreeOf(model, b);
  const int t0 = tree_a >= 0 ? tree_a : tree_b;
  if (t0 < 0) return -1;
  const int t1 = (tree_a >= 0 && tree_b >= 0 && tree_b != tree_a) ? tree_b : -1;
  return problem->AddConstraintRows(rows, t0, t1);
}

void HolonomicConstraints::AddBodyRows(const WorldModel& model, const MultibodyData& data, double t,
                                       double dt_s, int scene_body, const Eigen::Vector3d& p_W,
                                       const Eigen::Ref<const Eigen::MatrixXd>& S, double sign,
                                       int k, ConvexProblem* problem) {
  if (scene_body < 0) return;
  // A kinematic body moves by prescription: its velocity enters v_c as the bias b.
  problem->mutable_bias(k).noalias() +=
      sign * S.rightCols<3>() * model.KinematicStepVelocity(scene_body, t, dt_s);
  const int tree = TreeOf(model, scene_body);
  if (tree < 0) return;
  const Multibody& mb = model.multibody();
  const int nt = mb.tree_num_velocities(tree);
  auto J = frame_jacobian_.leftCols(nt);
  mb.CalcFrameJacobian(data, model.multibody_index(scene_body), p_W, J);
  const int clique = problem->entry(k).tree[0] == tree ? 0 : 1;
  problem->mutable_jacobian(k, clique).noalias() += sign * S * J;
}

// §3.2 coupler: v_c = v_a − ρ v_b on the two joints' dofs, w = 1/A_aa + ρ²/A_bb.
void HolonomicConstraints::AddCouplers(const WorldModel& model, double dt_s,
                                       const MultibodyData& data, ConvexProblem* problem) {
  const Multibody& mb = model.multibody();
  for (const CouplerSpec& c : model.scene().couplers) {
    const int k = AddRows(model, c.body_a, c.body_b, 1, problem);
    if (k < 0) continue;
    const int bodies[2] = {model.multibody_index(c.body_a), model.multibody_index(c.body_b)};
    const double coefficients[2] = {1.0, -c.parameters.gear_ratio};
    double inverse_masses[2] = {0, 0}, q[2];
    for (int i = 0; i < 2; ++i) {
      q[i] = data.q[mb.position_start(bodies[i])];
      const int tree = mb.body_tree(bodies[i]);
      if (!model.movable(i == 0 ? c.body_a : c.body_b)) continue;
      const int local = mb.velocity_start(bodies[i]) - mb.tree_velocity_start(tree);
      const int clique = problem->entry(k).tree[0] == tree ? 0 : 1;
      problem->mutable_jacobian(k, clique)(0, local) += coefficients[i];
      inverse_masses[i] = 1.0 / problem->tree_A(tree)(local, local);
    }
    couplers_.emplace_back(c.parameters, dt_s, q[0], q[1], inverse_masses[0], inverse_masses[1]);
    problem->SetConstraint(k, &couplers_.back());
  }
}

// §3.2 distance: v_c = n̂ᵀ (v_Q − v_P), n̂ from P to Q.
void HolonomicConstraints::AddDistances(const WorldModel& model, double dt_s,
                                        const MultibodyData& data, double t,
                                        ConvexProblem* problem) {
  for (const DistanceSpec& d : model.scene().distances) {
    const int k = AddRows(model, d.body_a, d.body_b, 1, problem);
    if (k < 0) continue;
    const Eigen::Vector3d p_WP = Pose(model, d.body_a, data, t) * d.p_AP;
    const Eigen::Vector3d p_WQ = Pose(model, d.body_b, data, t) * d.p_BQ;
    auto S = projection_.topRows(1);  // a dynamic block: binds to Ref<const MatrixXd> uncopied
    S.setZero();
    S.rightCols<3>() = DistanceConstraint::Direction(p_WP, p_WQ).transpose();
    AddBodyRows(model, data, t, dt_s, d.body_b, p_WQ, S, +1.0, k, problem);
    AddBodyRows(model, data, t, dt_s, d.body_a, p_WP, S, -1.0, k, problem);
    auto w = row_masses_.head<1>();
    EstimateDelassusRows(*problem, k, w);
    distances_.emplace_back(d.parameters, dt_s, (p_WQ - p_WP).norm(), w(0));
    problem->SetConstraint(k, &distances_.back());
  }
}

// §3.2 weld: v_c = [ω_B − ω_A; v_Q − v_P] (world).
void HolonomicConstraints::AddWelds(const WorldModel& model, double dt_s, const MultibodyData& data,
                                    double t, ConvexProblem* problem) {
  for (const WeldSpec& weld : model.scene().welds) {
    const int k = AddRows(model, weld.body_a, weld.body_b, 6, problem);
    if (k < 0) continue;
    const Eigen::Isometry3d X_WP = Pose(model, weld.body_a, data, t) * weld.X_AP;
    const Eigen::Isometry3d X_WQ = Pose(model, weld.body_b, data, t) * weld.X_BQ;
    projection_.setIdentity();
    AddBodyRows(model, data, t, dt_s, weld.body_b, X_WQ.translation(), projection_, +1.0, k,
                problem);
    AddBodyRows(model, data, t, dt_s, weld.body_a, X_WP.translation(), projection_, -1.0, k,
                problem);
    EstimateDelassusRows(*problem, k, row_masses_);
    welds_.emplace_back(weld.parameters, dt_s, WeldConstraint::ConstraintValue(X_WP, X_WQ),
                        row_masses_);
    problem->SetConstraint(k, &welds_.back());
  }
}

}  // namespace contactlab
