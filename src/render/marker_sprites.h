// Contact-point and target markers as round sprites: one GL point per marker, a disc of the
// marker's projected size in its exact colour. A marker is a flat-coloured ball a few pixels
// across, which on screen is exactly a disc; as a tessellated sphere a software rasterizer
// (llvmpipe) set up every facet in the render thread (the clutter's 180 markers: 0.43 ms a
// frame even at 6 × 4 facets), as a sprite one vertex. A disc wider than the driver's largest point
// (255 px on llvmpipe) is drawn at that width: a marker seen from a few centimetres.
// Needs a current GL context for its whole life.
#pragma once

#include <glad/gl.h>

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "render/shader_program.h"

namespace contactlab {

class MarkerSprites {
 public:
  explicit MarkerSprites(const std::string& shader_dir);
  ~MarkerSprites();
  MarkerSprites(const MarkerSprites&) = delete;
  MarkerSprites& operator=(const MarkerSprites&) = delete;

  // A ball of radius_m [m] at p_W in `color` (sRGB 0–1, drawn exactly).
  void Add(const Eigen::Vector3f& p_W, float radius_m, const Eigen::Vector3f& color) {
    markers_.push_back({p_W, radius_m, color});
  }
  // Draws what was added since the last call and empties the batch (its memory is kept).
  // pixels_per_metre is the view's pixels per metre at unit distance from the eye; the depth
  // of a disc is that of its ball's nearest point, so what passes behind the ball passes
  // behind the disc. Leaves no program bound.
  void Draw(const Eigen::Matrix4f& view_projection, const Eigen::Vector3f& eye,
            float pixels_per_metre);

 private:
  struct Marker {
    Eigen::Vector3f p_W;
    float radius_m;
    Eigen::Vector3f color;
  };
  static_assert(sizeof(Marker) == 7 * sizeof(float), "tightly packed for the GL buffer");

  ShaderProgram program_;
  GLint view_projection_loc_, eye_loc_, pixels_per_metre_loc_;
  GLuint vertex_array_ = 0, buffer_ = 0;
  std::vector<Marker> markers_;
};

}  // namespace contactlab
