#include "render/camera.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "render/transforms.h"

namespace contactlab {
namespace {

// Just short of the poles: at ±90° the view direction is parallel to the up vector and the
// look-at frame is undefined.
constexpr float kMaxPitch = 0.5f * std::numbers::pi_v<float> - 0.01f;
constexpr float kMinDistance = 0.02f, kMaxDistance = 500.0f;

}  // namespace

Eigen::Vector3f Camera::Eye() const {
  if (X_WC) return X_WC->translation();
  const float cp = std::cos(pitch_rad);
  return target + distance_m * Eigen::Vector3f(cp * std::cos(yaw_rad), cp * std::sin(yaw_rad),
                                               std::sin(pitch_rad));
}

Eigen::Matrix4f Camera::View() const {
  if (!X_WC) return LookAt(Eye(), target, Eigen::Vector3f::UnitZ());
  // OpenGL's eye frame looks along −z with +y up: C turned half a turn about x_C.
  const Eigen::Vector4f gl_from_C(1, -1, -1, 1);
  return gl_from_C.asDiagonal() * X_WC->inverse().matrix();
}

Eigen::Matrix4f Camera::Projection(float aspect) const {
  // Near and far scale with the distance so depth precision follows the zoom level; far
  // reaches past the 20 m ground quad seen from any orbit distance.
  const float near_m = std::clamp(0.01f * distance_m, 0.001f, 1.0f);
  const float far_m = 50.0f * distance_m + 40.0f;
  Eigen::Matrix4f shift = Eigen::Matrix4f::Identity();
  shift.block<2, 1>(0, 3) = shift_ndc;  // applied after the divide by w: x' = x + shift·w
  return shift * Perspective(fov_y_rad, aspect > 0 ? aspect : 1.0f, near_m, far_m);
}

void Camera::Orbit(float dx_rad, float dy_rad) {
  yaw_rad = std::remainder(yaw_rad + dx_rad, 2.0f * std::numbers::pi_v<float>);
  pitch_rad = std::clamp(pitch_rad + dy_rad, -kMaxPitch, kMaxPitch);
}

void Camera::Pan(float dx, float dy, float aspect) {
  // Size of the view at the target's depth, so a drag across the whole view moves the target
  // by the whole visible width/height (the scene follows the mouse).
  const float height = 2.0f * distance_m * std::tan(0.5f * fov_y_rad);
  const float width = height * (aspect > 0 ? aspect : 1.0f);
  const Eigen::Vector3f forward = (target - Eye()).normalized();
  const Eigen::Vector3f right = forward.cross(Eigen::Vector3f::UnitZ()).normalized();
  const Eigen::Vector3f up = right.cross(forward);
  target += -right * (dx * width) + up * (dy * height);
}

void Camera::Zoom(float factor) {
  if (!(factor > 0) || !std::isfinite(factor)) return;
  distance_m = std::clamp(distance_m * factor, kMinDistance, kMaxDistance);
}

}  // namespace contactlab
