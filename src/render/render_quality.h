// The renderer's quality settings (ui/state/auto_quality.h steps them down when frames are slow).
#pragma once

namespace contactlab {

// What a frame costs to draw, traded for how it looks: samples per pixel of the scene (0: no
// multisampling; 2, 4, 8), the shadow map's size in texels per side, and soft shadow edges
// (3 × 3 filter taps per pixel) or hard ones (one tap).
struct RenderQuality {
  int msaa_samples = 4;
  int shadow_map_size = 1024;  // 2048 cost llvmpipe ~15 ms a frame for little visible gain
  bool soft_shadows = true;
  // How often the application builds and draws its panels [1/s] (and at once on input), the
  // layer they were drawn into blended over the frames between (ui/panel_refresh.h); 0: every
  // frame. Not the renderer's: the scene is drawn every frame.
  double panel_refresh_hz = 0;
  bool operator==(const RenderQuality&) const = default;
};

}  // namespace contactlab
