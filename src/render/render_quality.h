// The renderer's quality settings (ui/state/auto_quality.h steps them down when frames are slow).
#pragma once

#include <algorithm>
#include <cmath>

namespace contactlab {

// What a frame costs to draw, traded for how it looks: samples per pixel of the scene (0: no
// multisampling; 2, 4, 8), the shadow map's size in texels per side, soft shadow edges (3 × 3
// filter taps per pixel) or hard ones (one tap), and the 3-D view's resolution.
struct RenderQuality {
  int msaa_samples = 4;
  int shadow_map_size = 1024;  // 2048 cost llvmpipe ~15 ms a frame for little visible gain
  bool soft_shadows = true;
  // How often the application builds and draws its panels [1/s] (and at once on input), the
  // layer they were drawn into blended over the frames between (ui/panel_refresh.h); 0: every
  // frame. Not the renderer's: the scene is drawn every frame.
  double panel_refresh_hz = 0;
  // The 3-D view's pixels per window pixel along each side (0 < s ≤ 1): below 1 it is drawn
  // offscreen at that size and scaled up to the window with a linear filter, the panels still
  // drawn at full resolution (render/scene_target.h). A software renderer shades every pixel on
  // the CPU: at 0.5 a quarter of them.
  float scene_scale = 1.0f;
  bool operator==(const RenderQuality&) const = default;
};

// A framebuffer's or a view's size in pixels.
struct ViewportSize {
  int width = 0, height = 0;
  bool operator==(const ViewportSize&) const = default;
};

// The size the 3-D view is drawn at for a window framebuffer of width × height: each side times
// scene_scale (clamped to (0, 1]), rounded, at least one pixel.
inline ViewportSize ScaledSceneSize(int width, int height, float scene_scale) {
  const float s = std::isfinite(scene_scale) ? std::clamp(scene_scale, 0.01f, 1.0f) : 1.0f;
  const auto scaled = [s](int pixels) {
    return pixels <= 0 ? 0
                       : std::max(1, static_cast<int>(std::lround(s * static_cast<float>(pixels))));
  };
  return {scaled(width), scaled(height)};
}

}  // namespace contactlab
