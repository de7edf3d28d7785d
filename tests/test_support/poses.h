// Poses and rotations written out in tests: X = [R | p], R an angle about an axis.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>

namespace contactlab::testing {

inline Eigen::Isometry3d Pose(const Eigen::Vector3d& p,
                              const Eigen::Matrix3d& R = Eigen::Matrix3d::Identity()) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = R;
  X.translation() = p;
  return X;
}

// The rotation by `angle` [rad] about `axis` (any length but zero).
inline Eigen::Matrix3d Rot(double angle, const Eigen::Vector3d& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

}  // namespace contactlab::testing
