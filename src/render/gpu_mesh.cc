#include "render/gpu_mesh.h"

#include <utility>
#include <vector>

namespace contactlab {

GpuMesh::GpuMesh(const TriangleMesh& mesh) {
  std::vector<float> interleaved;
  interleaved.reserve(mesh.positions.size() * 6);
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    const Eigen::Vector3f& p = mesh.positions[i];
    const Eigen::Vector3f& n = mesh.normals[i];
    interleaved.insert(interleaved.end(), {p.x(), p.y(), p.z(), n.x(), n.y(), n.z()});
  }
  index_count_ = static_cast<GLsizei>(mesh.indices.size());
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glGenBuffers(1, &ebo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(interleaved.size() * sizeof(float)),
               interleaved.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(uint32_t)), mesh.indices.data(),
               GL_STATIC_DRAW);
  const GLsizei stride = 6 * sizeof(float);
  glEnableVertexAttribArray(kPositionLocation);
  glVertexAttribPointer(kPositionLocation, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
  glEnableVertexAttribArray(kNormalLocation);
  glVertexAttribPointer(kNormalLocation, 3, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(3 * sizeof(float)));
  glBindVertexArray(0);
}

GpuMesh::~GpuMesh() { Release(); }

GpuMesh::GpuMesh(GpuMesh&& other) noexcept
    : vao_(std::exchange(other.vao_, 0)),
      vbo_(std::exchange(other.vbo_, 0)),
      ebo_(std::exchange(other.ebo_, 0)),
      index_count_(std::exchange(other.index_count_, 0)) {}

GpuMesh& GpuMesh::operator=(GpuMesh&& other) noexcept {
  if (this != &other) {
    Release();
    vao_ = std::exchange(other.vao_, 0);
    vbo_ = std::exchange(other.vbo_, 0);
    ebo_ = std::exchange(other.ebo_, 0);
    index_count_ = std::exchange(other.index_count_, 0);
  }
  return *this;
}

void GpuMesh::Release() {
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  if (vbo_ != 0) glDeleteBuffers(1, &vbo_);
  if (ebo_ != 0) glDeleteBuffers(1, &ebo_);
  vao_ = vbo_ = ebo_ = 0;
}

void GpuMesh::Draw() const {
  glBindVertexArray(vao_);
  glDrawElements(GL_TRIANGLES, index_count_, GL_UNSIGNED_INT, nullptr);
}

void GpuMesh::DrawInstanced(GLsizei count) const {
  glBindVertexArray(vao_);
  glDrawElementsInstanced(GL_TRIANGLES, index_count_, GL_UNSIGNED_INT, nullptr, count);
}

}  // namespace contactlab
