// Part of stage "problem builder" (docs/contact-model.md §3.2): the scene's couplers, distances
// and welds as constraints of a step's convex problem, their Jacobians and values from the
// kinematics at the step's start, their regularization from the rows' Delassus diagonal.
// Storage is reused: no allocation once warm.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/solver/convex_problem.h"
#include "engine/solver/coupler_constraint.h"
#include "engine/solver/distance_constraint.h"
#include "engine/solver/weld_constraint.h"
#include "engine/world/world_model.h"

namespace contactlab {

class HolonomicConstraints {
 public:
  explicit HolonomicConstraints(const WorldModel& model);
  // Adds every coupler, distance and weld of the scene that touches a movable body to
  // `problem`, at the kinematics `data` of time t. The constraints live here until the next
  // call.
  void Add(const WorldModel& model, double dt_s, const MultibodyData& data, double t,
           ConvexProblem* problem);

 private:
  // Adds a constraint of `rows` rows between scene bodies a and b (−1: the world) to the
  // problem, on the trees of those that move; −1 if neither moves.
  static int AddRows(const WorldModel& model, int a, int b, int rows, ConvexProblem* problem);
  // Adds sign·S·[J_ω; J_v] of `scene_body` at the point p_W to constraint k (S: rows × 6,
  // selecting or projecting the angular and translational velocities), and sign·S·[0; v] of a
  // kinematic body's prescribed velocity to its bias.
  void AddBodyRows(const WorldModel& model, const MultibodyData& data, double t, double dt_s,
                   int scene_body, const Eigen::Vector3d& p_W,
                   const Eigen::Ref<const Eigen::MatrixXd>& S, double sign, int k,
                   ConvexProblem* problem);
  void AddCouplers(const WorldModel& model, double dt_s, const MultibodyData& data,
                   ConvexProblem* problem);
  void AddDistances(const WorldModel& model, double dt_s, const MultibodyData& data, double t,
                    ConvexProblem* problem);
  void AddWelds(const WorldModel& model, double dt_s, const MultibodyData& data, double t,
                ConvexProblem* problem);

  std::vector<CouplerConstraint> couplers_;
  std::vector<DistanceConstraint> distances_;
  std::vector<WeldConstraint> welds_;
  Eigen::MatrixXd frame_jacobian_;  // 6 × the largest tree's n_v
  Eigen::MatrixXd projection_;      // S: up to 6 × 6
  Eigen::VectorXd row_masses_;      // up to 6 rows' Delassus diagonal
};

}  // namespace contactlab
