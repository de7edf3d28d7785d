// Stage "integrate" of a step (docs/contact-model.md §1–§1.1): the positions at the step's end
// from the new velocities, q_next = q0 + δt·N(q0)·v_next (symplectic Euler), or the θ-method's
// q_next = q0 + δt·N(q0)·(θ_q v_next + (1 − θ_q) v0).
#pragma once

#include <Eigen/Dense>

#include "engine/multibody/multibody.h"

namespace contactlab {

// Returns false when a position is not finite (the caller keeps its state and reports it).
bool IntegratePositions(const Multibody& multibody, const Eigen::VectorXd& q0,
                        const Eigen::VectorXd& v_next, double dt_s, Eigen::VectorXd* q_next);
// The θ-method's; *v_position is scratch (the weighted velocity).
bool IntegratePositions(const Multibody& multibody, const Eigen::VectorXd& q0,
                        const Eigen::VectorXd& v0, const Eigen::VectorXd& v_next, double dt_s,
                        double theta_q, Eigen::VectorXd* v_position, Eigen::VectorXd* q_next);

}  // namespace contactlab
