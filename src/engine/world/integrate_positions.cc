#include "engine/world/integrate_positions.h"

#include <spdlog/spdlog.h>

namespace contactlab {

bool IntegratePositions(const Multibody& multibody, const Eigen::VectorXd& q0,
                        const Eigen::VectorXd& v_next, double dt_s, double t,
                        Eigen::VectorXd* q_next) {
  multibody.IntegratePositions(q0, v_next, dt_s, q_next);
  if (q_next->allFinite()) return true;
  spdlog::error("step at t = {:.6f} s: non-finite positions; state kept", t);
  return false;
}

}  // namespace contactlab
