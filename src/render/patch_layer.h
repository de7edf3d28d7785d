// Hydroelastic contact patches (docs/contact-model.md §5) on screen: the triangles of a snapshot's
// contact surfaces coloured by pressure (PressureColorMap), uploaded per frame into one reused
// buffer. Needs a current GL context for its whole life (as the Renderer that owns it).
#pragma once

#include <glad/gl.h>

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "app/runtime/snapshot.h"
#include "render/render_layers.h"
#include "render/rgb8.h"
#include "render/shader_program.h"

namespace contactlab {

// The pressure range the colour map spans: the layers' [pressure_min_Pa, pressure_max_Pa] when
// that is a usable range, else [0, the snapshot's largest pressure] (max = min when there is
// no pressure at all).
struct PressureRange {
  float min_Pa = 0, max_Pa = 0;
};
PressureRange EffectivePressureRange(const RenderLayers& layers, const HydroelasticSnapshot& s);

// +1 when the patch's force and traction arrows show the force on B (B is later in World
// order than A, as B of every point contact), −1 when they show the force on A.
float PatchArrowSign(const PatchSnapshot& patch);

// Per geometry (ng of them): 1 when it is A or B of a patch and `enabled`, else 0.
void MarkPatchGeometries(const HydroelasticSnapshot& s, bool enabled, int ng,
                         std::vector<char>* marks);

// Whether a contact is a face of a patch that the patch layer draws (then its point marker and
// force arrows give way to the patch's).
bool ShownAsPatch(const ContactResult& c, const Snapshot& s, const RenderLayers& layers);

// An arrow of the patch layer, in the force arrows' colours: per patch the net normal and
// friction force [N] at the centre of pressure (with the force layers, when the patch layer is
// on), per face the normal and tangential traction [Pa] at the centroid (traction_arrows). The
// renderer scales them (ArrowLength: force_scale_m_per_N, traction_scale_m_per_Pa).
struct PatchArrow {
  Eigen::Vector3f origin_W;
  Eigen::Vector3f vector;  // N, or Pa for traction; signed by PatchArrowSign
  Rgb8 color;
  bool traction = false;
};
// Overwrites *arrows (keeping its capacity). Zero-length and non-finite arrows are left out.
void PatchArrows(const Snapshot& s, const RenderLayers& layers, std::vector<PatchArrow>* arrows);

class PatchLayer {
 public:
  // Compiles patch.vert / patch.frag in shader_dir (throws RenderError naming the file).
  explicit PatchLayer(const std::string& shader_dir);
  ~PatchLayer();
  PatchLayer(const PatchLayer&) = delete;
  PatchLayer& operator=(const PatchLayer&) = delete;

  // Uploads the patch triangles (the buffer only grows) and draws them with the current depth
  // and stencil state, colour map on texture unit 1. Returns the number of triangles drawn.
  int Upload(const HydroelasticSnapshot& patches);
  // hatch_px > 0: the x-ray look (stripes of that width, gap_alpha opaque between them; needs
  // blending on); 0: solid.
  void Draw(const Eigen::Matrix4f& view_projection, const PressureRange& range, float hatch_px,
            float gap_alpha) const;
  // The uploaded triangles' edges as lines one drawn pixel wide in `color` (the wireframe of
  // the contact surface), with the current depth and stencil state.
  void DrawEdges(const Eigen::Matrix4f& view_projection, Rgb8 color) const;

 private:
  ShaderProgram program_;
  struct {
    GLint view_projection, colormap, pressure_min, inverse_range, hatch_px, gap_alpha, line_color;
  } loc_{};
  GLuint vao_ = 0, position_vbo_ = 0, pressure_vbo_ = 0, colormap_texture_ = 0;
  size_t capacity_vertices_ = 0;
  GLsizei num_vertices_ = 0;
};

}  // namespace contactlab
