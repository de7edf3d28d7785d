#include "render/scene_target.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>

#include "render/render_error.h"

namespace contactlab {

SceneTarget::~SceneTarget() { Release(); }

void SceneTarget::Release() {
  if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
  if (color_ != 0) glDeleteRenderbuffers(1, &color_);
  if (depth_stencil_ != 0) glDeleteRenderbuffers(1, &depth_stencil_);
  framebuffer_ = color_ = depth_stencil_ = 0;
  width_ = height_ = allocated_samples_ = 0;
}

void SceneTarget::Allocate(int width, int height, int samples) {
  Release();
  glGenRenderbuffers(1, &color_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
  glGenRenderbuffers(1, &depth_stencil_);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_stencil_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH24_STENCIL8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                            depth_stencil_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(window_framebuffer_));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    Release();
    throw RenderError("multisampled scene framebuffer (" + std::to_string(samples) +
                      " samples) incomplete (status " + std::to_string(status) + ")");
  }
  width_ = width;
  height_ = height;
  allocated_samples_ = samples;
}

void SceneTarget::Begin(int width, int height, int samples) {
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &window_framebuffer_);
  if (max_samples_ < 0) glGetIntegerv(GL_MAX_SAMPLES, &max_samples_);
  samples_ = std::clamp(samples, 0, std::max(0, max_samples_));
  if (samples_ <= 1) {
    samples_ = 0;
    return;
  }
  if (width != width_ || height != height_ || samples_ != allocated_samples_) {
    try {
      Allocate(width, height, samples_);
    } catch (const RenderError& e) {
      // A driver without multisampled renderbuffers still draws the scene, single-sampled.
      spdlog::warn("{}; drawing without multisampling", e.what());
      max_samples_ = 0;
      samples_ = 0;
      return;
    }
  }
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
}

void SceneTarget::End() {
  if (samples_ == 0) return;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(window_framebuffer_));
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(window_framebuffer_));
}

}  // namespace contactlab
