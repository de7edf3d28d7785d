// The held object's failure (app/headless/grasp_failure.h): its grasp point's slip in the
// hand's frame, not its rocking about the grasp, decides t_f.
#include "app/headless/grasp_failure.h"

#include <gtest/gtest.h>

#include <cmath>

namespace contactlab {
namespace {

const Eigen::Vector3d kGrasp(0, 0, 0.0839);  // the Panda's tool point in its hand frame

Eigen::Isometry3d Pose(const Eigen::Vector3d& p,
                       const Eigen::AngleAxisd& r = Eigen::AngleAxisd(0,
                                                                      Eigen::Vector3d::UnitX())) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = r.toRotationMatrix();
  X.translation() = p;
  return X;
}

// A hand somewhere, turned (z down), and a rod hanging from the grasp point.
struct HangingRod {
  Eigen::Isometry3d X_WH = Pose({0.3, 0.1, 0.6}, Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitX()));
  Eigen::Isometry3d X_HO0 = Pose({0, 0, 0.1571});  // the rod's origin below the grasp point
  GraspFailureDetector detector{kGrasp, X_WH, X_WH* X_HO0};
  // The rod turned by `angle` about the grasp axis (hand y) through G, then moved by `shift`
  // (hand frame); observed at t.
  void Observe(double t, double angle, const Eigen::Vector3d& shift) {
    const Eigen::Isometry3d about_G =
        Pose(kGrasp + shift) * Pose({0, 0, 0}, Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitY())) *
        Pose(-kGrasp);
    detector.Observe(t, X_WH, X_WH * about_G * X_HO0);
  }
};

TEST(GraspFailureDetector, RockingAboutTheGraspIsNotAFailure) {
  HangingRod s;
  s.Observe(0.5, 0.8, Eigen::Vector3d::Zero());  // 46° about G
  EXPECT_FALSE(s.detector.failed());
  EXPECT_NEAR(s.detector.slip_m(), 0, 1e-15);
  EXPECT_NEAR(s.detector.max_rock_rad(), 0.8, 1e-12);
  EXPECT_EQ(s.detector.time_to_failure(), 0.5) << "held: the time observed";
}

TEST(GraspFailureDetector, SlidingMoreThanOneCentimetreIsTheFailureAndItsTimeStays) {
  HangingRod s;
  s.Observe(1.0, 0.3, {0, 0, 0.0099});
  EXPECT_FALSE(s.detector.failed());
  EXPECT_NEAR(s.detector.slip_m(), 0.0099, 1e-12);
  s.Observe(1.001, 0.3, {0.006, 0, 0.0081});  // ‖(6, 0, 8.1) mm‖ = 10.08 mm
  EXPECT_TRUE(s.detector.failed());
  EXPECT_EQ(s.detector.time_to_failure(), 1.001);
  s.Observe(1.5, 0.0, {0, 0, 0.3});  // the fall: t_f and the slip until it stay
  EXPECT_EQ(s.detector.time_to_failure(), 1.001);
  EXPECT_NEAR(s.detector.max_slip_m(), 0.01008, 1e-5);
  EXPECT_NEAR(s.detector.slip_m(), 0.3, 1e-12);
}

TEST(GraspFailureDetector, TheHandsOwnMotionIsNotSlip) {
  HangingRod s;
  const Eigen::Isometry3d moved = Pose({0.03, -0.02, 0.01}) * s.X_WH *
                                  Pose({0, 0, 0}, Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitZ()));
  s.detector.Observe(0.1, moved, moved * s.X_HO0);
  EXPECT_NEAR(s.detector.slip_m(), 0, 1e-15);
  EXPECT_NEAR(s.detector.max_rock_rad(), 0, 1e-12);
}

}  // namespace
}  // namespace contactlab
