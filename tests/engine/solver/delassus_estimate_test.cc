// The Delassus diagonal estimate (docs/contact-model.md §2.1) against a hand-worked case: a
// solid sphere of mass m and radius R touching the ground at its lowest point. With v_c = v +
// ω × r, r = (0, 0, −R), W = diag(7/(2m), 7/(2m), 1/m): each tangential row sees 1/m + R²/I
// (I = 2mR²/5), the effective mass of the sphere's slide-to-roll problem, and the normal row
// 1/m, which the estimate raises to its floor ‖W‖_F/3.
#include "engine/solver/delassus_estimate.h"

#include <gtest/gtest.h>

#include <cmath>

namespace contactlab {
namespace {

TEST(DelassusEstimate, SolidSphereOnTheGround) {
  const double m = 2.0, R = 0.1, I = 0.4 * m * R * R;
  ConvexProblem problem;
  problem.Reset({6});  // v = [ω, v]
  problem.mutable_tree_A(0).diagonal() << I, I, I, m, m, m;
  const int k = problem.AddConstraintRows(3, 0, -1);
  // v_c = v + ω × r = v − r × ω, r = (0, 0, −R): rows x, y, z of [−[r]×, I].
  Eigen::Matrix<double, 3, 6> J;
  J << 0, -R, 0, 1, 0, 0,  //
      R, 0, 0, 0, 1, 0,    //
      0, 0, 0, 0, 0, 1;
  problem.mutable_jacobian(k, 0) = J;
  const DelassusDiagonal w = EstimateDelassusDiagonal(problem, k);
  EXPECT_NEAR(w.w_n, std::sqrt(2 * 3.5 * 3.5 + 1) / (3 * m), 1e-14);
  EXPECT_NEAR(w.w_t, 3.5 / m, 1e-14);
}

TEST(DelassusEstimate, ContactOnAJointAxisKeepsAPositiveTangentialEntry) {
  // A contact whose tangential rows see no mobility (zero Jacobian rows): w_t stays > 0 so that
  // SAP's R_t = σ·w_t is positive.
  ConvexProblem problem;
  problem.Reset({1});
  problem.mutable_tree_A(0)(0, 0) = 1.0;
  const int k = problem.AddConstraintRows(3, 0, -1);
  problem.mutable_jacobian(k, 0)(2, 0) = 1.0;
  const DelassusDiagonal w = EstimateDelassusDiagonal(problem, k);
  EXPECT_GT(w.w_t, 0.0);
  EXPECT_NEAR(w.w_n, 1.0, 1e-15);
}

}  // namespace
}  // namespace contactlab
