#include "render/scene_target.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>

#include "render/render_error.h"

namespace contactlab {

SceneTarget::~SceneTarget() {
  multisampled_.Release();
  scaled_.Release();
}

void SceneTarget::Buffer::Release() {
  if (framebuffer != 0) glDeleteFramebuffers(1, &framebuffer);
  if (color != 0) glDeleteRenderbuffers(1, &color);
  if (depth_stencil != 0) glDeleteRenderbuffers(1, &depth_stencil);
  framebuffer = color = depth_stencil = 0;
  size = {};
  samples = 0;
}

void SceneTarget::Buffer::Allocate(ViewportSize s, int n, GLuint restore, const char* what) {
  Release();
  glGenRenderbuffers(1, &color);
  glBindRenderbuffer(GL_RENDERBUFFER, color);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, n, GL_RGBA8, s.width, s.height);
  glGenRenderbuffers(1, &depth_stencil);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_stencil);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, n, GL_DEPTH24_STENCIL8, s.width, s.height);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                            depth_stencil);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, restore);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    Release();
    throw RenderError(std::string(what) + " framebuffer (" + std::to_string(s.width) + "x" +
                      std::to_string(s.height) + ", " + std::to_string(n) +
                      " samples) incomplete (status " + std::to_string(status) + ")");
  }
  size = s;
  samples = n;
}

bool SceneTarget::Use(Buffer* buffer, ViewportSize size, int samples, const char* what) {
  if (buffer->Holds(size, samples)) return true;
  try {
    buffer->Allocate(size, samples, static_cast<GLuint>(window_framebuffer_), what);
    return true;
  } catch (const RenderError& e) {
    // A driver that refuses one still draws the scene, single-sampled or at full size.
    spdlog::warn("{}; drawing without it", e.what());
    return false;
  }
}

ViewportSize SceneTarget::Begin(int width, int height, int samples, float scale) {
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &window_framebuffer_);
  if (max_samples_ < 0) glGetIntegerv(GL_MAX_SAMPLES, &max_samples_);
  window_ = drawn_ = {width, height};
  samples_ = std::clamp(samples, 0, std::max(0, max_samples_));
  if (samples_ <= 1 || width <= 0 || height <= 0) samples_ = 0;
  if (can_scale_ && width > 0 && height > 0) drawn_ = ScaledSceneSize(width, height, scale);
  scaled_now_ = !(drawn_ == window_);
  if (scaled_now_ && !Use(&scaled_, drawn_, 0, "scaled scene")) {
    can_scale_ = scaled_now_ = false;
    drawn_ = window_;
  }
  if (samples_ > 0 && !Use(&multisampled_, drawn_, samples_, "multisampled scene")) {
    max_samples_ = samples_ = 0;
  }
  if (samples_ > 0) {
    glBindFramebuffer(GL_FRAMEBUFFER, multisampled_.framebuffer);
  } else if (scaled_now_) {
    glBindFramebuffer(GL_FRAMEBUFFER, scaled_.framebuffer);
  }
  return drawn_;
}

void SceneTarget::End() {
  if (samples_ == 0 && !scaled_now_) return;
  glDisable(GL_SCISSOR_TEST);  // blits are scissored
  const GLuint window = static_cast<GLuint>(window_framebuffer_);
  if (samples_ > 0) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, multisampled_.framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, scaled_now_ ? scaled_.framebuffer : window);
    glBlitFramebuffer(0, 0, drawn_.width, drawn_.height, 0, 0, drawn_.width, drawn_.height,
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  if (scaled_now_) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, scaled_.framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, window);
    glBlitFramebuffer(0, 0, drawn_.width, drawn_.height, 0, 0, window_.width, window_.height,
                      GL_COLOR_BUFFER_BIT, GL_LINEAR);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, window);
}

}  // namespace contactlab
