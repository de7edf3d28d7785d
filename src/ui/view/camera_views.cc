#include "ui/view/camera_views.h"

#include <imgui.h>
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>

#include "render/camera.h"
#include "render/render_layers.h"
#include "render/scene_camera.h"

namespace contactlab {
namespace {

const CameraSpec* CameraAt(const Snapshot& snapshot, int index) {
  if (!snapshot.scene || index < 0 || index >= static_cast<int>(snapshot.scene->cameras.size())) {
    return nullptr;
  }
  return &snapshot.scene->cameras[index];
}

// A combo over "none"/"free" (−1) and the scene's cameras.
void CameraCombo(const char* label, const char* none, const SceneSpec& scene, int* index) {
  const int n = static_cast<int>(scene.cameras.size());
  const char* shown = *index >= 0 && *index < n ? scene.cameras[*index].name.c_str() : none;
  if (!ImGui::BeginCombo(label, shown)) return;
  if (ImGui::Selectable(none, *index < 0)) *index = -1;
  for (int i = 0; i < n; ++i) {
    if (ImGui::Selectable(scene.cameras[i].name.c_str(), *index == i)) *index = i;
  }
  ImGui::EndCombo();
}

}  // namespace

CameraViews DefaultCameraViews(const SceneSpec& scene, const std::string& requested) {
  CameraViews views;
  views.main = scene.FindCamera("task");
  if (requested == kFreeCameraName) views.main = -1;
  if (scene.FindCamera(requested) >= 0) views.main = scene.FindCamera(requested);
  views.inset = scene.FindCamera("wrist");
  // The inset is a second view: with the wrist camera as the main one it shows the task's.
  if (views.inset >= 0 && views.inset == views.main) views.inset = scene.FindCamera("task");
  return views;
}

std::string CheckCameraName(const SceneSpec& scene, const std::string& name) {
  if (name.empty() || name == kFreeCameraName || scene.FindCamera(name) >= 0) return "";
  std::string names = kFreeCameraName;
  for (const CameraSpec& c : scene.cameras) names += ", " + c.name;
  return fmt::format("--camera {}: scene '{}' has no camera of that name (cameras: {})", name,
                     scene.name, names);
}

std::optional<Camera> MainSceneCamera(const Snapshot& snapshot, const CameraViews& views,
                                      float shift_x, float shift_y) {
  const CameraSpec* spec = CameraAt(snapshot, views.main);
  if (!spec) return std::nullopt;
  Camera camera = SceneCameraView(*spec, snapshot);
  // Camera::Pan by (dx, dy) moves the scene dx widths right and dy heights down on screen;
  // normalized device coordinates span 2 per width/height, with y up.
  camera.shift_ndc = Eigen::Vector2f(2.0f * shift_x, -2.0f * shift_y);
  return camera;
}

Camera OrbitFrom(const Camera& scene_view) {
  Camera orbit;
  orbit.fov_y_rad = scene_view.fov_y_rad;
  if (!scene_view.X_WC) return scene_view;
  const Eigen::Vector3f forward = scene_view.X_WC->linear().col(2);
  orbit.target = scene_view.target;
  orbit.distance_m = (scene_view.target - scene_view.X_WC->translation()).norm();
  orbit.yaw_rad = std::atan2(-forward.y(), -forward.x());
  orbit.pitch_rad = std::asin(std::clamp(-forward.z(), -1.0f, 1.0f));
  orbit.Orbit(0, 0);  // clamps the pitch short of the poles
  return orbit;
}

void CameraViewsPanel(const SceneSpec& scene, CameraViews* views) {
  CameraCombo("main camera", kFreeCameraName, scene, &views->main);
  CameraCombo("inset camera", "none", scene, &views->inset);
  if (views->inset >= 0) {
    ImGui::SliderFloat("inset size", &views->inset_height_fraction, 0.15f, 0.6f, "%.2f");
  }
}

InsetRect ComputeInsetRect(float display_w, float display_h, float height_fraction) {
  constexpr float kMargin = 10.0f, kTop = kMargin;  // the Inspect window goes under it
  InsetRect r;
  r.h = std::clamp(height_fraction, 0.05f, 0.9f) * display_h;
  r.w = std::min(r.h * 4.0f / 3.0f, 0.6f * display_w);
  r.x = display_w - kMargin - r.w;
  r.y = kTop;
  return r;
}

std::optional<InsetRect> ShownInsetRect(const Snapshot& snapshot, const CameraViews& views,
                                        float display_w, float display_h) {
  if (!CameraAt(snapshot, views.inset)) return std::nullopt;
  return ComputeInsetRect(display_w, display_h, views.inset_height_fraction);
}

bool OverInset(const Snapshot& snapshot, const CameraViews& views, float display_w, float display_h,
               float x, float y) {
  const std::optional<InsetRect> r = ShownInsetRect(snapshot, views, display_w, display_h);
  return r && x >= r->x && x <= r->x + r->w && y >= r->y && y <= r->y + r->h;
}

void DrawCameraInset(Renderer& renderer, const Snapshot& snapshot, const CameraViews& views,
                     const RenderLayers& layers, int fb_w, int fb_h, float display_w,
                     float display_h, const Snapshot* ghost) {
  const CameraSpec* spec = CameraAt(snapshot, views.inset);
  if (!spec || display_w <= 0 || display_h <= 0) return;
  const InsetRect r = ComputeInsetRect(display_w, display_h, views.inset_height_fraction);
  const float scale = static_cast<float>(fb_w) / display_w;  // framebuffer pixels per point
  const int w = static_cast<int>(std::lround(r.w * scale));
  const int h = static_cast<int>(std::lround(r.h * scale));
  const int x = static_cast<int>(std::lround(r.x * scale));
  const int y = fb_h - static_cast<int>(std::lround(r.y * scale)) - h;  // GL: from the bottom
  renderer.RenderInset(snapshot, SceneCameraView(*spec, snapshot), layers, x, y, w, h, ghost);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->AddRect(ImVec2(r.x - 1, r.y - 1), ImVec2(r.x + r.w + 1, r.y + r.h + 1),
                IM_COL32(230, 230, 235, 255), 0.0f, 0, 2.0f);
  draw->AddText(ImVec2(r.x + 6, r.y + 4), IM_COL32(255, 255, 255, 255), spec->name.c_str());
}

}  // namespace contactlab
