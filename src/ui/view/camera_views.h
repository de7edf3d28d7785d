// Which cameras the GUI views through: the main view (the free orbit camera or one of the
// scene's named cameras, CameraSpec) and a picture-in-picture inset showing a second camera.
// --camera NAME picks the main camera at start; the "Camera and layers" panel switches both.
#pragma once

#include <optional>
#include <string>

#include "app/runtime/snapshot.h"
#include "engine/world/scene_spec.h"
#include "render/camera.h"
#include "render/render_layers.h"
#include "render/renderer.h"

namespace contactlab {

struct CameraViews {
  int main = -1;   // index into SceneSpec::cameras; −1: the free orbit camera (UiState::camera)
  int inset = -1;  // index into SceneSpec::cameras; −1: no inset
  float inset_height_fraction = 0.3f;  // the inset's height over the window's (4:3 wide)
};

// The name --camera takes for the free orbit camera.
inline constexpr const char* kFreeCameraName = "free";

// A scene's views: the main view through `requested` when the scene has a camera of that name
// (kFreeCameraName: the orbit camera), else through `task` if it has one (robot scenes: the
// gripper and the hole, not the whole arm from afar); the inset shows `wrist` if it has one
// (`task` when the main view is the wrist's).
CameraViews DefaultCameraViews(const SceneSpec& scene, const std::string& requested);

// "" if --camera NAME can be used with the scene (or is empty), else one line naming the
// scene's cameras.
std::string CheckCameraName(const SceneSpec& scene, const std::string& name);

// The main view's camera when it is a scene camera: its image centre moved by (shift_x,
// shift_y) view widths/heights (screen convention, y down; ShiftedCamera's shift) so that it
// lands in the middle of the part of the window the panels leave free. nullopt: the free camera.
std::optional<Camera> MainSceneCamera(const Snapshot& snapshot, const CameraViews& views,
                                      float shift_x, float shift_y);

// An orbit camera that sees about what `scene_view` (a Camera with X_WC) sees: the mouse takes
// over from a scene camera without a jump in direction.
Camera OrbitFrom(const Camera& scene_view);

// The main camera and inset combos and the inset size slider.
void CameraViewsPanel(const SceneSpec& scene, CameraViews* views);

// Where the inset goes in a window of display_w × display_h (top left corner and size, in
// window pixels, y down): the top right corner (the Inspect window goes under it).
struct InsetRect {
  float x = 0, y = 0, w = 0, h = 0;
};
InsetRect ComputeInsetRect(float display_w, float display_h, float height_fraction);

// The inset's rectangle when the views show one in the snapshot's scene; nullopt otherwise.
std::optional<InsetRect> ShownInsetRect(const Snapshot& snapshot, const CameraViews& views,
                                        float display_w, float display_h);

// Whether the window point (x, y) (pixels, y down) lies on the inset the views show in the
// snapshot's scene (false when they show none): what is under it there is the inset's picture,
// so the main view neither picks a body nor hovers a contact there.
bool OverInset(const Snapshot& snapshot, const CameraViews& views, float display_w, float display_h,
               float x, float y);

// Draws the inset camera (if any) into the current framebuffer of fb_w × fb_h pixels (the
// window is display_w wide; a scene drawn at a scale below 1 gives its scaled size), with a
// frame and its name drawn by Dear ImGui in this frame.
void DrawCameraInset(Renderer& renderer, const Snapshot& snapshot, const CameraViews& views,
                     const RenderLayers& layers, int fb_w, int fb_h, float display_w,
                     float display_h, const Snapshot* ghost);

}  // namespace contactlab
