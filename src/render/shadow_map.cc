#include "render/shadow_map.h"

#include <cmath>

#include "render/render_error.h"
#include "render/transforms.h"

namespace contactlab {

ShadowMap::ShadowMap(int size) : size_(size) {
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
               nullptr);
  // LINEAR with a compare mode gives a 2×2 bilinear PCF per tap for free.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  // Outside the light frustum nothing casts a shadow: border depth 1 always passes.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
  const float border[4] = {1, 1, 1, 1};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
  glBindTexture(GL_TEXTURE_2D, 0);

  GLint previous = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, texture_, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    glDeleteFramebuffers(1, &framebuffer_);
    glDeleteTextures(1, &texture_);
    throw RenderError("shadow map framebuffer incomplete (status " + std::to_string(status) + ")");
  }
}

ShadowMap::~ShadowMap() {
  glDeleteFramebuffers(1, &framebuffer_);
  glDeleteTextures(1, &texture_);
}

void ShadowMap::Fit(const Eigen::Vector3f& light_direction, const Eigen::Vector3f& center,
                    float radius) {
  const Eigen::Vector3f up =
      std::abs(light_direction.z()) > 0.95f ? Eigen::Vector3f::UnitY() : Eigen::Vector3f::UnitZ();
  // Stand the light back 2 radii so the whole sphere sits inside [near, far].
  const Eigen::Vector3f eye = center - light_direction * (2.0f * radius);
  const float near_m = 0.5f * radius, far_m = 3.5f * radius;
  light_view_projection_ =
      Orthographic(-radius, radius, -radius, radius, near_m, far_m) * LookAt(eye, center, up);
  depth_per_metre_ = 1.0f / (far_m - near_m);
}

void ShadowMap::Resize(int size) {
  if (size == size_) return;
  size_ = size;
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
               nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
}

void ShadowMap::BeginPass() const {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, size_, size_);
  glClear(GL_DEPTH_BUFFER_BIT);
}

}  // namespace contactlab
