#include "render/overlay_batch.h"

#include <cstddef>

namespace contactlab {

OverlayBatch::OverlayBatch(const TriangleMesh& mesh) : mesh_(mesh) {
  glGenBuffers(1, &buffer_);
  mesh_.BindVertexArray();
  glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  const GLsizei stride = sizeof(Instance);
  for (GLuint column = 0; column < 4; ++column) {
    const GLuint location = kModelLocation + column;
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, 4, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(size_t{column} * 4 * sizeof(float)));
    glVertexAttribDivisor(location, 1);
  }
  glEnableVertexAttribArray(kColorShadingLocation);
  glVertexAttribPointer(kColorShadingLocation, 4, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(Instance, color_shading)));
  glVertexAttribDivisor(kColorShadingLocation, 1);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

OverlayBatch::~OverlayBatch() {
  if (buffer_ != 0) glDeleteBuffers(1, &buffer_);
}

void OverlayBatch::Draw() {
  if (instances_.empty()) return;
  // New storage each time (orphaning): overwriting the storage a queued draw still reads would
  // make the driver wait for that draw.
  glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instances_.size() * sizeof(Instance)),
               instances_.data(), GL_STREAM_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  mesh_.DrawInstanced(static_cast<GLsizei>(instances_.size()));
  instances_.clear();
}

}  // namespace contactlab
