// Stage "contact reach" of a step (docs/contact-model.md §4.3): a point contact within the
// scene's margin whose gap the two bodies cannot close in this step is left out of the problem,
// and checked against the solution afterwards — put back, and the step solved again, if it
// would have acted. The solution is the whole problem's; the problem is smaller (the clutter:
// about a sixth of its contacts, which also join resting bodies into larger islands).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/solver/contact_constraint_factory.h"
#include "engine/world/contact_candidates.h"
#include "engine/world/world_model.h"

namespace contactlab {

// Which gaps count as out of reach at the step's start (MayAct and ContactHorizon of
// contact_constraint_factory.h say which contacts act): the two bodies' speed bounds s (every
// point of a geometry moves at most |v_c| + |ω| r, from its bounding box's centre c and radius
// r) may grow within the step; a gap is out of reach if it exceeds
// h (1 + μ) (safety · (s_a + s_b) + floor_speed). Only the cost depends on these numbers (how
// often the after-check puts a contact back), never the solution.
struct ContactReachRule {
  double safety = 2.0;               // ≥ 1
  double floor_speed_m_per_s = 0.5;  // ≥ 0: what a resting body may be knocked to in a step
  double ReachDistance(double horizon_s, double friction, double speed_bound_sum) const {
    return horizon_s * (1 + friction) * (safety * speed_bound_sum + floor_speed_m_per_s);
  }
};

// A candidate left out, with what its after-check needs.
struct UnreachableContact {
  ContactCandidate candidate;
  double horizon_s = 0;
  double friction = 0;
};

class ContactReachCheck {
 public:
  // Appends to `candidates` (and removes from `unreachable`) every contact that may act at the
  // step's solution v_next, its velocity from the start configuration's Jacobians (`data`) as
  // the solver's; kinematic bodies move at their step velocity. Returns how many. Allocates
  // nothing once its scratch has grown to the largest tree.
  int Restore(const WorldModel& model, const MultibodyData& data, double t, double dt_s,
              const Eigen::VectorXd& v_next, std::vector<UnreachableContact>* unreachable,
              std::vector<ContactCandidate>* candidates);

 private:
  Eigen::Vector3d PointVelocity(const WorldModel& model, const MultibodyData& data, double t,
                                double dt_s, int scene_body, const Eigen::Vector3d& p_W,
                                const Eigen::VectorXd& v);
  Eigen::MatrixXd jacobian_scratch_;
};

}  // namespace contactlab
