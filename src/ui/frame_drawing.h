// What a frame draws, in order: the scene through the Renderer (with the inset camera), then the
// panels. The panels go straight into the frame, or, when the render quality slows them
// (ui/panel_refresh.h), into a layer at each build that is blended over every frame between
// (render/layer_texture.h). Owns the Renderer and that layer, which need the window's GL context
// for their whole life. A renderer that fails does not end the window: the frame is cleared to
// grey and error() says why.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/runtime/snapshot.h"
#include "render/camera.h"
#include "render/layer_texture.h"
#include "render/renderer.h"
#include "ui/state/ui_state.h"

namespace contactlab {

class FrameDrawing {
 public:
  explicit FrameDrawing(std::string shader_dir) : shader_dir_(std::move(shader_dir)) {}

  // Builds the renderer and the panel layer from the shaders (again, to reload them); after a
  // failure the last good ones stay. Returns "" or the error (also error()).
  std::string Build();
  Renderer* renderer() const { return renderer_.get(); }
  // The last failure ("" while the renderer is fine).
  const std::string& error() const { return error_; }

  // The quality the renderer draws with from the next frame on.
  void SetQuality(const RenderQuality& quality);
  // Whether the panels go through the layer at this quality.
  bool PanelsLayered(const RenderQuality& quality) const;
  // Whether the layer shows the panels of the last frame at its size: then they need not be
  // built this frame.
  bool LayerIsCurrent(const RenderQuality& quality) const;

  // The scene into the window's framebuffer of fb_w × fb_h pixels (the window: display_w ×
  // display_h), drawn at the quality's scene scale and scaled up to it. Returns "" or the
  // renderer's error, after which it is dropped.
  std::string DrawScene(const Snapshot& snapshot, const Camera& view, const UiState& ui,
                        const Snapshot* ghost, int fb_w, int fb_h, float display_w,
                        float display_h);
  // The panels over it: built this frame (ImGui::Render, then drawn) or the layer's drawing of
  // their last build. Returns "" or the layer's error (the panels then go straight into every
  // frame).
  std::string DrawPanels(bool built, const RenderQuality& quality, int fb_w, int fb_h);
  // Waits until the GL has drawn everything asked of it (the frame cost split, FrameCost).
  void Finish() const;
  // The frame just drawn, RGBA rows top to bottom (empty without a renderer).
  std::vector<uint8_t> ReadPixels(int fb_w, int fb_h) const;
  // The world-to-clip matrix of the last scene drawn: what the user sees, and points at.
  const Eigen::Matrix4f& view_projection() const { return view_projection_; }

 private:
  std::string shader_dir_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<LayerTexture> panel_layer_;  // the panels between their builds
  std::string error_;
  Eigen::Matrix4f view_projection_ = Eigen::Matrix4f::Identity();
  bool panels_layered_ = false;        // the last frame's panels were blended from the layer
  int last_fb_w_ = 0, last_fb_h_ = 0;  // the last frame's size (DrawPanels)
};

}  // namespace contactlab
