#include "render/layer_texture.h"

#include "render/render_error.h"

namespace contactlab {

LayerTexture::LayerTexture(const std::string& shader_dir)
    : program_(shader_dir + "/layer.vert", shader_dir + "/layer.frag"),
      layer_loc_(program_.Location("u_layer")) {
  glGenVertexArrays(1, &vertex_array_);
}

LayerTexture::~LayerTexture() {
  Release();
  if (vertex_array_ != 0) glDeleteVertexArrays(1, &vertex_array_);
}

void LayerTexture::Release() {
  if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
  if (texture_ != 0) glDeleteTextures(1, &texture_);
  framebuffer_ = texture_ = 0;
  width_ = height_ = 0;
  drawn_ = false;
}

void LayerTexture::Allocate(int width, int height) {
  Release();
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous_framebuffer_));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    Release();
    throw RenderError("panel layer framebuffer incomplete (status " + std::to_string(status) + ")");
  }
  width_ = width;
  height_ = height;
}

void LayerTexture::Begin(int width, int height) {
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_framebuffer_);
  drawn_ = false;
  if (width <= 0 || height <= 0) return;  // a minimized window: nothing to hold
  if (width != width_ || height != height_ || framebuffer_ == 0) Allocate(width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width, height);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);
  drawn_ = true;
}

void LayerTexture::End() {
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous_framebuffer_));
}

void LayerTexture::Composite() const {
  if (!drawn_) return;
  glViewport(0, 0, width_, height_);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_CULL_FACE);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // premultiplied (the header's note)
  program_.Use();
  ShaderProgram::Set(layer_loc_, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glBindVertexArray(vertex_array_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  glDisable(GL_BLEND);
}

}  // namespace contactlab
