// A depth texture rendered from the directional light, sampled with hardware depth comparison
// (sampler2DShadow) and a small PCF kernel in the lit shader.
#pragma once

#include <glad/gl.h>

#include <Eigen/Dense>

namespace contactlab {

class ShadowMap {
 public:
  explicit ShadowMap(int size);
  ~ShadowMap();
  ShadowMap(const ShadowMap&) = delete;
  ShadowMap& operator=(const ShadowMap&) = delete;

  // New storage of size × size texels (the render quality's shadow resolution); the contents
  // are undefined until the next pass.
  void Resize(int size);
  // Fits an orthographic light frustum around the sphere (center, radius) for light travelling
  // along `light_direction` (unit, pointing from the light into the scene).
  void Fit(const Eigen::Vector3f& light_direction, const Eigen::Vector3f& center, float radius);
  // Binds the depth framebuffer, sets the viewport and clears it. The caller restores its own
  // framebuffer and viewport afterwards.
  void BeginPass() const;

  const Eigen::Matrix4f& light_view_projection() const { return light_view_projection_; }
  // Depth-buffer units per metre along the light (for the depth bias).
  float depth_per_metre() const { return depth_per_metre_; }
  GLuint texture() const { return texture_; }
  int size() const { return size_; }

 private:
  int size_;
  GLuint texture_ = 0, framebuffer_ = 0;
  Eigen::Matrix4f light_view_projection_ = Eigen::Matrix4f::Identity();
  float depth_per_metre_ = 1.0f;
};

}  // namespace contactlab
