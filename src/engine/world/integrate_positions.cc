#include "engine/world/integrate_positions.h"

namespace contactlab {

bool IntegratePositions(const Multibody& multibody, const Eigen::VectorXd& q0,
                        const Eigen::VectorXd& v_next, double dt_s, Eigen::VectorXd* q_next) {
  multibody.IntegratePositions(q0, v_next, dt_s, q_next);
  return q_next->allFinite();
}

}  // namespace contactlab
