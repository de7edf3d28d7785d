// A TriangleMesh uploaded once to GL buffers (interleaved position + normal, 32-bit indices)
// with its vertex array. Needs a current GL context for its whole life. Move-only.
#pragma once

#include <glad/gl.h>

#include "render/triangle_mesh.h"

namespace contactlab {

class GpuMesh {
 public:
  // Attribute locations the shaders declare (layout(location = ...)).
  static constexpr GLuint kPositionLocation = 0;
  static constexpr GLuint kNormalLocation = 1;

  explicit GpuMesh(const TriangleMesh& mesh);
  ~GpuMesh();
  GpuMesh(GpuMesh&& other) noexcept;
  GpuMesh& operator=(GpuMesh&& other) noexcept;
  GpuMesh(const GpuMesh&) = delete;
  GpuMesh& operator=(const GpuMesh&) = delete;

  // Binds the vertex array and draws all triangles with the current program.
  void Draw() const;
  // The same, `count` times, for attributes with a divisor (OverlayBatch's per-instance data).
  void DrawInstanced(GLsizei count) const;
  // For adding per-instance attributes to this mesh's vertex array.
  void BindVertexArray() const { glBindVertexArray(vao_); }

 private:
  void Release();
  GLuint vao_ = 0, vbo_ = 0, ebo_ = 0;
  GLsizei index_count_ = 0;
};

}  // namespace contactlab
