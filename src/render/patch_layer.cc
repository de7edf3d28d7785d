#include "render/patch_layer.h"

#include <algorithm>
#include <cmath>

#include "render/color_map.h"
#include "render/gpu_mesh.h"
#include "render/palette.h"

namespace contactlab {
namespace {

constexpr GLuint kPressureLocation = 2;  // patch.vert: layout(location = 2) a_pressure
constexpr GLint kColormapUnit = 1;       // unit 0 holds the shadow map
static_assert(sizeof(Eigen::Vector3f) == 3 * sizeof(float), "tightly packed positions");

}  // namespace

PressureRange EffectivePressureRange(const RenderLayers& layers, const HydroelasticSnapshot& s) {
  const float min_Pa = layers.pressure_min_Pa, max_Pa = layers.pressure_max_Pa;
  if (std::isfinite(min_Pa) && std::isfinite(max_Pa) && max_Pa > min_Pa) return {min_Pa, max_Pa};
  const float top = std::isfinite(s.max_pressure_Pa) ? std::max(s.max_pressure_Pa, 0.0f) : 0.0f;
  return {0.0f, top};
}

float PatchArrowSign(const PatchSnapshot& patch) {
  return patch.geometry_b >= patch.geometry_a ? 1.0f : -1.0f;
}

void MarkPatchGeometries(const HydroelasticSnapshot& s, bool enabled, int ng,
                         std::vector<char>* marks) {
  marks->assign(std::max(ng, 0), 0);
  if (!enabled) return;
  for (const PatchSnapshot& p : s.patches) {
    for (const int g : {p.geometry_a, p.geometry_b}) {
      if (g >= 0 && g < ng) (*marks)[g] = 1;
    }
  }
}

bool ShownAsPatch(const ContactResult& c, const Snapshot& s, const RenderLayers& layers) {
  return layers.contact_patches && c.hydroelastic_patch >= 0 &&
         c.hydroelastic_patch < static_cast<int>(s.hydroelastic.patches.size());
}

void PatchArrows(const Snapshot& s, const RenderLayers& layers, std::vector<PatchArrow>* arrows) {
  arrows->clear();
  const HydroelasticSnapshot& h = s.hydroelastic;
  auto add = [&](const Eigen::Vector3f& origin, const Eigen::Vector3f& v, Rgb8 color,
                 bool traction) {
    if (origin.allFinite() && v.allFinite() && v.squaredNorm() > 0) {
      arrows->push_back({origin, v, color, traction});
    }
  };
  const bool net = layers.contact_patches && (layers.normal_forces || layers.friction_forces);
  const int nf = h.num_faces();
  for (const PatchSnapshot& p : h.patches) {
    const float sign = PatchArrowSign(p);
    if (net) {
      const Eigen::Vector3f at = p.center_of_pressure_W.cast<float>();
      if (layers.normal_forces) {
        add(at, p.normal_force_W.cast<float>() * sign, kNormalForceColor, false);
      }
      if (layers.friction_forces) {
        add(at, p.friction_force_W.cast<float>() * sign, kFrictionForceColor, false);
      }
    }
    if (!layers.traction_arrows) continue;
    const int end = std::min(p.first_face + p.num_faces, nf);
    for (int f = std::max(p.first_face, 0); f < end; ++f) {
      if (f >= static_cast<int>(h.face_centroid_W.size()) ||
          f >= static_cast<int>(h.face_normal_traction_Pa.size()) ||
          f >= static_cast<int>(h.face_tangential_traction_Pa.size())) {
        break;
      }
      add(h.face_centroid_W[f], h.face_normal_traction_Pa[f] * sign, kNormalForceColor, true);
      add(h.face_centroid_W[f], h.face_tangential_traction_Pa[f] * sign, kFrictionForceColor, true);
    }
  }
}

PatchLayer::PatchLayer(const std::string& dir)
    : program_(dir + "/patch.vert", dir + "/patch.frag") {
  loc_ = {program_.Location("u_view_projection"), program_.Location("u_colormap"),
          program_.Location("u_pressure_min"),    program_.Location("u_inverse_range"),
          program_.Location("u_hatch_px"),        program_.Location("u_gap_alpha"),
          program_.Location("u_line_color")};
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &position_vbo_);
  glGenBuffers(1, &pressure_vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, position_vbo_);
  glEnableVertexAttribArray(GpuMesh::kPositionLocation);
  glVertexAttribPointer(GpuMesh::kPositionLocation, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, pressure_vbo_);
  glEnableVertexAttribArray(kPressureLocation);
  glVertexAttribPointer(kPressureLocation, 1, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  // The colour map as a 256 × 1 texture, linearly filtered between its entries.
  const auto table = PressureColorMapTable();
  glGenTextures(1, &colormap_texture_);
  glBindTexture(GL_TEXTURE_2D, colormap_texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 256, 1, 0, GL_RGB, GL_UNSIGNED_BYTE, table.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

PatchLayer::~PatchLayer() {
  glDeleteTextures(1, &colormap_texture_);
  glDeleteBuffers(1, &pressure_vbo_);
  glDeleteBuffers(1, &position_vbo_);
  glDeleteVertexArrays(1, &vao_);
}

int PatchLayer::Upload(const HydroelasticSnapshot& patches) {
  // Defensive against a partially filled snapshot: only corners with both arrays.
  const size_t n =
      std::min(patches.triangle_vertices_W.size(), patches.vertex_pressure_Pa.size()) / 3 * 3;
  num_vertices_ = static_cast<GLsizei>(n);
  if (n == 0) return 0;
  if (n > capacity_vertices_) {
    // Grow with headroom so that a patch gaining a few faces does not reallocate every frame.
    capacity_vertices_ = std::max<size_t>(n + n / 2, 3 * 256);
    glBindBuffer(GL_ARRAY_BUFFER, position_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity_vertices_ * 3 * sizeof(float)),
                 nullptr, GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, pressure_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity_vertices_ * sizeof(float)),
                 nullptr, GL_STREAM_DRAW);
  }
  glBindBuffer(GL_ARRAY_BUFFER, position_vbo_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * 3 * sizeof(float)),
                  patches.triangle_vertices_W.data());
  glBindBuffer(GL_ARRAY_BUFFER, pressure_vbo_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(float)),
                  patches.vertex_pressure_Pa.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return static_cast<int>(n / 3);
}

void PatchLayer::Draw(const Eigen::Matrix4f& view_projection, const PressureRange& range,
                      float hatch_px, float gap_alpha) const {
  if (num_vertices_ == 0) return;
  program_.Use();
  ShaderProgram::Set(loc_.view_projection, view_projection);
  ShaderProgram::Set(loc_.colormap, kColormapUnit);
  ShaderProgram::Set(loc_.pressure_min, range.min_Pa);
  // An empty range (no pressure anywhere) maps everything to the first colour.
  const float span = range.max_Pa - range.min_Pa;
  ShaderProgram::Set(loc_.inverse_range, span > 1e-20f && std::isfinite(span) ? 1.0f / span : 0.0f);
  ShaderProgram::Set(loc_.hatch_px, hatch_px);
  ShaderProgram::Set(loc_.gap_alpha, gap_alpha);
  ShaderProgram::Set(loc_.line_color, Eigen::Vector4f(0, 0, 0, 0));
  glActiveTexture(GL_TEXTURE0 + kColormapUnit);
  glBindTexture(GL_TEXTURE_2D, colormap_texture_);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, num_vertices_);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
}

void PatchLayer::DrawEdges(const Eigen::Matrix4f& view_projection, Rgb8 color) const {
  if (num_vertices_ == 0) return;
  program_.Use();
  ShaderProgram::Set(loc_.view_projection, view_projection);
  // Exact sRGB, as the colour map's: no lighting, the tests look for it in the pixels.
  ShaderProgram::Set(loc_.line_color,
                     Eigen::Vector4f(color.r / 255.0f, color.g / 255.0f, color.b / 255.0f, 1.0f));
  glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, num_vertices_);
  glBindVertexArray(0);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}

}  // namespace contactlab
