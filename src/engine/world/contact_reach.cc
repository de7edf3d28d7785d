#include "engine/world/contact_reach.h"

#include <vector>

namespace contactlab {

Eigen::Vector3d ContactReachCheck::PointVelocity(const WorldModel& model, const MultibodyData& data,
                                                 double t, double dt_s, int scene_body,
                                                 const Eigen::Vector3d& p_W,
                                                 const Eigen::VectorXd& v) {
  if (!model.movable(scene_body)) return model.KinematicStepVelocity(scene_body, t, dt_s);
  const Multibody& mb = model.multibody();
  const int b = model.multibody_index(scene_body);
  const int tree = mb.body_tree(b), n = mb.tree_num_velocities(tree);
  if (jacobian_scratch_.cols() < n) jacobian_scratch_.resize(3, n);
  auto J = jacobian_scratch_.leftCols(n);
  mb.CalcPointJacobian(data, b, p_W, J);
  return J * v.segment(mb.tree_velocity_start(tree), n);
}

int ContactReachCheck::Restore(const WorldModel& model, const MultibodyData& data, double t,
                               double dt_s, const Eigen::VectorXd& v_next,
                               std::vector<UnreachableContact>* unreachable,
                               std::vector<ContactCandidate>* candidates) {
  const size_t before = candidates->size();
  std::erase_if(*unreachable, [&](const UnreachableContact& u) {
    const ContactCandidate& c = u.candidate;
    const Eigen::Vector3d p_W = c.point.Midpoint();
    const Eigen::Vector3d v_rel =
        PointVelocity(model, data, t, dt_s, model.geometry(c.geometry_b).scene_body, p_W, v_next) -
        PointVelocity(model, data, t, dt_s, model.geometry(c.geometry_a).scene_body, p_W, v_next);
    const double v_n = v_rel.dot(c.point.normal_W);
    const double v_t = (v_rel - v_n * c.point.normal_W).norm();
    if (!MayAct(c.point.signed_distance_m, u.horizon_s, u.friction, v_n, v_t)) return false;
    candidates->push_back(c);
    return true;
  });
  return static_cast<int>(candidates->size() - before);
}

}  // namespace contactlab
