#include "render/layer_texture.h"

#include <algorithm>

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
  tiles_x_ = (width + kTile_px - 1) / kTile_px;
  tiles_y_ = (height + kTile_px - 1) / kTile_px;
  marked_tiles_.assign(static_cast<size_t>(tiles_x_) * static_cast<size_t>(tiles_y_), 0);
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
  std::fill(marked_tiles_.begin(), marked_tiles_.end(), 0);
  any_marked_ = false;
}

void LayerTexture::MarkDrawn(int x, int y, int width, int height) {
  const int x0 = std::max(x, 0), y0 = std::max(y, 0);
  const int x1 = std::min(x + width, width_), y1 = std::min(y + height, height_);
  if (!drawn_ || x1 <= x0 || y1 <= y0) return;
  any_marked_ = true;
  for (int ty = y0 / kTile_px; ty <= (y1 - 1) / kTile_px; ++ty) {
    for (int tx = x0 / kTile_px; tx <= (x1 - 1) / kTile_px; ++tx) {
      marked_tiles_[static_cast<size_t>(ty) * tiles_x_ + tx] = 1;
    }
  }
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
  if (!any_marked_) {
    glDrawArrays(GL_TRIANGLES, 0, 3);
  } else {
    // Each row's runs of marked tiles, scissored: disjoint, so no pixel is blended twice.
    glEnable(GL_SCISSOR_TEST);
    for (int ty = 0; ty < tiles_y_; ++ty) {
      const uint8_t* row = &marked_tiles_[static_cast<size_t>(ty) * tiles_x_];
      for (int tx = 0; tx < tiles_x_;) {
        if (!row[tx]) {
          ++tx;
          continue;
        }
        const int start = tx;
        while (tx < tiles_x_ && row[tx]) ++tx;
        glScissor(start * kTile_px, ty * kTile_px, (tx - start) * kTile_px, kTile_px);
        glDrawArrays(GL_TRIANGLES, 0, 3);
      }
    }
    glDisable(GL_SCISSOR_TEST);
  }
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  glDisable(GL_BLEND);
}

}  // namespace contactlab
