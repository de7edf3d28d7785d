// The few projective transforms the renderer needs (OpenGL conventions: right-handed eye space
// looking down −z, clip z in [−1, 1]), in float for upload.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Geometry>

namespace contactlab {

Eigen::Matrix4f LookAt(const Eigen::Vector3f& eye, const Eigen::Vector3f& target,
                       const Eigen::Vector3f& up);
Eigen::Matrix4f Perspective(float fov_y_rad, float aspect, float near_m, float far_m);
Eigen::Matrix4f Orthographic(float left, float right, float bottom, float top, float near_m,
                             float far_m);
// A rigid engine pose as a float model matrix.
Eigen::Matrix4f ToMatrix(const Eigen::Isometry3d& X);
// A matrix whose +z axis is `direction` (unit), origin at `origin`, scaled by
// (radial, radial, axial). Used to place arrows and axes along arbitrary directions.
Eigen::Matrix4f AlongDirection(const Eigen::Vector3f& origin, const Eigen::Vector3f& direction,
                               float radial_scale, float axial_scale);

}  // namespace contactlab
