// Stage "integrate" of a step (docs/contact-model.md §1): the positions at the step's end from
// the new velocities, q_next = q0 + δt·N(q0)·v_next (symplectic Euler).
#pragma once

#include <Eigen/Dense>

#include "engine/multibody/multibody.h"

namespace contactlab {

// Returns false when a position is not finite (the caller keeps its state and reports it).
bool IntegratePositions(const Multibody& multibody, const Eigen::VectorXd& q0,
                        const Eigen::VectorXd& v_next, double dt_s, Eigen::VectorXd* q_next);

}  // namespace contactlab
