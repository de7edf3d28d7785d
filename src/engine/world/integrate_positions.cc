#include "engine/world/integrate_positions.h"

namespace contactlab {

bool IntegratePositions(const Multibody& multibody, const Eigen::VectorXd& q0,
                        const Eigen::VectorXd& v_next, double dt_s, Eigen::VectorXd* q_next) {
  multibody.IntegratePositions(q0, v_next, dt_s, q_next);
  return q_next->allFinite();
}

bool IntegratePositions(const Multibody& multibody, const Eigen::VectorXd& q0,
                        const Eigen::VectorXd& v0, const Eigen::VectorXd& v_next, double dt_s,
                        double theta_q, Eigen::VectorXd* v_position, Eigen::VectorXd* q_next) {
  *v_position = theta_q * v_next + (1 - theta_q) * v0;
  return IntegratePositions(multibody, q0, *v_position, dt_s, q_next);
}

}  // namespace contactlab
