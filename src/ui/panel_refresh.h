// When the panels (Dear ImGui's windows) are built and drawn. At the render quality's last level
// (ui/state/auto_quality.h) not every frame: panel_refresh_hz times a second, and at once on input,
// the layer they were drawn into blended over the frames in between (render/layer_texture.h).
// Under llvmpipe the panels are half the render thread's frame for the clutter at 1440 × 900
// (0.6 ms building, 0.7 ms drawing), for numbers and plots no one reads at 20 frames a second;
// the scene itself still moves every frame.
#pragma once

namespace contactlab {

class PanelRefresh {
 public:
  // Frames built after the last input event: Dear ImGui settles what an event changed over
  // the frames after it (a window opened by a click lays itself out a frame later; hovering
  // highlights the item under a cursor that has stopped).
  static constexpr int kFramesAfterInput = 3;

  // A window event: key, character, mouse button, scroll, cursor motion, resize, focus, drop.
  void OnInput() { frames_to_build_ = kFramesAfterInput + 1; }
  // Whether the frame starting at now_s builds the panels. refresh_hz ≤ 0: every frame.
  // held: a mouse button or key is down (a drag, a held shortcut): every frame.
  bool BuildThisFrame(double now_s, double refresh_hz, bool held);

 private:
  int frames_to_build_ = 1;  // the first frame builds
  double last_build_s_ = 0;
};

}  // namespace contactlab
