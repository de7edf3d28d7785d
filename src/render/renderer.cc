// Renderer (renderer.h). Render is the list of passes, in drawing order: the shadow map, then
// into the target framebuffer the ground, the opaque bodies, see-through static geometry,
// hydroelastic patches and the overlays (body frames, teleop gizmo, force arrows, contact
// points). Each pass is a member function of Renderer::Impl, which owns the GL resources.
#include "render/renderer.h"

#include <glad/gl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>

#include "render/body_colors.h"
#include "render/contact_colors.h"
#include "render/force_arrow_length.h"
#include "render/gpu_mesh.h"
#include "render/marker_sprites.h"
#include "render/overlay_batch.h"
#include "render/palette.h"
#include "render/patch_layer.h"
#include "render/primitive_meshes.h"
#include "render/rgb8.h"
#include "render/scene_target.h"
#include "render/shader_program.h"
#include "render/shadow_casters.h"
#include "render/shadow_map.h"
#include "render/shape_mesh_cache.h"
#include "render/transforms.h"
#include "render/vector_scaling.h"
#include "render/view_projection.h"

namespace contactlab {
namespace {

constexpr float kGroundHalfSize = 10.0f;  // the half-space quad is 20 m across
constexpr Rgb8 kBackground{46, 52, 62};
// How far (in shadow texels) a caster may move before its shadow map is drawn again: a quarter
// texel is under a millimetre at 1024² for the clutter's 3 m frustum, well inside the soft
// shadows' filter of 3 × 3 texels.
constexpr float kShadowReuseTexels = 0.25f;
// Towards the light: high, from behind-left of the default view, so shadows fall into view.
const Eigen::Vector3f kLightDirection = Eigen::Vector3f(-0.35f, 0.55f, 1.0f).normalized();
// Body frame axes: darker than the contact colours so they never pass for them.
constexpr Rgb8 kAxisColors[3] = {{215, 55, 55}, {60, 170, 60}, {60, 95, 225}};
// Screen-space minimum sizes so overlays stay visible when zoomed out.
constexpr float kMinMarkerRadiusPx = 3.5f;
constexpr float kMinShaftRadiusPx = 1.2f;
// A hydroelastic patch seen through its own bodies: stripes of the exact pressure colour with
// the body showing faintly between them (x-ray), so the patch reads as behind the surface.
constexpr float kPatchHatchPx = 3.0f;
constexpr float kPatchGapAlpha = 0.45f;

// The lit shader's albedo: an sRGB colour (0–1) in linear light, raised once per draw rather
// than by every pixel.
Eigen::Vector3f LinearAlbedo(const Eigen::Vector3f& srgb) {
  return srgb.array().max(0.0f).pow(2.2f).matrix();
}

// Radius of a sphere about the shape origin that contains the shape (0 for half-spaces).
float BoundingRadius(const Shape& s) {
  switch (s.type) {
    case ShapeType::kSphere:
      return static_cast<float>(s.radius_m);
    case ShapeType::kBox:
      return static_cast<float>(s.half_extents_m.norm());
    case ShapeType::kCylinder:
      return static_cast<float>(std::hypot(s.radius_m, 0.5 * s.length_m));
    case ShapeType::kCapsule:
      return static_cast<float>(s.radius_m + 0.5 * s.length_m);
    case ShapeType::kConvexMesh: {
      double r2 = 0.0;
      for (const Eigen::Vector3d& v : s.convex_mesh->vertices_G) r2 = std::max(r2, v.squaredNorm());
      return static_cast<float>(std::sqrt(r2));
    }
    case ShapeType::kHalfSpace:
      return 0.0f;
  }
  return 0.0f;
}

// Half extents of the box about the shape origin, in the shape frame, that holds the shape.
Eigen::Vector3f LocalHalfExtents(const Shape& s) {
  const float r = static_cast<float>(s.radius_m), l = static_cast<float>(0.5 * s.length_m);
  switch (s.type) {
    case ShapeType::kSphere:
      return Eigen::Vector3f::Constant(r);
    case ShapeType::kBox:
      return s.half_extents_m.cast<float>();
    case ShapeType::kCylinder:
      return Eigen::Vector3f(r, r, l);
    case ShapeType::kCapsule:
      return Eigen::Vector3f(r, r, l + r);
    case ShapeType::kConvexMesh: {
      const Aabb box = ComputeAabb(s, Eigen::Isometry3d::Identity(), 0.0);
      return box.lower.cwiseAbs().cwiseMax(box.upper.cwiseAbs()).cast<float>();
    }
    case ShapeType::kHalfSpace:
      break;
  }
  return Eigen::Vector3f::Zero();
}

// The layers' arrow style of each kind of contact vector (ArrowLength). The log references are
// where a gripper's contacts sit: 1 N, 1 kPa, 1 cm/s.
VectorStyle ForceStyle(const RenderLayers& l) {
  return {l.force_scale_m_per_N, 1.0f, l.force_threshold_N};
}
VectorStyle TractionStyle(const RenderLayers& l) {
  return {l.traction_scale_m_per_Pa, 1e3f, l.traction_threshold_Pa};
}
VectorStyle SlipStyle(const RenderLayers& l) {
  return {l.slip_scale_s, 0.01f, l.slip_threshold_m_per_s};
}

// Whether the segment a→b crosses the box |x| ≤ half (slab test).
bool SegmentHitsBox(const Eigen::Vector3f& a, const Eigen::Vector3f& b,
                    const Eigen::Vector3f& half) {
  float t0 = 0.0f, t1 = 1.0f;
  const Eigen::Vector3f d = b - a;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d[i]) < 1e-12f) {
      if (std::abs(a[i]) > half[i]) return false;
      continue;
    }
    float near_t = (-half[i] - a[i]) / d[i], far_t = (half[i] - a[i]) / d[i];
    if (near_t > far_t) std::swap(near_t, far_t);
    t0 = std::max(t0, near_t);
    t1 = std::min(t1, far_t);
    if (t0 > t1) return false;
  }
  return true;
}

}  // namespace

GroundQuadPlacement PlaceGroundQuad(const Eigen::Isometry3d& X_WG,
                                    const Eigen::Vector3f& camera_target) {
  const Eigen::Isometry3f X = X_WG.cast<float>();
  const Eigen::Vector3f target_G = X.inverse() * camera_target;
  GroundQuadPlacement p;
  p.center = Eigen::Vector2f(std::round(target_G.x()), std::round(target_G.y()));
  p.plane_from_mesh = Eigen::Matrix4f::Identity();
  p.plane_from_mesh.block<2, 1>(0, 3) = p.center;
  p.model = X.matrix() * p.plane_from_mesh;
  return p;
}

void SeeThroughGeometries(const Snapshot& snapshot, const Eigen::Vector3f& eye,
                          std::vector<char>* see_through) {
  const size_t ng = std::min(
      {snapshot.geometries.size(), snapshot.geometry_poses.size(), snapshot.geometry_body.size()});
  see_through->assign(snapshot.geometries.size(), 0);
  if (!snapshot.scene) return;
  const std::vector<SceneBody>& bodies = snapshot.scene->bodies;
  auto kind_of = [&](size_t g) {
    const int b = snapshot.geometry_body[g];
    return b >= 0 && b < static_cast<int>(bodies.size()) ? bodies[b].kind
                                                         : SceneBody::Kind::kKinematic;
  };
  for (size_t s = 0; s < ng; ++s) {
    const GeometrySpec* spec = snapshot.geometries[s];
    if (spec == nullptr || spec->shape.type == ShapeType::kHalfSpace ||
        kind_of(s) != SceneBody::Kind::kStatic) {
      continue;
    }
    const Eigen::Isometry3f X_GW = snapshot.geometry_poses[s].cast<float>().inverse();
    const Eigen::Vector3f half = LocalHalfExtents(spec->shape);
    const Eigen::Vector3f eye_G = X_GW * eye;
    for (size_t d = 0; d < ng && !(*see_through)[s]; ++d) {
      const GeometrySpec* dyn = snapshot.geometries[d];
      if (dyn == nullptr || dyn->shape.type == ShapeType::kHalfSpace ||
          kind_of(d) != SceneBody::Kind::kDynamic) {
        continue;
      }
      const Eigen::Vector3f centre_G =
          X_GW * snapshot.geometry_poses[d].translation().cast<float>();
      const Eigen::Vector3f grown = half.array() + 0.5f * BoundingRadius(dyn->shape);
      if (centre_G.allFinite() && SegmentHitsBox(eye_G, centre_G, grown)) (*see_through)[s] = 1;
    }
  }
}

struct Renderer::Impl {
  explicit Impl(const std::string& dir)
      : lit_soft(dir + "/lit.vert", dir + "/lit.frag"),
        lit_hard(dir + "/lit.vert", dir + "/lit.frag", "#define HARD_SHADOWS\n"),
        ground_soft(dir + "/lit.vert", dir + "/lit.frag", "#define GROUND\n"),
        ground_hard(dir + "/lit.vert", dir + "/lit.frag", "#define HARD_SHADOWS\n#define GROUND\n"),
        shadow(dir + "/shadow.vert", dir + "/shadow.frag"),
        overlay(dir + "/overlay.vert", dir + "/overlay.frag"),
        patch_layer(dir),
        shadow_map(quality.shadow_map_size),
        ground_quad(MakeQuadMesh(kGroundHalfSize)),
        markers(dir),
        // An arrow's shaft is a few pixels wide, and a software rasterizer sets up every
        // triangle of hundreds of them in the render thread: 6 and 8 facets instead of 12 and
        // 16 (with the markers' facets cut too, before they became sprites) took the clutter's
        // overlays from 1.6 to 0.8 ms a frame.
        arrow_shafts(MakeCylinderMesh(1.0f, 0.0f, 1.0f, 6)),
        arrow_heads(MakeConeMesh(1.0f, 1.0f, 8)) {
    lit_soft_loc = LitLocations(lit_soft);
    lit_hard_loc = LitLocations(lit_hard);
    ground_soft_loc = LitLocations(ground_soft);
    ground_hard_loc = LitLocations(ground_hard);
    shadow_loc = {shadow.Location("u_model"), shadow.Location("u_light_view_projection")};
    overlay_loc = {overlay.Location("u_view_projection"), overlay.Location("u_eye")};
  }

  void SyncScene(const Snapshot& s);
  int NumGeometries(const Snapshot& s) const;
  // World size of one pixel drawn at point p for the current view.
  float PixelSize(const Eigen::Vector3f& p) const {
    return (p - eye).norm() * pixel_size_per_metre;
  }
  // World size of one window pixel at p: the overlays' least sizes are in window pixels, so that
  // a 3-D view drawn at a scale below 1 (BeginScene) and stretched over the window shows them as
  // large as at full resolution, not 1 / scale times larger.
  float WindowPixel(const Eigen::Vector3f& p) const {
    return PixelSize(p) * drawn_px_per_window_px;
  }
  // The radius of a line `window_px` window pixels across, at least one drawn pixel across: a
  // thinner one would break up into dashes.
  float LineRadius(const Eigen::Vector3f& p, float window_px) const {
    return std::max(window_px * WindowPixel(p), 0.5f * PixelSize(p));
  }
  // Whether geometry g has a finite mesh (not a half-space).
  bool HasMesh(int g) const { return geometry_meshes[g][0] != nullptr; }
  // Geometry g's mesh as finely as a pixel (or shadow texel) of pixel_m [m] at it resolves its
  // curvature (primitive_meshes.h, detail levels).
  const GpuMesh& MeshFor(int g, float pixel_m) const {
    return *geometry_meshes[g][DetailLevelFor(geometry_radius[g] / std::max(pixel_m, 1e-9f))];
  }
  void DrawArrow(const Eigen::Vector3f& origin, const Eigen::Vector3f& vector, float shaft_radius,
                 Rgb8 color);

  struct LitUniforms {
    GLint model, normal_matrix, view_projection, light_view_projection, plane_from_mesh,
        normal_offset, albedo, light_direction, eye, shadow_map, shadows, shadow_texel, shadow_bias,
        grid, plane_center, fade_start, fade_end, background, alpha;
  };
  static LitUniforms LitLocations(const ShaderProgram& p) {
    return {p.Location("u_model"),
            p.Location("u_normal_matrix"),
            p.Location("u_view_projection"),
            p.Location("u_light_view_projection"),
            p.Location("u_plane_from_mesh"),
            p.Location("u_normal_offset"),
            p.Location("u_albedo"),
            p.Location("u_light_direction"),
            p.Location("u_eye"),
            p.Location("u_shadow_map"),
            p.Location("u_shadows"),
            p.Location("u_shadow_texel"),
            p.Location("u_shadow_bias"),
            p.Location("u_grid"),
            p.Location("u_plane_center"),
            p.Location("u_fade_start"),
            p.Location("u_fade_end"),
            p.Location("u_background"),
            p.Location("u_alpha")};
  }

  // lit.frag with soft shadows and with hard ones (RenderQuality::soft_shadows), for bodies and
  // for the ground; `lit`, `ground` and their locations are this frame's (BeginFrame).
  ShaderProgram lit_soft, lit_hard, ground_soft, ground_hard, shadow, overlay;
  LitUniforms lit_soft_loc, lit_hard_loc, ground_soft_loc, ground_hard_loc;
  const ShaderProgram* lit = &lit_soft;
  const ShaderProgram* ground = &ground_soft;
  LitUniforms lit_loc, ground_loc;
  struct {
    GLint model, light_view_projection;
  } shadow_loc;
  struct {
    GLint view_projection, eye;
  } overlay_loc;
  PatchLayer patch_layer;
  RenderQuality quality;
  SceneTarget scene_target;
  // The casters the shadow map shows, and its texel's size in the world [m] (ShadowPass).
  ShadowCasters shadow_casters;
  float shadow_texel_m = 0;
  int shadow_map_draws = 0;
  // The full view of this scene (BeginScene … EndScene) has its casters in the map: an inset
  // after it uses that map as it is (ShadowPass).
  bool scene_has_shadow_map = false;
  ShadowMap shadow_map;
  ShapeMeshCache shape_meshes;
  GpuMesh ground_quad;
  // The overlays, collected per frame (DrawOverlays): markers as sprites, arrows instanced.
  MarkerSprites markers;
  OverlayBatch arrow_shafts, arrow_heads;

  // Per scene (rebuilt when scene_generation changes).
  const SceneSpec* scene = nullptr;
  uint64_t scene_generation = 0;
  bool synced = false;
  std::vector<ShapeMeshLevels> geometry_meshes;  // per detail level; nullptr: half-space
  std::vector<float> geometry_radius;
  std::vector<Eigen::Vector3f> body_colors;  // sRGB 0–1 per scene body
  std::vector<float> body_frame_length;
  std::vector<const Shape*> shapes_scratch;
  std::vector<char> see_through;                 // per geometry, this frame
  std::vector<std::pair<float, int>> see_order;  // (−distance², geometry): far to near
  std::vector<char> patch_geometry;              // per geometry, this frame: in a patch's pair
  std::vector<char> patch_body;                  // per scene body, this frame: in a patch's pair
  // Visual geometry (SceneBody::visuals), uploaded per scene.
  struct Visual {
    int body = -1;
    Eigen::Isometry3d X_BV = Eigen::Isometry3d::Identity();
    std::optional<Eigen::Vector3f> color;  // the URDF material's, else the body's
    std::unique_ptr<GpuMesh> mesh;
    float radius_m = 0;  // of the mesh about the visual's frame
  };
  std::vector<Visual> visuals;
  std::vector<char> body_has_visuals;    // per scene body
  std::vector<PatchArrow> patch_arrows;  // this frame

  // Per frame.
  Eigen::Vector3f eye = Eigen::Vector3f::Zero();
  float pixel_size_per_metre = 0;
  float drawn_px_per_window_px = 1;  // the scene's scale between BeginScene and EndScene
  bool reported_gl_error = false;

  // What the passes of one Render call share: BeginFrame fills it; the passes add what they
  // decide for the later ones.
  struct Frame {
    const Snapshot& snapshot;
    const RenderLayers& layers;
    int width = 0, height = 0;
    int x = 0, y = 0;    // the viewport's lower left corner in the target framebuffer
    bool inset = false;  // a rectangle of the framebuffer (RenderInset): scissored
    int ng = 0;          // geometries drawn (NumGeometries)
    int nb = 0;          // bodies with both a pose and a colour (body frames)
    int nb_poses = 0;    // bodies with a pose (visual geometry)
    Eigen::Vector3f camera_target = Eigen::Vector3f::Zero();  // the followed body's origin if any
    Eigen::Matrix4f view_projection = Eigen::Matrix4f::Identity();
    GLint target_framebuffer = 0;  // bound on entry; the main pass draws into it again
    // Hydroelastic patches are drawn: their bodies mark the stencil (ClassifyGeometries).
    bool patches = false;
    int stencil_mark = 0;     // glStencilFunc's reference value in force
    bool shadows = false;     // the shadow map holds this frame's casters (ShadowPass)
    float normal_offset = 0;  // shadow lookups start this far out along the normal [m]
  };

  // Render and RenderInset: viewport = {x, y, width, height}; inset: scissored to it.
  void Draw(const Snapshot& snapshot, const Camera& camera, const RenderLayers& layers,
            const std::array<int, 4>& viewport, bool inset, const Snapshot* ghost);
  // The passes of Draw, in drawing order.
  Frame BeginFrame(const Snapshot& snapshot, const Camera& camera, const RenderLayers& layers,
                   int width, int height);
  void ClassifyGeometries(Frame* f);
  void ShadowPass(Frame* f);
  void CollectShadowCasters(const Frame& f);
  bool DrawShadowMap(const Frame& f);
  void BeginMainPass(Frame* f) const;
  void DrawGround(Frame* f) const;
  void DrawOpaqueBodies(Frame* f);
  void DrawSeeThroughStatic(Frame* f);
  void DrawGhost(const Frame& f, const Snapshot& ghost) const;
  void DrawPerturbation(const Frame& f);
  void DrawAlignment(const Frame& f);
  void EndMainPass() const;
  void DrawPatches(const Frame& f);
  void DrawOverlays(const Frame& f);
  void EndFrame();

  // The overlays (DrawOverlays), in drawing order.
  void DrawBodyFrames(const Frame& f);
  void DrawTeleopGizmo(const Frame& f);
  void DrawContactForces(const Frame& f);
  // A contact vector v (in style's unit) from origin_W as the layers scale it (ArrowLength);
  // nothing when it is below its threshold or would be shorter than two pixels (a blob over
  // the marker).
  void DrawVectorArrow(const Frame& f, const Eigen::Vector3f& origin_W, const Eigen::Vector3f& v,
                       const VectorStyle& style, float shaft_m, Rgb8 color);
  void DrawPatchArrows(const Frame& f);
  void DrawSlipArrows(const Frame& f);
  void DrawContactPoints(const Frame& f);

  // Whether geometry g belongs to a body drawn with its visual geometry instead.
  bool ReplacedByVisuals(const Frame& f, int g) const;
  // Sets the stencil value the next lit draws write (with patches on; see Frame::patches).
  void MarkStencil(Frame* f, int mark) const;
  Eigen::Vector3f BodyAlbedo(const Frame& f, int b, const Eigen::Vector3f& color) const;
  // Geometry g with the lit program, in its body's colour.
  void DrawLitGeometry(Frame* f, int g) const;
};

int Renderer::Impl::NumGeometries(const Snapshot& s) const {
  // Defensive against a partially filled snapshot: draw only what is consistent.
  const size_t n = std::min({s.geometries.size(), s.geometry_poses.size(), s.geometry_body.size(),
                             geometry_meshes.size()});
  return static_cast<int>(n);
}

void Renderer::Impl::SyncScene(const Snapshot& s) {
  if (synced && s.scene.get() == scene && s.scene_generation == scene_generation) return;
  scene = s.scene.get();
  scene_generation = s.scene_generation;
  synced = true;
  const size_t ng = s.geometries.size();
  shapes_scratch.assign(ng, nullptr);
  geometry_radius.assign(ng, 0.0f);
  for (size_t g = 0; g < ng; ++g) {
    if (s.geometries[g] == nullptr) continue;
    shapes_scratch[g] = &s.geometries[g]->shape;
    geometry_radius[g] = BoundingRadius(s.geometries[g]->shape);
  }
  shape_meshes.Rebuild(shapes_scratch, &geometry_meshes);

  const size_t nb = scene ? scene->bodies.size() : 0;
  body_colors.resize(nb);
  body_frame_length.assign(nb, 0.0f);
  for (size_t b = 0; b < nb; ++b) {
    const SceneBody& sb = scene->bodies[b];
    body_colors[b] = sb.color ? Eigen::Vector3f(sb.color->cast<float>())
                              : ToFloat(BodyColor(static_cast<int>(b), sb.kind));
  }
  for (size_t g = 0; g < ng && g < s.geometry_body.size(); ++g) {
    const int b = s.geometry_body[g];
    if (b < 0 || b >= static_cast<int>(nb) || s.geometries[g] == nullptr) continue;
    // Long enough to poke out of the body: its geometry's extent from the body origin.
    const float reach =
        static_cast<float>(s.geometries[g]->X_BG.translation().norm()) + geometry_radius[g];
    body_frame_length[b] = std::max(body_frame_length[b], 1.15f * reach);
  }
  for (float& length : body_frame_length) length = std::clamp(length, 0.05f, 0.5f);
  visuals.clear();
  body_has_visuals.assign(nb, 0);
  for (size_t b = 0; b < nb; ++b) {
    for (const VisualSpec& v : scene->bodies[b].visuals) {
      if (!v.mesh && v.shape.type == ShapeType::kHalfSpace) continue;
      Visual visual;
      visual.body = static_cast<int>(b);
      visual.X_BV = v.X_BV;
      if (v.rgba) visual.color = v.rgba->head<3>().cast<float>();
      const TriangleMesh mesh = MakeVisualMesh(v);
      for (const Eigen::Vector3f& p : mesh.positions) {
        visual.radius_m = std::max(visual.radius_m, p.norm());
      }
      visual.mesh = std::make_unique<GpuMesh>(mesh);
      visuals.push_back(std::move(visual));
      body_has_visuals[b] = 1;
    }
  }
  spdlog::debug("renderer: scene generation {} with {} geometries, {} shape meshes",
                scene_generation, ng, shape_meshes.size());
}

void Renderer::Impl::DrawArrow(const Eigen::Vector3f& origin, const Eigen::Vector3f& vector,
                               float shaft_radius, Rgb8 color) {
  const float length = vector.norm();
  if (!(length > 0) || !std::isfinite(length)) return;
  const Eigen::Vector3f direction = vector / length;
  // The head keeps its proportions to the shaft; short arrows are all head.
  const float head_length = std::min(length, 5.0f * shaft_radius);
  const float shaft_length = length - head_length;
  constexpr float kArrowShading = 0.4f;
  if (shaft_length > 0) {
    arrow_shafts.Add(AlongDirection(origin, direction, shaft_radius, shaft_length), ToFloat(color),
                     kArrowShading);
  }
  arrow_heads.Add(AlongDirection(origin + direction * shaft_length, direction, 2.2f * shaft_radius,
                                 head_length),
                  ToFloat(color), kArrowShading);
}

Renderer::Renderer(const std::string& shader_dir) : impl_(std::make_unique<Impl>(shader_dir)) {}

Renderer::~Renderer() = default;

int Renderer::num_shape_meshes() const { return impl_->shape_meshes.size(); }

int Renderer::num_shadow_map_draws() const { return impl_->shadow_map_draws; }

void Renderer::SetQuality(const RenderQuality& quality) { impl_->quality = quality; }

const RenderQuality& Renderer::quality() const { return impl_->quality; }

ViewportSize Renderer::BeginScene(int width, int height) {
  impl_->scene_has_shadow_map = false;
  const ViewportSize drawn = impl_->scene_target.Begin(width, height, impl_->quality.msaa_samples,
                                                       impl_->quality.scene_scale);
  impl_->drawn_px_per_window_px =
      height > 0 ? static_cast<float>(drawn.height) / static_cast<float>(height) : 1.0f;
  return drawn;
}

void Renderer::EndScene() {
  impl_->scene_target.End();
  impl_->scene_has_shadow_map = false;
  impl_->drawn_px_per_window_px = 1;
}

void Renderer::Render(const Snapshot& snapshot, const Camera& camera, const RenderLayers& layers,
                      int width, int height, const Snapshot* ghost) {
  impl_->Draw(snapshot, camera, layers, {0, 0, width, height}, false, ghost);
}

void Renderer::RenderInset(const Snapshot& snapshot, const Camera& camera,
                           const RenderLayers& layers, int x, int y, int width, int height,
                           const Snapshot* ghost) {
  impl_->Draw(snapshot, camera, layers, {x, y, width, height}, true, ghost);
}

void Renderer::Impl::Draw(const Snapshot& snapshot, const Camera& camera,
                          const RenderLayers& layers, const std::array<int, 4>& viewport,
                          bool inset, const Snapshot* ghost) {
  const auto [x, y, width, height] = viewport;
  if (width <= 0 || height <= 0) return;
  Impl& r = *this;
  r.SyncScene(snapshot);
  Impl::Frame f = r.BeginFrame(snapshot, camera, layers, width, height);
  f.x = x;
  f.y = y;
  f.inset = inset;
  r.ClassifyGeometries(&f);
  r.ShadowPass(&f);
  r.BeginMainPass(&f);
  if (layers.bodies || layers.grid) r.DrawGround(&f);
  if (layers.bodies) {
    r.DrawOpaqueBodies(&f);
    r.DrawSeeThroughStatic(&f);
    if (ghost && layers.ghost && ghost->scene_generation == snapshot.scene_generation) {
      r.DrawGhost(f, *ghost);
    }
  }
  r.EndMainPass();
  r.DrawPatches(f);
  r.DrawOverlays(f);
  r.EndFrame();
}

Renderer::Impl::Frame Renderer::Impl::BeginFrame(const Snapshot& snapshot, const Camera& camera_in,
                                                 const RenderLayers& layers, int width,
                                                 int height) {
  Frame f{snapshot, layers};
  lit = quality.soft_shadows ? &lit_soft : &lit_hard;
  lit_loc = quality.soft_shadows ? lit_soft_loc : lit_hard_loc;
  ground = quality.soft_shadows ? &ground_soft : &ground_hard;
  ground_loc = quality.soft_shadows ? ground_soft_loc : ground_hard_loc;
  f.width = width;
  f.height = height;
  f.ng = NumGeometries(snapshot);
  f.nb = static_cast<int>(std::min(snapshot.body_poses.size(), body_colors.size()));
  f.nb_poses = static_cast<int>(snapshot.body_poses.size());

  const Camera camera = CameraAsDrawn(camera_in, snapshot);
  f.camera_target = camera.target;
  const float aspect = static_cast<float>(width) / static_cast<float>(height);
  f.view_projection = camera.Projection(aspect) * camera.View();
  eye = camera.Eye();
  pixel_size_per_metre = 2.0f * std::tan(0.5f * camera.fov_y_rad) / static_cast<float>(height);

  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &f.target_framebuffer);
  // The UI (ImGui) leaves blending, scissor and culling in its own state; set what we rely on.
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_CULL_FACE);  // loaded meshes may have inconsistent winding
  glDisable(GL_STENCIL_TEST);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDepthMask(GL_TRUE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glEnable(GL_MULTISAMPLE);  // a no-op on single-sample framebuffers (e.g. llvmpipe fallback)
  return f;
}

// Per geometry, what this frame draws differently: static geometry hiding a dynamic body
// (see_through), and the geometries and bodies of hydroelastic patches (patch_geometry,
// patch_body).
void Renderer::Impl::ClassifyGeometries(Frame* f) {
  const Snapshot& snapshot = f->snapshot;
  const RenderLayers& layers = f->layers;
  // Static geometry hiding dynamic bodies: drawn see-through, casting no shadow (a ghost).
  if (layers.bodies && layers.see_through_static && layers.see_through_alpha < 1.0f) {
    SeeThroughGeometries(snapshot, eye, &see_through);
  } else {
    see_through.clear();
  }
  see_through.resize(std::max<size_t>(see_through.size(), f->ng), 0);
  // A hydroelastic patch lies inside the overlap of its two bodies (docs/contact-model.md §5), so
  // those bodies always hide it. They mark the stencil where they are the front surface, and
  // the patch is drawn through them there, while other bodies in front still hide it.
  f->patches = layers.contact_patches && !snapshot.hydroelastic.empty();
  MarkPatchGeometries(snapshot.hydroelastic, f->patches, f->ng, &patch_geometry);
  // Bodies drawn with visual geometry mark the stencil per body (their visuals are not
  // geometries).
  patch_body.assign(body_has_visuals.size(), 0);
  for (int g = 0; g < f->ng; ++g) {
    const int b = snapshot.geometry_body[g];
    if (patch_geometry[g] && b >= 0 && b < static_cast<int>(patch_body.size())) {
      patch_body[b] = 1;
    }
  }
}

// The shadow map for this frame: the map of an earlier frame while it shows every caster within
// a fraction of a texel (render/shadow_casters.h), else drawn again. An inset after the full
// view takes the full view's map as it is: the light's view does not depend on the camera, and
// the casters seen see-through from the inset's camera (SeeThroughGeometries) would otherwise
// make a map of their own, drawn again for the full view in the next frame — two shadow passes
// a frame.
void Renderer::Impl::ShadowPass(Frame* f) {
  f->normal_offset = 0;
  f->shadows = false;
  if (!f->inset) scene_has_shadow_map = false;
  if (!f->layers.shadows || !f->layers.bodies) return;
  if (f->inset && scene_has_shadow_map) {
    f->shadows = true;
    f->normal_offset = 1.5f * shadow_texel_m;
    return;
  }
  CollectShadowCasters(*f);
  const ShadowMapInputs inputs{scene, scene_generation, quality.shadow_map_size,
                               f->layers.visual_geometry};
  if (!shadow_casters.ShownByDrawnMap(inputs, kShadowReuseTexels * shadow_texel_m)) {
    if (!DrawShadowMap(*f)) return;
    shadow_casters.Remember(inputs);
  }
  if (!f->inset) scene_has_shadow_map = true;
  f->shadows = true;
  f->normal_offset = 1.5f * shadow_texel_m;
}

// Depth from the light into shadow_map, the light frustum fitted around the bounded geometry.
// See-through geometry casts no shadow. False when nothing is bounded (no map).
bool Renderer::Impl::DrawShadowMap(const Frame& f) {
  const Snapshot& snapshot = f.snapshot;
  Eigen::Vector3f lower_W = Eigen::Vector3f::Constant(INFINITY);
  Eigen::Vector3f upper_W = Eigen::Vector3f::Constant(-INFINITY);
  for (int g = 0; g < f.ng; ++g) {
    if (!HasMesh(g)) continue;
    const Eigen::Vector3f p_WGo = snapshot.geometry_poses[g].translation().cast<float>();
    lower_W = lower_W.cwiseMin(p_WGo - Eigen::Vector3f::Constant(geometry_radius[g]));
    upper_W = upper_W.cwiseMax(p_WGo + Eigen::Vector3f::Constant(geometry_radius[g]));
  }
  const bool any_bounded = lower_W.x() <= upper_W.x() && lower_W.allFinite() && upper_W.allFinite();
  if (!any_bounded) {
    shadow_casters.Forget();
    return false;
  }
  shadow_map.Resize(quality.shadow_map_size);
  const float radius = std::clamp(0.5f * (upper_W - lower_W).norm(), 0.25f, 15.0f);
  shadow_map.Fit(-kLightDirection, 0.5f * (lower_W + upper_W), radius);
  shadow_texel_m = 2.0f * radius / static_cast<float>(shadow_map.size());
  ++shadow_map_draws;
  shadow_map.BeginPass();
  shadow.Use();
  ShaderProgram::Set(shadow_loc.light_view_projection, shadow_map.light_view_projection());
  // Slope-scaled offset pushes the casters' depth back a little against acne.
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(1.5f, 2.0f);
  for (int g = 0; g < f.ng; ++g) {
    if (!HasMesh(g) || see_through[g] || ReplacedByVisuals(f, g)) continue;
    ShaderProgram::Set(shadow_loc.model, ToMatrix(snapshot.geometry_poses[g]));
    MeshFor(g, shadow_texel_m).Draw();
  }
  if (f.layers.visual_geometry) {
    for (const Visual& v : visuals) {
      if (v.body >= f.nb_poses) continue;
      ShaderProgram::Set(shadow_loc.model, ToMatrix(snapshot.body_poses[v.body] * v.X_BV));
      v.mesh->Draw();
    }
  }
  glDisable(GL_POLYGON_OFFSET_FILL);
  return true;
}

// Every bounded geometry (the frustum is fitted to them all; id 2g + 1 for a caster, 2g for
// see-through or replaced geometry) and, with visual geometry on, every visual (id −1 − v).
void Renderer::Impl::CollectShadowCasters(const Frame& f) {
  shadow_casters.Clear();
  for (int g = 0; g < f.ng; ++g) {
    if (!HasMesh(g)) continue;
    const bool casts = !see_through[g] && !ReplacedByVisuals(f, g);
    const bool round = f.snapshot.geometries[g]->shape.type == ShapeType::kSphere;
    shadow_casters.Add(2 * g + (casts ? 1 : 0), f.snapshot.geometry_poses[g],
                       round ? 0.0f : geometry_radius[g]);
  }
  if (!f.layers.visual_geometry) return;
  for (size_t v = 0; v < visuals.size(); ++v) {
    if (visuals[v].body >= f.nb_poses) continue;
    shadow_casters.Add(-1 - static_cast<int>(v),
                       f.snapshot.body_poses[visuals[v].body] * visuals[v].X_BV,
                       visuals[v].radius_m);
  }
}

// Back to the target framebuffer, cleared, with the stencil set up for the patches and the lit
// program ready to draw (shadow map on texture unit 0, until EndMainPass).
void Renderer::Impl::BeginMainPass(Frame* f) const {
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(f->target_framebuffer));
  glViewport(f->x, f->y, f->width, f->height);
  if (f->inset) {  // the clears below (and the overlays' depth clear) stay inside the inset
    glEnable(GL_SCISSOR_TEST);
    glScissor(f->x, f->y, f->width, f->height);
  }
  const Eigen::Vector3f background = ToFloat(kBackground);
  glClearColor(background.x(), background.y(), background.z(), 1.0f);
  glClearDepth(1.0);
  glClearStencil(0);
  glStencilMask(0xFF);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  if (f->patches) {
    glEnable(GL_STENCIL_TEST);
    glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);  // the front surface's mark wins
    glStencilFunc(GL_ALWAYS, f->stencil_mark, 0xFF);
  }

  // The ground's program, then the bodies', which stays in use.
  for (const auto& [program, loc] : {std::pair{ground, &ground_loc}, std::pair{lit, &lit_loc}}) {
    program->Use();
    ShaderProgram::Set(loc->view_projection, f->view_projection);
    ShaderProgram::Set(loc->light_view_projection, shadow_map.light_view_projection());
    ShaderProgram::Set(loc->normal_offset, f->normal_offset);
    ShaderProgram::Set(loc->light_direction, kLightDirection);
    ShaderProgram::Set(loc->eye, eye);
    ShaderProgram::Set(loc->shadows, f->shadows ? 1 : 0);
    ShaderProgram::Set(loc->shadow_texel, 1.0f / static_cast<float>(shadow_map.size()));
    ShaderProgram::Set(loc->shadow_bias, 0.5f * f->normal_offset * shadow_map.depth_per_metre());
    ShaderProgram::Set(loc->background, background);
    ShaderProgram::Set(loc->alpha, 1.0f);
    ShaderProgram::Set(loc->fade_start, 0.55f * kGroundHalfSize);
    ShaderProgram::Set(loc->fade_end, 0.95f * kGroundHalfSize);
    ShaderProgram::Set(loc->shadow_map, 0);
  }
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, shadow_map.texture());
}

// Half-spaces as a floor quad with the grid (layers.grid) and the distance fade, with the
// ground's program; the bodies' in use again after.
void Renderer::Impl::DrawGround(Frame* f) const {
  const Snapshot& snapshot = f->snapshot;
  ground->Use();
  ShaderProgram::Set(ground_loc.grid, f->layers.grid ? 1 : 0);
  ShaderProgram::Set(ground_loc.albedo, LinearAlbedo(ToFloat(GroundColor())));
  for (int g = 0; g < f->ng; ++g) {
    if (HasMesh(g) || snapshot.geometries[g] == nullptr) continue;
    // The plane in the half-space's own pose (tilted ramps too), centred under the camera
    // target, giving an apparently endless floor.
    const Eigen::Isometry3f X_WG = snapshot.geometry_poses[g].cast<float>();
    const GroundQuadPlacement quad = PlaceGroundQuad(snapshot.geometry_poses[g], f->camera_target);
    ShaderProgram::Set(ground_loc.plane_from_mesh, quad.plane_from_mesh);
    ShaderProgram::Set(ground_loc.plane_center, quad.center);
    ShaderProgram::Set(ground_loc.model, quad.model);
    ShaderProgram::Set(ground_loc.normal_matrix, Eigen::Matrix3f(X_WG.linear()));
    // Nudge the floor back in depth so bodies lying exactly on it never z-fight with it.
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    MarkStencil(f, patch_geometry[g]);
    ground_quad.Draw();
    glDisable(GL_POLYGON_OFFSET_FILL);
  }
  lit->Use();
}

// Visual geometry, then every bounded geometry not replaced by it; see-through geometry is
// only queued (see_order) for DrawSeeThroughStatic.
void Renderer::Impl::DrawOpaqueBodies(Frame* f) {
  const Snapshot& snapshot = f->snapshot;
  see_order.clear();
  if (f->layers.visual_geometry) {
    for (const Visual& v : visuals) {
      if (v.body >= f->nb_poses) continue;
      MarkStencil(f, patch_body[v.body]);
      const Eigen::Isometry3d X_WV = snapshot.body_poses[v.body] * v.X_BV;
      ShaderProgram::Set(lit_loc.model, ToMatrix(X_WV));
      ShaderProgram::Set(lit_loc.normal_matrix, Eigen::Matrix3f(X_WV.linear().cast<float>()));
      ShaderProgram::Set(
          lit_loc.albedo,
          LinearAlbedo(BodyAlbedo(*f, v.body, v.color ? *v.color : body_colors[v.body])));
      v.mesh->Draw();
    }
  }
  for (int g = 0; g < f->ng; ++g) {
    if (!HasMesh(g) || ReplacedByVisuals(*f, g)) continue;
    if (see_through[g]) {
      const Eigen::Vector3f p_WGo = snapshot.geometry_poses[g].translation().cast<float>();
      see_order.emplace_back(-(p_WGo - eye).squaredNorm(), g);
      continue;
    }
    DrawLitGeometry(f, g);
  }
}

// The queued see-through geometry, blended after everything opaque, far to near. Per geometry,
// a depth-only pass first so that only its nearest surface is blended (one layer per wall,
// whatever the winding).
void Renderer::Impl::DrawSeeThroughStatic(Frame* f) {
  if (see_order.empty()) return;
  std::sort(see_order.begin(), see_order.end());
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  ShaderProgram::Set(lit_loc.alpha, std::clamp(f->layers.see_through_alpha, 0.0f, 1.0f));
  glStencilMask(0x00);  // see-through: the marks of what is behind stay
  for (const auto& [key, g] : see_order) {
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    DrawLitGeometry(f, g);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    DrawLitGeometry(f, g);
  }
  glDepthMask(GL_TRUE);
  glDepthFunc(GL_LESS);
  glDisable(GL_BLEND);
  glStencilMask(0xFF);
  ShaderProgram::Set(lit_loc.alpha, 1.0f);
}

// The ghost's dynamic bodies in one tint, blended over the scene without writing depth, so
// that where it overlaps the main run both stay visible.
void Renderer::Impl::DrawGhost(const Frame& f, const Snapshot& ghost) const {
  const int ng = std::min(f.ng, static_cast<int>(ghost.geometry_poses.size()));
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  glDepthMask(GL_FALSE);
  glStencilMask(0x00);
  ShaderProgram::Set(lit_loc.alpha, std::clamp(f.layers.ghost_alpha, 0.0f, 1.0f));
  ShaderProgram::Set(lit_loc.albedo, LinearAlbedo(ToFloat(kGhostColor)));
  for (int g = 0; g < ng; ++g) {
    const int b = ghost.geometry_body[g];
    if (!HasMesh(g) || b < 0 || ghost.scene->bodies[b].kind != SceneBody::Kind::kDynamic) {
      continue;
    }
    const Eigen::Isometry3d& X_WG = ghost.geometry_poses[g];
    ShaderProgram::Set(lit_loc.model, ToMatrix(X_WG));
    ShaderProgram::Set(lit_loc.normal_matrix, Eigen::Matrix3f(X_WG.linear().cast<float>()));
    MeshFor(g, PixelSize(X_WG.translation().cast<float>())).Draw();
  }
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
  glStencilMask(0xFF);
  ShaderProgram::Set(lit_loc.alpha, 1.0f);
}

// The peg's axis down to where it meets the block's top, a marker there, and the hole's rim:
// thin lines a few pixels wide whatever the zoom.
void Renderer::Impl::DrawAlignment(const Frame& f) {
  const AlignmentView& view = f.snapshot.alignment;
  if (!view.active) return;
  constexpr float kLineWidthPx = 1.2f;
  const auto line = [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b, Rgb8 color) {
    const Eigen::Vector3f from = a.cast<float>(), to = b.cast<float>();
    const float length = (to - from).norm();
    if (!(length > 0)) return;
    arrow_shafts.Add(
        AlongDirection(from, (to - from) / length, LineRadius(from, kLineWidthPx), length),
        ToFloat(color), 0.0f);
  };
  const RimPolygon& rim = view.hole_outline_W;
  for (int i = 0; i < rim.size; ++i) {
    line(rim.points_W[i], rim.points_W[(i + 1) % rim.size], kHoleOutlineColor);
  }
  const PegAlignment& a = view.alignment;
  if (!a.landing_point_W || a.height_above_hole_m <= 0) return;  // in the hole: nothing to aim
  const Eigen::Vector3d& land = *a.landing_point_W;
  const Rgb8 color = a.landing_in_footprint ? kAlignedColor : kMisalignedColor;
  line(a.axis_bottom_W, land, color);
  const Eigen::Vector3f p = land.cast<float>();
  markers.Add(p, 4.0f * WindowPixel(p), ToFloat(color));
}

// The mouse spring: from the grabbed point to the mouse point.
void Renderer::Impl::DrawPerturbation(const Frame& f) {
  const PerturbationView& p = f.snapshot.perturbation;
  if (p.body < 0) return;
  const Eigen::Vector3f from = p.p_WQ.cast<float>();
  DrawArrow(from, (p.target_W - p.p_WQ).cast<float>(), LineRadius(from, 1.5f), kPerturbationColor);
}

void Renderer::Impl::EndMainPass() const { glBindTexture(GL_TEXTURE_2D, 0); }

// Hydroelastic patches, coloured by pressure: after the bodies (whose stencil marks they
// need), before the overlays.
void Renderer::Impl::DrawPatches(const Frame& f) {
  if (f.patches && patch_layer.Upload(f.snapshot.hydroelastic) > 0) {
    const PressureRange range = EffectivePressureRange(f.layers, f.snapshot.hydroelastic);
    glStencilMask(0x00);
    glDepthMask(GL_FALSE);
    // Where one of a patch's own bodies is in front: through it. (Without a stencil buffer the
    // test always passes, and patches are drawn over everything: still visible.)
    glStencilFunc(GL_EQUAL, 1, 0xFF);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    patch_layer.Draw(f.view_projection, range, kPatchHatchPx, kPatchGapAlpha);
    if (f.layers.patch_wireframe) patch_layer.DrawEdges(f.view_projection, kPatchEdgeColor);
    glDisable(GL_BLEND);
    // Elsewhere depth-tested, nudged towards the camera so it never z-fights with the surface
    // it lies on (e.g. the floor, itself nudged back).
    glStencilFunc(GL_EQUAL, 0, 0xFF);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(-1.0f, -2.0f);
    patch_layer.Draw(f.view_projection, range, 0.0f, 1.0f);
    if (f.layers.patch_wireframe) {
      glEnable(GL_POLYGON_OFFSET_LINE);
      patch_layer.DrawEdges(f.view_projection, kPatchEdgeColor);
      glDisable(GL_POLYGON_OFFSET_LINE);
    }
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glStencilMask(0xFF);
  }
  glDisable(GL_STENCIL_TEST);  // the patches were the stencil marks' only reader
}

// Over the bodies (fresh depth), but depth-tested among themselves.
void Renderer::Impl::DrawOverlays(const Frame& f) {
  const RenderLayers& layers = f.layers;
  const bool teleop_gizmo = layers.teleop_target && f.snapshot.teleop.active;
  const bool any_overlay = layers.body_frames || layers.contact_points || layers.normal_forces ||
                           layers.friction_forces || teleop_gizmo || layers.traction_arrows ||
                           layers.slip_arrows || f.snapshot.perturbation.body >= 0 ||
                           (layers.alignment && f.snapshot.alignment.active);
  if (!any_overlay) return;
  glClear(GL_DEPTH_BUFFER_BIT);
  overlay.Use();
  ShaderProgram::Set(overlay_loc.view_projection, f.view_projection);
  ShaderProgram::Set(overlay_loc.eye, eye);
  if (layers.body_frames) DrawBodyFrames(f);
  if (teleop_gizmo) DrawTeleopGizmo(f);
  DrawPerturbation(f);
  if (layers.alignment) DrawAlignment(f);
  DrawContactForces(f);
  DrawPatchArrows(f);
  if (layers.slip_arrows) DrawSlipArrows(f);
  if (layers.contact_points) DrawContactPoints(f);
  // Closed meshes of our own, wound counter-clockwise seen from outside: their back faces are
  // hidden, and culling them halves what the rasterizer sets up.
  glEnable(GL_CULL_FACE);
  arrow_shafts.Draw();
  arrow_heads.Draw();
  glDisable(GL_CULL_FACE);
  // Last, so that the exact state colours land in the pixels.
  markers.Draw(f.view_projection, eye, 1.0f / pixel_size_per_metre);
}

void Renderer::Impl::EndFrame() {
  glDisable(GL_SCISSOR_TEST);
  glBindVertexArray(0);
  glUseProgram(0);
  const GLenum error = glGetError();
  if (error != GL_NO_ERROR && !reported_gl_error) {
    reported_gl_error = true;  // once: a per-frame log line would flood at 60 Hz
    spdlog::warn("renderer: OpenGL error 0x{:x} during a frame", static_cast<unsigned>(error));
  }
}

// Each body's frame B as x, y, z arrows (red, green, blue) from its origin.
void Renderer::Impl::DrawBodyFrames(const Frame& f) {
  for (int b = 0; b < f.nb; ++b) {
    const Eigen::Isometry3f X_WB = f.snapshot.body_poses[b].cast<float>();
    const Eigen::Vector3f p_WBo = X_WB.translation();
    const float length = body_frame_length[b];
    const float shaft = std::max(0.025f * length, LineRadius(p_WBo, kMinShaftRadiusPx));
    for (int axis = 0; axis < 3; ++axis) {
      DrawArrow(p_WBo, X_WB.linear().col(axis) * length, shaft, kAxisColors[axis]);
    }
  }
}

// Where the operator is steering (the integrated command) and where the TCP is: the gap
// between them is what the arm has not caught up with (limits, contact).
void Renderer::Impl::DrawTeleopGizmo(const Frame& f) {
  const Eigen::Isometry3f X_WT = f.snapshot.teleop.target_tcp_W.cast<float>();
  const Eigen::Vector3f p_WTo = X_WT.translation();
  constexpr float kAxisLength_m = 0.06f;
  const float shaft = std::max(0.02f * kAxisLength_m, LineRadius(p_WTo, kMinShaftRadiusPx));
  for (int axis = 0; axis < 3; ++axis) {
    DrawArrow(p_WTo, X_WT.linear().col(axis) * kAxisLength_m, shaft, kAxisColors[axis]);
  }
  const Eigen::Vector3f p_WTcp = f.snapshot.teleop.tcp_W.translation().cast<float>();
  markers.Add(p_WTcp, std::max(0.004f, kMinMarkerRadiusPx * WindowPixel(p_WTcp)),
              ToFloat(kTeleopTcpColor));
}

void Renderer::Impl::DrawVectorArrow(const Frame& f, const Eigen::Vector3f& origin_W,
                                     const Eigen::Vector3f& v, const VectorStyle& style,
                                     float shaft_m, Rgb8 color) {
  const float magnitude = v.norm();
  // A drawn pixel times the drawn height: the view's height there, at any scene scale.
  const float length =
      ArrowLength(magnitude, style, f.layers.vector_scaling,
                  f.layers.fixed_arrow_length_px * WindowPixel(origin_W),
                  MaxForceArrowLength(PixelSize(origin_W), static_cast<float>(f.height)));
  if (!(length > 2.0f * WindowPixel(origin_W))) return;
  DrawArrow(origin_W, v * (length / magnitude), shaft_m, color);
}

// Normal and friction force on geometry B at each point contact (not the faces of a patch the
// patch layer draws: DrawPatchArrows).
void Renderer::Impl::DrawContactForces(const Frame& f) {
  const RenderLayers& layers = f.layers;
  const VectorStyle style = ForceStyle(layers);
  for (const ContactResult& c : f.snapshot.contacts) {
    const Eigen::Vector3f p_WC = c.position_W.cast<float>();
    if (!p_WC.allFinite() || ShownAsPatch(c, f.snapshot, layers)) continue;
    const float shaft =
        std::max(0.15f * layers.contact_point_size_m, LineRadius(p_WC, kMinShaftRadiusPx));
    if (layers.normal_forces) {
      DrawVectorArrow(f, p_WC, c.normal_force_W.cast<float>(), style, shaft, kNormalForceColor);
    }
    if (layers.friction_forces) {
      DrawVectorArrow(f, p_WC, c.friction_force_W.cast<float>(), style, shaft, kFrictionForceColor);
    }
  }
}

// Patches: net force at the centre of pressure, traction per face (PatchArrows).
void Renderer::Impl::DrawPatchArrows(const Frame& f) {
  const RenderLayers& layers = f.layers;
  PatchArrows(f.snapshot, layers, &patch_arrows);
  const VectorStyle force = ForceStyle(layers), traction = TractionStyle(layers);
  for (const PatchArrow& a : patch_arrows) {
    const float shaft_m = std::max(
        a.traction ? 0.05f * layers.contact_point_size_m : 0.15f * layers.contact_point_size_m,
        LineRadius(a.origin_W, kMinShaftRadiusPx));
    DrawVectorArrow(f, a.origin_W, a.vector, a.traction ? traction : force, shaft_m, a.color);
  }
}

// Each pressed contact's slip velocity, B's relative to A's (on a patch's face set the later
// geometry's, as PatchArrowSign has the patch's forces), thin like traction arrows. Separating
// and margin contacts have no friction to show the slip of.
void Renderer::Impl::DrawSlipArrows(const Frame& f) {
  const VectorStyle style = SlipStyle(f.layers);
  for (const ContactResult& c : f.snapshot.contacts) {
    if (c.state != ContactResult::State::kStick && c.state != ContactResult::State::kSlip) continue;
    const Eigen::Vector3f p_WC = c.position_W.cast<float>();
    if (!p_WC.allFinite()) continue;
    const float sign = c.geometry_b >= c.geometry_a ? 1.0f : -1.0f;
    const float shaft =
        std::max(0.08f * f.layers.contact_point_size_m, LineRadius(p_WC, kMinShaftRadiusPx));
    DrawVectorArrow(f, p_WC, c.slip_velocity_W.cast<float>() * sign, style, shaft,
                    kSlipVelocityColor);
  }
}

// A marker per point contact in its state's colour (or its gliding offset's or slip speed's:
// RenderLayers::contact_colors), a flat disc (MarkerSprites) so that the exact colour lands in the
// pixels (the GUI tests look for it).
void Renderer::Impl::DrawContactPoints(const Frame& f) {
  const RenderLayers& layers = f.layers;
  for (const ContactResult& c : f.snapshot.contacts) {
    const Eigen::Vector3f p_WC = c.position_W.cast<float>();
    if (!p_WC.allFinite() || ShownAsPatch(c, f.snapshot, layers)) continue;
    const float radius =
        std::max(0.5f * layers.contact_point_size_m, kMinMarkerRadiusPx * WindowPixel(p_WC));
    markers.Add(p_WC, radius,
                ToFloat(ContactColor(c, layers.contact_colors, layers.contact_color_max)));
  }
}

bool Renderer::Impl::ReplacedByVisuals(const Frame& f, int g) const {
  const int b = f.snapshot.geometry_body[g];
  return f.layers.visual_geometry && b >= 0 && b < static_cast<int>(body_has_visuals.size()) &&
         body_has_visuals[b];
}

// A body's colour, tinted by its share of the step's error under error control
// (RenderLayers::step_error, docs/contact-model.md §1.2).
Eigen::Vector3f Renderer::Impl::BodyAlbedo(const Frame& f, int b,
                                           const Eigen::Vector3f& color) const {
  // The step's estimate is the largest of the bodies' (World::StepError).
  const std::vector<double>& errors = f.snapshot.position_error_by_body;
  const double largest = f.snapshot.stats.error_estimate;
  if (!f.layers.step_error || !(largest > 0) || b < 0 || b >= static_cast<int>(errors.size())) {
    return color;
  }
  return StepErrorTint(color, static_cast<float>(errors[b] / largest));
}

void Renderer::Impl::MarkStencil(Frame* f, int mark) const {
  // Only when it changes: most consecutive draws carry the same mark.
  if (f->patches && mark != f->stencil_mark) glStencilFunc(GL_ALWAYS, mark, 0xFF);
  f->stencil_mark = mark;
}

void Renderer::Impl::DrawLitGeometry(Frame* f, int g) const {
  const int b = f->snapshot.geometry_body[g];
  const Eigen::Vector3f color = (b >= 0 && b < static_cast<int>(body_colors.size()))
                                    ? body_colors[b]
                                    : ToFloat(BodyColor(0, SceneBody::Kind::kStatic));
  const Eigen::Isometry3d& X_WG = f->snapshot.geometry_poses[g];
  ShaderProgram::Set(lit_loc.model, ToMatrix(X_WG));
  ShaderProgram::Set(lit_loc.normal_matrix, Eigen::Matrix3f(X_WG.linear().cast<float>()));
  ShaderProgram::Set(lit_loc.albedo, LinearAlbedo(BodyAlbedo(*f, b, color)));
  MarkStencil(f, patch_geometry[g]);
  MeshFor(g, PixelSize(X_WG.translation().cast<float>())).Draw();
}

std::vector<uint8_t> Renderer::ReadPixels(int width, int height) const {
  if (width <= 0 || height <= 0) return {};
  const size_t row = static_cast<size_t>(width) * 4;
  std::vector<uint8_t> pixels(row * static_cast<size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // GL's rows run bottom to top; images run top to bottom.
  std::vector<uint8_t> swap(row);
  for (int y = 0; y < height / 2; ++y) {
    uint8_t* a = pixels.data() + static_cast<size_t>(y) * row;
    uint8_t* b = pixels.data() + static_cast<size_t>(height - 1 - y) * row;
    std::copy(a, a + row, swap.data());
    std::copy(b, b + row, a);
    std::copy(swap.data(), swap.data() + row, b);
  }
  // Screenshots are opaque whatever alpha the framebuffer (or the UI's blending) left.
  for (size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;
  return pixels;
}

}  // namespace contactlab
