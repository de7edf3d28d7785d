// Renderer (renderer.h): shadow pass, lit bodies and ground, then the contact overlays.
#include "render/renderer.h"

#include <glad/gl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "render/body_colors.h"
#include "render/gpu_mesh.h"
#include "render/patch_layer.h"
#include "render/primitive_meshes.h"
#include "render/shader_program.h"
#include "render/shadow_map.h"
#include "render/shape_mesh_cache.h"
#include "render/transforms.h"

namespace contactlab {
namespace {

constexpr int kShadowMapSize = 1024;      // 2048 cost llvmpipe ~15 ms a frame for little gain
constexpr float kGroundHalfSize = 10.0f;  // the half-space quad is 20 m across
constexpr Rgb8 kBackground{46, 52, 62};
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
      : lit(dir + "/lit.vert", dir + "/lit.frag"),
        shadow(dir + "/shadow.vert", dir + "/shadow.frag"),
        overlay(dir + "/overlay.vert", dir + "/overlay.frag"),
        patch_layer(dir),
        shadow_map(kShadowMapSize),
        ground_quad(MakeQuadMesh(kGroundHalfSize)),
        marker(MakeSphereMesh(1.0f, 16, 10)),
        arrow_shaft(MakeCylinderMesh(1.0f, 0.0f, 1.0f, 12)),
        arrow_head(MakeConeMesh(1.0f, 1.0f, 16)) {
    lit_loc = {lit.Location("u_model"),
               lit.Location("u_normal_matrix"),
               lit.Location("u_view_projection"),
               lit.Location("u_light_view_projection"),
               lit.Location("u_plane_from_mesh"),
               lit.Location("u_normal_offset"),
               lit.Location("u_color"),
               lit.Location("u_light_direction"),
               lit.Location("u_eye"),
               lit.Location("u_shadow_map"),
               lit.Location("u_shadows"),
               lit.Location("u_shadow_texel"),
               lit.Location("u_shadow_bias"),
               lit.Location("u_ground"),
               lit.Location("u_grid"),
               lit.Location("u_plane_center"),
               lit.Location("u_fade_start"),
               lit.Location("u_fade_end"),
               lit.Location("u_background"),
               lit.Location("u_alpha")};
    shadow_loc = {shadow.Location("u_model"), shadow.Location("u_light_view_projection")};
    overlay_loc = {overlay.Location("u_model"),           overlay.Location("u_normal_matrix"),
                   overlay.Location("u_view_projection"), overlay.Location("u_color"),
                   overlay.Location("u_shading"),         overlay.Location("u_eye")};
  }

  void SyncScene(const Snapshot& s);
  int NumGeometries(const Snapshot& s) const;
  // World size of one pixel at point p for the current view.
  float PixelSize(const Eigen::Vector3f& p) const {
    return (p - eye).norm() * pixel_size_per_metre;
  }
  void DrawOverlay(const GpuMesh& mesh, const Eigen::Matrix4f& model, Rgb8 color,
                   float shading) const;
  void DrawArrow(const Eigen::Vector3f& origin, const Eigen::Vector3f& vector, float shaft_radius,
                 Rgb8 color) const;

  ShaderProgram lit, shadow, overlay;
  struct {
    GLint model, normal_matrix, view_projection, light_view_projection, plane_from_mesh,
        normal_offset, color, light_direction, eye, shadow_map, shadows, shadow_texel, shadow_bias,
        ground, grid, plane_center, fade_start, fade_end, background, alpha;
  } lit_loc;
  struct {
    GLint model, light_view_projection;
  } shadow_loc;
  struct {
    GLint model, normal_matrix, view_projection, color, shading, eye;
  } overlay_loc;
  PatchLayer patch_layer;
  ShadowMap shadow_map;
  ShapeMeshCache shape_meshes;
  GpuMesh ground_quad, marker, arrow_shaft, arrow_head;

  // Per scene (rebuilt when scene_generation changes).
  const SceneSpec* scene = nullptr;
  uint64_t scene_generation = 0;
  bool synced = false;
  std::vector<const GpuMesh*> geometry_meshes;  // nullptr: half-space
  std::vector<float> geometry_radius;
  std::vector<Eigen::Vector3f> body_colors;  // sRGB 0–1 per scene body
  std::vector<float> body_frame_length;
  std::vector<const Shape*> shapes_scratch;
  std::vector<char> see_through;                 // per geometry, this frame
  std::vector<std::pair<float, int>> see_order;  // (distance², geometry), far to near
  std::vector<char> patch_geometry;              // per geometry, this frame: in a patch's pair
  std::vector<char> patch_body;                  // per scene body, this frame: in a patch's pair
  // Visual geometry (SceneBody::visuals), uploaded per scene.
  struct Visual {
    int body = -1;
    Eigen::Isometry3d X_BV = Eigen::Isometry3d::Identity();
    std::optional<Eigen::Vector3f> color;  // the URDF material's, else the body's
    std::unique_ptr<GpuMesh> mesh;
  };
  std::vector<Visual> visuals;
  std::vector<char> body_has_visuals;    // per scene body
  std::vector<PatchArrow> patch_arrows;  // this frame

  // Per frame.
  Eigen::Vector3f eye = Eigen::Vector3f::Zero();
  float pixel_size_per_metre = 0;
  bool reported_gl_error = false;
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
    body_colors[b] = ToFloat(BodyColor(static_cast<int>(b), scene->bodies[b].kind));
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
      visual.mesh = std::make_unique<GpuMesh>(MakeVisualMesh(v));
      visuals.push_back(std::move(visual));
      body_has_visuals[b] = 1;
    }
  }
  spdlog::debug("renderer: scene generation {} with {} geometries, {} shape meshes",
                scene_generation, ng, shape_meshes.size());
}

void Renderer::Impl::DrawOverlay(const GpuMesh& mesh, const Eigen::Matrix4f& model, Rgb8 color,
                                 float shading) const {
  ShaderProgram::Set(overlay_loc.model, model);
  ShaderProgram::Set(overlay_loc.normal_matrix, NormalMatrix(model));
  ShaderProgram::Set(overlay_loc.color, ToFloat(color));
  ShaderProgram::Set(overlay_loc.shading, shading);
  mesh.Draw();
}

void Renderer::Impl::DrawArrow(const Eigen::Vector3f& origin, const Eigen::Vector3f& vector,
                               float shaft_radius, Rgb8 color) const {
  const float length = vector.norm();
  if (!(length > 0) || !std::isfinite(length)) return;
  const Eigen::Vector3f direction = vector / length;
  // The head keeps its proportions to the shaft; short arrows are all head.
  const float head_length = std::min(length, 5.0f * shaft_radius);
  const float shaft_length = length - head_length;
  constexpr float kArrowShading = 0.4f;
  if (shaft_length > 0) {
    DrawOverlay(arrow_shaft, AlongDirection(origin, direction, shaft_radius, shaft_length), color,
                kArrowShading);
  }
  DrawOverlay(arrow_head,
              AlongDirection(origin + direction * shaft_length, direction, 2.2f * shaft_radius,
                             head_length),
              color, kArrowShading);
}

Renderer::Renderer(const std::string& shader_dir) : impl_(std::make_unique<Impl>(shader_dir)) {}

Renderer::~Renderer() = default;

int Renderer::num_shape_meshes() const { return impl_->shape_meshes.size(); }

void Renderer::Render(const Snapshot& snapshot, const Camera& camera_in, const RenderLayers& layers,
                      int width, int height) {
  if (width <= 0 || height <= 0) return;
  Impl& r = *impl_;
  r.SyncScene(snapshot);
  const int ng = r.NumGeometries(snapshot);
  const int nb = static_cast<int>(std::min(snapshot.body_poses.size(), r.body_colors.size()));

  Camera camera = camera_in;
  if (camera.follow_body >= 0 &&
      camera.follow_body < static_cast<int>(snapshot.body_poses.size())) {
    camera.target = snapshot.body_poses[camera.follow_body].translation().cast<float>();
  }
  const float aspect = static_cast<float>(width) / static_cast<float>(height);
  const Eigen::Matrix4f view_projection = camera.Projection(aspect) * camera.View();
  r.eye = camera.Eye();
  r.pixel_size_per_metre = 2.0f * std::tan(0.5f * camera.fov_y_rad) / static_cast<float>(height);

  GLint target_framebuffer = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target_framebuffer);
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

  // Static geometry hiding dynamic bodies: drawn see-through, casting no shadow (a ghost).
  if (layers.bodies && layers.see_through_static && layers.see_through_alpha < 1.0f) {
    SeeThroughGeometries(snapshot, r.eye, &r.see_through);
  } else {
    r.see_through.clear();
  }
  r.see_through.resize(std::max<size_t>(r.see_through.size(), ng), 0);
  // Geometry of a body drawn with its visual geometry instead.
  const auto replaced_by_visuals = [&](int g) {
    const int b = snapshot.geometry_body[g];
    return layers.visual_geometry && b >= 0 && b < static_cast<int>(r.body_has_visuals.size()) &&
           r.body_has_visuals[b];
  };
  const int nb_poses = static_cast<int>(snapshot.body_poses.size());
  const auto visual_model = [&](const Impl::Visual& v) {
    return snapshot.body_poses[v.body] * v.X_BV;
  };
  // A hydroelastic patch lies inside the overlap of its two bodies (contact-math.md §5), so
  // those bodies always hide it. They mark the stencil where they are the front surface, and
  // the patch is drawn through them there, while other bodies in front still hide it.
  const bool patches = layers.contact_patches && !snapshot.hydroelastic.empty();
  MarkPatchGeometries(snapshot.hydroelastic, patches, ng, &r.patch_geometry);
  // Bodies drawn with visual geometry mark the stencil per body (their visuals are not
  // geometries).
  r.patch_body.assign(r.body_has_visuals.size(), 0);
  for (int g = 0; g < ng; ++g) {
    const int b = snapshot.geometry_body[g];
    if (r.patch_geometry[g] && b >= 0 && b < static_cast<int>(r.patch_body.size())) {
      r.patch_body[b] = 1;
    }
  }
  int stencil_mark = 0;  // glStencilFunc's reference value in force
  const auto mark_stencil = [&](int mark) {
    if (patches && mark != stencil_mark) glStencilFunc(GL_ALWAYS, mark, 0xFF);
    stencil_mark = mark;
  };

  // --- Shadow pass: fit the light frustum around the bounded geometry. ---
  Eigen::Vector3f lower = Eigen::Vector3f::Constant(INFINITY);
  Eigen::Vector3f upper = Eigen::Vector3f::Constant(-INFINITY);
  for (int g = 0; g < ng; ++g) {
    if (r.geometry_meshes[g] == nullptr) continue;
    const Eigen::Vector3f p = snapshot.geometry_poses[g].translation().cast<float>();
    lower = lower.cwiseMin(p - Eigen::Vector3f::Constant(r.geometry_radius[g]));
    upper = upper.cwiseMax(p + Eigen::Vector3f::Constant(r.geometry_radius[g]));
  }
  const bool any_bounded = lower.x() <= upper.x() && lower.allFinite() && upper.allFinite();
  const bool shadows = layers.shadows && layers.bodies && any_bounded;
  float normal_offset = 0;
  if (shadows) {
    const float radius = std::clamp(0.5f * (upper - lower).norm(), 0.25f, 15.0f);
    r.shadow_map.Fit(-kLightDirection, 0.5f * (lower + upper), radius);
    const float texel_m = 2.0f * radius / static_cast<float>(r.shadow_map.size());
    normal_offset = 1.5f * texel_m;
    r.shadow_map.BeginPass();
    r.shadow.Use();
    ShaderProgram::Set(r.shadow_loc.light_view_projection, r.shadow_map.light_view_projection());
    // Slope-scaled offset pushes the casters' depth back a little against acne.
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.5f, 2.0f);
    for (int g = 0; g < ng; ++g) {
      if (r.geometry_meshes[g] == nullptr || r.see_through[g] || replaced_by_visuals(g)) continue;
      ShaderProgram::Set(r.shadow_loc.model, ToMatrix(snapshot.geometry_poses[g]));
      r.geometry_meshes[g]->Draw();
    }
    if (layers.visual_geometry) {
      for (const Impl::Visual& v : r.visuals) {
        if (v.body >= nb_poses) continue;
        ShaderProgram::Set(r.shadow_loc.model, ToMatrix(visual_model(v)));
        v.mesh->Draw();
      }
    }
    glDisable(GL_POLYGON_OFFSET_FILL);
  }

  // --- Main pass. ---
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(target_framebuffer));
  glViewport(0, 0, width, height);
  const Eigen::Vector3f background = ToFloat(kBackground);
  glClearColor(background.x(), background.y(), background.z(), 1.0f);
  glClearDepth(1.0);
  glClearStencil(0);
  glStencilMask(0xFF);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  if (patches) {
    glEnable(GL_STENCIL_TEST);
    glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);  // the front surface's mark wins
    glStencilFunc(GL_ALWAYS, stencil_mark, 0xFF);
  }

  r.lit.Use();
  ShaderProgram::Set(r.lit_loc.view_projection, view_projection);
  ShaderProgram::Set(r.lit_loc.light_view_projection, r.shadow_map.light_view_projection());
  ShaderProgram::Set(r.lit_loc.normal_offset, normal_offset);
  ShaderProgram::Set(r.lit_loc.light_direction, kLightDirection);
  ShaderProgram::Set(r.lit_loc.eye, r.eye);
  ShaderProgram::Set(r.lit_loc.shadows, shadows ? 1 : 0);
  ShaderProgram::Set(r.lit_loc.shadow_texel, 1.0f / static_cast<float>(r.shadow_map.size()));
  ShaderProgram::Set(r.lit_loc.shadow_bias, 0.5f * normal_offset * r.shadow_map.depth_per_metre());
  ShaderProgram::Set(r.lit_loc.background, background);
  ShaderProgram::Set(r.lit_loc.alpha, 1.0f);
  ShaderProgram::Set(r.lit_loc.fade_start, 0.55f * kGroundHalfSize);
  ShaderProgram::Set(r.lit_loc.fade_end, 0.95f * kGroundHalfSize);
  ShaderProgram::Set(r.lit_loc.shadow_map, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, r.shadow_map.texture());

  if (layers.bodies || layers.grid) {
    ShaderProgram::Set(r.lit_loc.ground, 1);
    ShaderProgram::Set(r.lit_loc.grid, layers.grid ? 1 : 0);
    ShaderProgram::Set(r.lit_loc.color, ToFloat(GroundColor()));
    for (int g = 0; g < ng; ++g) {
      if (r.geometry_meshes[g] != nullptr || snapshot.geometries[g] == nullptr) continue;
      // The plane in the half-space's own pose (tilted ramps too), centred under the camera
      // target, giving an apparently endless floor.
      const Eigen::Isometry3f X_WG = snapshot.geometry_poses[g].cast<float>();
      const GroundQuadPlacement quad = PlaceGroundQuad(snapshot.geometry_poses[g], camera.target);
      ShaderProgram::Set(r.lit_loc.plane_from_mesh, quad.plane_from_mesh);
      ShaderProgram::Set(r.lit_loc.plane_center, quad.center);
      ShaderProgram::Set(r.lit_loc.model, quad.model);
      ShaderProgram::Set(r.lit_loc.normal_matrix, Eigen::Matrix3f(X_WG.linear()));
      // Nudge the floor back in depth so bodies lying exactly on it never z-fight with it.
      glEnable(GL_POLYGON_OFFSET_FILL);
      glPolygonOffset(1.0f, 1.0f);
      mark_stencil(r.patch_geometry[g]);
      r.ground_quad.Draw();
      glDisable(GL_POLYGON_OFFSET_FILL);
    }
  }
  if (layers.bodies) {
    ShaderProgram::Set(r.lit_loc.ground, 0);
    ShaderProgram::Set(r.lit_loc.grid, 0);
    ShaderProgram::Set(r.lit_loc.plane_from_mesh, Eigen::Matrix4f::Identity().eval());
    auto draw_body = [&](int g) {
      const int b = snapshot.geometry_body[g];
      const Eigen::Vector3f color = (b >= 0 && b < static_cast<int>(r.body_colors.size()))
                                        ? r.body_colors[b]
                                        : ToFloat(BodyColor(0, SceneBody::Kind::kStatic));
      const Eigen::Isometry3d& X_WG = snapshot.geometry_poses[g];
      ShaderProgram::Set(r.lit_loc.model, ToMatrix(X_WG));
      ShaderProgram::Set(r.lit_loc.normal_matrix, Eigen::Matrix3f(X_WG.linear().cast<float>()));
      ShaderProgram::Set(r.lit_loc.color, color);
      mark_stencil(r.patch_geometry[g]);
      r.geometry_meshes[g]->Draw();
    };
    r.see_order.clear();
    if (layers.visual_geometry) {
      for (const Impl::Visual& v : r.visuals) {
        if (v.body >= nb_poses) continue;
        mark_stencil(r.patch_body[v.body]);
        const Eigen::Isometry3d X_WV = visual_model(v);
        ShaderProgram::Set(r.lit_loc.model, ToMatrix(X_WV));
        ShaderProgram::Set(r.lit_loc.normal_matrix, Eigen::Matrix3f(X_WV.linear().cast<float>()));
        ShaderProgram::Set(r.lit_loc.color, v.color ? *v.color : r.body_colors[v.body]);
        v.mesh->Draw();
      }
    }
    for (int g = 0; g < ng; ++g) {
      if (r.geometry_meshes[g] == nullptr || replaced_by_visuals(g)) continue;
      if (r.see_through[g]) {
        const Eigen::Vector3f p = snapshot.geometry_poses[g].translation().cast<float>();
        r.see_order.emplace_back(-(p - r.eye).squaredNorm(), g);
        continue;
      }
      draw_body(g);
    }
    if (!r.see_order.empty()) {
      // After everything opaque, far to near. Per geometry, a depth-only pass first so that
      // only its nearest surface is blended (one layer per wall, whatever the winding).
      std::sort(r.see_order.begin(), r.see_order.end());
      glEnable(GL_BLEND);
      glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
      ShaderProgram::Set(r.lit_loc.alpha, std::clamp(layers.see_through_alpha, 0.0f, 1.0f));
      glStencilMask(0x00);  // see-through: the marks of what is behind stay
      for (const auto& [key, g] : r.see_order) {
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        glDepthFunc(GL_LESS);
        glDepthMask(GL_TRUE);
        draw_body(g);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glDepthFunc(GL_LEQUAL);
        glDepthMask(GL_FALSE);
        draw_body(g);
      }
      glDepthMask(GL_TRUE);
      glDepthFunc(GL_LESS);
      glDisable(GL_BLEND);
      glStencilMask(0xFF);
      ShaderProgram::Set(r.lit_loc.alpha, 1.0f);
    }
  }
  glBindTexture(GL_TEXTURE_2D, 0);

  // --- Hydroelastic patches, coloured by pressure: after the bodies, before the overlays. ---
  if (patches && r.patch_layer.Upload(snapshot.hydroelastic) > 0) {
    const PressureRange range = EffectivePressureRange(layers, snapshot.hydroelastic);
    glStencilMask(0x00);
    glDepthMask(GL_FALSE);
    // Where one of a patch's own bodies is in front: through it. (Without a stencil buffer the
    // test always passes, and patches are drawn over everything: still visible.)
    glStencilFunc(GL_EQUAL, 1, 0xFF);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    r.patch_layer.Draw(view_projection, range, kPatchHatchPx, kPatchGapAlpha);
    glDisable(GL_BLEND);
    // Elsewhere depth-tested, nudged towards the camera so it never z-fights with the surface
    // it lies on (e.g. the floor, itself nudged back).
    glStencilFunc(GL_EQUAL, 0, 0xFF);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(-1.0f, -2.0f);
    r.patch_layer.Draw(view_projection, range, 0.0f, 1.0f);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glStencilMask(0xFF);
  }
  glDisable(GL_STENCIL_TEST);

  // --- Overlays: over the bodies (fresh depth), but depth-tested among themselves. ---
  const bool teleop_gizmo = layers.teleop_target && snapshot.teleop.active;
  const bool any_overlay = layers.body_frames || layers.contact_points || layers.normal_forces ||
                           layers.friction_forces || teleop_gizmo || layers.traction_arrows;
  if (any_overlay) {
    glClear(GL_DEPTH_BUFFER_BIT);
    r.overlay.Use();
    ShaderProgram::Set(r.overlay_loc.view_projection, view_projection);
    ShaderProgram::Set(r.overlay_loc.eye, r.eye);
    if (layers.body_frames) {
      for (int b = 0; b < nb; ++b) {
        const Eigen::Isometry3f X_WB = snapshot.body_poses[b].cast<float>();
        const Eigen::Vector3f origin = X_WB.translation();
        const float length = r.body_frame_length[b];
        const float shaft = std::max(0.025f * length, kMinShaftRadiusPx * r.PixelSize(origin));
        for (int axis = 0; axis < 3; ++axis) {
          r.DrawArrow(origin, X_WB.linear().col(axis) * length, shaft, kAxisColors[axis]);
        }
      }
    }
    if (teleop_gizmo) {
      // Where the operator is steering (the integrated command) and where the TCP is: the gap
      // between them is what the arm has not caught up with (limits, contact).
      const Eigen::Isometry3f X_WT = snapshot.teleop.target_tcp_W.cast<float>();
      const Eigen::Vector3f origin = X_WT.translation();
      constexpr float kAxisLength_m = 0.06f;
      const float shaft = std::max(0.02f * kAxisLength_m, kMinShaftRadiusPx * r.PixelSize(origin));
      for (int axis = 0; axis < 3; ++axis) {
        r.DrawArrow(origin, X_WT.linear().col(axis) * kAxisLength_m, shaft, kAxisColors[axis]);
      }
      const Eigen::Vector3f tcp = snapshot.teleop.tcp_W.translation().cast<float>();
      Eigen::Matrix4f model = Eigen::Matrix4f::Identity();
      model.topLeftCorner<3, 3>() *= std::max(0.004f, kMinMarkerRadiusPx * r.PixelSize(tcp));
      model.block<3, 1>(0, 3) = tcp;
      r.DrawOverlay(r.marker, model, kTeleopTcpColor, 0.0f);
    }
    const float scale = layers.force_scale_m_per_N;
    for (const ContactResult& c : snapshot.contacts) {
      const Eigen::Vector3f p = c.position_W.cast<float>();
      if (!p.allFinite() || ShownAsPatch(c, snapshot, layers)) continue;
      const float pixel = r.PixelSize(p);
      const float shaft = std::max(0.15f * layers.contact_point_size_m, kMinShaftRadiusPx * pixel);
      // Arrows shorter than a couple of pixels would only be a blob over the marker.
      if (layers.normal_forces) {
        const Eigen::Vector3f v = c.normal_force_W.cast<float>() * scale;
        if (v.norm() > 2.0f * pixel) r.DrawArrow(p, v, shaft, kNormalForceColor);
      }
      if (layers.friction_forces) {
        const Eigen::Vector3f v = c.friction_force_W.cast<float>() * scale;
        if (v.norm() > 2.0f * pixel) r.DrawArrow(p, v, shaft, kFrictionForceColor);
      }
    }
    // Patches: net force at the centre of pressure, traction per face.
    PatchArrows(snapshot, layers, &r.patch_arrows);
    for (const PatchArrow& a : r.patch_arrows) {
      const float pixel = r.PixelSize(a.origin_W);
      if (a.vector_m.norm() <= 2.0f * pixel) continue;
      const float shaft_m = std::max(
          a.traction ? 0.05f * layers.contact_point_size_m : 0.15f * layers.contact_point_size_m,
          kMinShaftRadiusPx * pixel);
      r.DrawArrow(a.origin_W, a.vector_m, shaft_m, a.color);
    }
    if (layers.contact_points) {
      // Drawn last and flat (u_shading = 0) so the exact state colour lands in the pixels.
      for (const ContactResult& c : snapshot.contacts) {
        const Eigen::Vector3f p = c.position_W.cast<float>();
        if (!p.allFinite() || ShownAsPatch(c, snapshot, layers)) continue;
        const float radius =
            std::max(0.5f * layers.contact_point_size_m, kMinMarkerRadiusPx * r.PixelSize(p));
        Eigen::Matrix4f model = Eigen::Matrix4f::Identity();
        model.topLeftCorner<3, 3>() *= radius;
        model.block<3, 1>(0, 3) = p;
        Rgb8 color = kMarginColor;
        if (c.state == ContactResult::State::kStick) color = kStickColor;
        if (c.state == ContactResult::State::kSlip) color = kSlipColor;
        r.DrawOverlay(r.marker, model, color, 0.0f);
      }
    }
  }

  glBindVertexArray(0);
  glUseProgram(0);
  const GLenum error = glGetError();
  if (error != GL_NO_ERROR && !r.reported_gl_error) {
    r.reported_gl_error = true;  // once: a per-frame log line would flood at 60 Hz
    spdlog::warn("renderer: OpenGL error 0x{:x} during a frame", static_cast<unsigned>(error));
  }
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
