#include "render/marker_sprites.h"

#include <cstddef>

namespace contactlab {

MarkerSprites::MarkerSprites(const std::string& shader_dir)
    : program_(shader_dir + "/marker.vert", shader_dir + "/marker.frag"),
      view_projection_loc_(program_.Location("u_view_projection")),
      eye_loc_(program_.Location("u_eye")),
      pixels_per_metre_loc_(program_.Location("u_pixels_per_metre")) {
  glGenVertexArrays(1, &vertex_array_);
  glGenBuffers(1, &buffer_);
  glBindVertexArray(vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  const GLsizei stride = sizeof(Marker);
  glEnableVertexAttribArray(0);  // centre and radius
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride, nullptr);
  glEnableVertexAttribArray(1);  // colour
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(Marker, color)));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

MarkerSprites::~MarkerSprites() {
  if (buffer_ != 0) glDeleteBuffers(1, &buffer_);
  if (vertex_array_ != 0) glDeleteVertexArrays(1, &vertex_array_);
}

void MarkerSprites::Draw(const Eigen::Matrix4f& view_projection, const Eigen::Vector3f& eye,
                         float pixels_per_metre) {
  if (markers_.empty()) return;
  program_.Use();
  ShaderProgram::Set(view_projection_loc_, view_projection);
  ShaderProgram::Set(eye_loc_, eye);
  ShaderProgram::Set(pixels_per_metre_loc_, pixels_per_metre);
  // New storage each time (orphaning), as OverlayBatch: no wait on a queued draw.
  glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(markers_.size() * sizeof(Marker)),
               markers_.data(), GL_STREAM_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glBindVertexArray(vertex_array_);
  glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(markers_.size()));
  glBindVertexArray(0);
  glDisable(GL_PROGRAM_POINT_SIZE);
  glUseProgram(0);
  markers_.clear();
}

}  // namespace contactlab
