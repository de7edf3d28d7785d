#include "render/transforms.h"

#include <cmath>

namespace contactlab {

Eigen::Matrix4f LookAt(const Eigen::Vector3f& eye, const Eigen::Vector3f& target,
                       const Eigen::Vector3f& up) {
  const Eigen::Vector3f f = (target - eye).normalized();
  const Eigen::Vector3f s = f.cross(up).normalized();
  const Eigen::Vector3f u = s.cross(f);
  Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
  m.block<1, 3>(0, 0) = s.transpose();
  m.block<1, 3>(1, 0) = u.transpose();
  m.block<1, 3>(2, 0) = -f.transpose();
  m(0, 3) = -s.dot(eye);
  m(1, 3) = -u.dot(eye);
  m(2, 3) = f.dot(eye);
  return m;
}

Eigen::Matrix4f Perspective(float fov_y_rad, float aspect, float near_m, float far_m) {
  const float t = 1.0f / std::tan(0.5f * fov_y_rad);
  Eigen::Matrix4f m = Eigen::Matrix4f::Zero();
  m(0, 0) = t / aspect;
  m(1, 1) = t;
  m(2, 2) = (far_m + near_m) / (near_m - far_m);
  m(2, 3) = 2.0f * far_m * near_m / (near_m - far_m);
  m(3, 2) = -1.0f;
  return m;
}

Eigen::Matrix4f Orthographic(float left, float right, float bottom, float top, float near_m,
                             float far_m) {
  Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
  m(0, 0) = 2.0f / (right - left);
  m(1, 1) = 2.0f / (top - bottom);
  m(2, 2) = -2.0f / (far_m - near_m);
  m(0, 3) = -(right + left) / (right - left);
  m(1, 3) = -(top + bottom) / (top - bottom);
  m(2, 3) = -(far_m + near_m) / (far_m - near_m);
  return m;
}

Eigen::Matrix4f ToMatrix(const Eigen::Isometry3d& X) { return X.matrix().cast<float>(); }

Eigen::Matrix4f AlongDirection(const Eigen::Vector3f& origin, const Eigen::Vector3f& direction,
                               float radial_scale, float axial_scale) {
  // Any unit vector not parallel to the direction completes the frame.
  const Eigen::Vector3f helper =
      std::abs(direction.z()) < 0.9f ? Eigen::Vector3f::UnitZ() : Eigen::Vector3f::UnitX();
  const Eigen::Vector3f x = helper.cross(direction).normalized();
  const Eigen::Vector3f y = direction.cross(x);
  Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
  m.block<3, 1>(0, 0) = x * radial_scale;
  m.block<3, 1>(0, 1) = y * radial_scale;
  m.block<3, 1>(0, 2) = direction * axial_scale;
  m.block<3, 1>(0, 3) = origin;
  return m;
}

}  // namespace contactlab
