// Mouse and preset control of the renderer's orbit Camera: left drag orbits, right/middle drag
// pans, the wheel zooms (unless Dear ImGui wants the mouse); presets front/side/top/iso; framing
// a scene; following a body.
#pragma once

#include "app/runtime/snapshot.h"
#include "render/camera.h"

namespace contactlab {

enum class CameraPreset { kFront, kSide, kTop, kIso };
const char* CameraPresetName(CameraPreset preset);

// Sets the view direction of a preset, keeping target and distance. Front looks along +y
// (from −y), side along −x (from +x), top straight down, iso an oblique view from above (the
// initial view).
void ApplyCameraPreset(CameraPreset preset, Camera* camera);

// Aims the camera at the dynamic bodies of the snapshot (or, without any, at all bounded
// geometry; half-spaces and huge slabs ignored) so that they fit in `view_fraction` of the
// view's height.
void FrameScene(const Snapshot& snapshot, float view_fraction, Camera* camera);

// Auto-framing: moves the camera's target and distance a step of `dt_s` towards FrameScene's
// (exponentially, time constant `time_constant_s`), so that the view keeps up with bodies that
// fall into a pile or move away, without jumps.
void EaseTowardsFraming(const Snapshot& snapshot, float view_fraction, float dt_s,
                        float time_constant_s, Camera* camera);

// Moves the target to the followed body's origin (camera->follow_body, if valid).
void UpdateFollow(const Snapshot& snapshot, Camera* camera);

// The camera the renderer gets: the followed body's origin as the target, and the view shifted
// by (shift_x, shift_y) view widths/heights (screen convention, y down) so that the target
// appears at the centre of the part of the window the panels leave free.
Camera ShiftedCamera(const Camera& camera, const Snapshot& snapshot, float shift_x, float shift_y,
                     float aspect);

// Mouse input for one frame, in pixels (from ImGuiIO when it does not want the mouse).
struct MouseInput {
  float dx = 0, dy = 0;                              // cursor motion since the last frame
  bool left = false, right = false, middle = false;  // buttons held
  float wheel = 0;                                   // scroll steps
};
// Applies the mouse to the camera over a view of the given size. Panning stops following.
void ApplyMouse(const MouseInput& mouse, int view_width, int view_height, Camera* camera);

}  // namespace contactlab
