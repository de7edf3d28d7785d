// One overlay mesh (contact marker, arrow shaft, arrow head) drawn many times per frame: the
// placements and colours of a frame are collected, then uploaded and drawn with a single
// instanced call. A software renderer (llvmpipe) pays per draw call in the render thread, and
// a contact-rich scene has hundreds of markers and arrows.
#pragma once

#include <glad/gl.h>

#include <Eigen/Dense>
#include <vector>

#include "render/gpu_mesh.h"
#include "render/triangle_mesh.h"

namespace contactlab {

class OverlayBatch {
 public:
  // Per-instance attribute locations (overlay.vert): the model matrix's four columns, then
  // colour (sRGB 0–1) and shading.
  static constexpr GLuint kModelLocation = 2;
  static constexpr GLuint kColorShadingLocation = 6;

  explicit OverlayBatch(const TriangleMesh& mesh);
  ~OverlayBatch();
  OverlayBatch(const OverlayBatch&) = delete;
  OverlayBatch& operator=(const OverlayBatch&) = delete;

  // shading: 0 draws the exact colour (flat), up to 1 shades by the facing ratio.
  void Add(const Eigen::Matrix4f& model, const Eigen::Vector3f& color, float shading) {
    instances_.push_back({model, Eigen::Vector4f(color.x(), color.y(), color.z(), shading)});
  }
  // Draws what was added since the last call with the overlay program in use, and empties the
  // batch (its memory is kept: no allocation per frame once the largest frame was seen).
  void Draw();

 private:
  struct Instance {
    Eigen::Matrix4f model;
    Eigen::Vector4f color_shading;
  };
  static_assert(sizeof(Instance) == 20 * sizeof(float), "tightly packed for the GL buffer");

  GpuMesh mesh_;
  GLuint buffer_ = 0;
  std::vector<Instance> instances_;
};

}  // namespace contactlab
