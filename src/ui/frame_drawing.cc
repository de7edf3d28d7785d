#include "ui/frame_drawing.h"

// glad first: it must precede any other GL header.
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <exception>

#include "render/render_error.h"
#include "render/view_projection.h"
#include "ui/view/camera_views.h"

namespace contactlab {
namespace {

// Marks in the layer where Dear ImGui drew (each draw command's vertices' bounds within its clip
// rectangle, in framebuffer pixels from the bottom), so that only there is it blended.
void MarkPanelsDrawn(const ImDrawData& data, int fb_h, LayerTexture* layer) {
  const ImVec2 origin = data.DisplayPos, scale = data.FramebufferScale;
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback != nullptr || cmd.ElemCount == 0) continue;
      ImVec2 lo(cmd.ClipRect.z, cmd.ClipRect.w), hi(cmd.ClipRect.x, cmd.ClipRect.y);
      for (unsigned int e = cmd.IdxOffset; e < cmd.IdxOffset + cmd.ElemCount; ++e) {
        const ImVec2& p = list.VtxBuffer[static_cast<int>(cmd.VtxOffset + list.IdxBuffer[e])].pos;
        lo = ImVec2(std::min(lo.x, p.x), std::min(lo.y, p.y));
        hi = ImVec2(std::max(hi.x, p.x), std::max(hi.y, p.y));
      }
      lo = ImVec2(std::max(lo.x, cmd.ClipRect.x), std::max(lo.y, cmd.ClipRect.y));
      hi = ImVec2(std::min(hi.x, cmd.ClipRect.z), std::min(hi.y, cmd.ClipRect.w));
      const int x0 = static_cast<int>(std::floor((lo.x - origin.x) * scale.x));
      const int x1 = static_cast<int>(std::ceil((hi.x - origin.x) * scale.x));
      const int y0 = static_cast<int>(std::floor((lo.y - origin.y) * scale.y));
      const int y1 = static_cast<int>(std::ceil((hi.y - origin.y) * scale.y));
      if (x1 > x0 && y1 > y0) layer->MarkDrawn(x0, fb_h - y1, x1 - x0, y1 - y0);
    }
  }
}

}  // namespace

std::string FrameDrawing::Build() {
  try {
    auto renderer = std::make_unique<Renderer>(shader_dir_);
    auto layer = std::make_unique<LayerTexture>(shader_dir_);
    renderer_ = std::move(renderer);
    panel_layer_ = std::move(layer);
    error_.clear();
  } catch (const std::exception& e) {
    error_ = e.what();
  }
  return error_;
}

void FrameDrawing::SetQuality(const RenderQuality& quality) {
  if (renderer_ && !(renderer_->quality() == quality)) renderer_->SetQuality(quality);
}

bool FrameDrawing::PanelsLayered(const RenderQuality& quality) const {
  return panel_layer_ && renderer_ && quality.panel_refresh_hz > 0;
}

bool FrameDrawing::LayerIsCurrent(const RenderQuality& quality) const {
  return PanelsLayered(quality) && panels_layered_ && panel_layer_->Holds(last_fb_w_, last_fb_h_);
}

std::string FrameDrawing::DrawScene(const Snapshot& snapshot, const Camera& view, const UiState& ui,
                                    const Snapshot* ghost, int fb_w, int fb_h, float display_w,
                                    float display_h) {
  glViewport(0, 0, fb_w, fb_h);
  std::string error;
  if (renderer_ && fb_w > 0 && fb_h > 0) {
    try {
      // At a scene scale below 1 the view is drawn smaller and stretched over the window, so
      // picking reads the projection of the size drawn: a point lands where it is seen.
      const ViewportSize drawn = renderer_->BeginScene(fb_w, fb_h);
      renderer_->Render(snapshot, view, ui.layers, drawn.width, drawn.height, ghost);
      DrawCameraInset(*renderer_, snapshot, ui.views, ui.layers, drawn.width, drawn.height,
                      display_w, display_h, ghost);
      renderer_->EndScene();
      view_projection_ = ViewProjection(
          view, snapshot, static_cast<float>(drawn.width) / static_cast<float>(drawn.height));
      return error;
    } catch (const std::exception& e) {
      error = error_ = e.what();
      renderer_.reset();
    }
  }
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(0.12f, 0.12f, 0.14f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  return error;
}

std::string FrameDrawing::DrawPanels(bool built, const RenderQuality& quality, int fb_w, int fb_h) {
  if (built) ImGui::Render();
  last_fb_w_ = fb_w;
  last_fb_h_ = fb_h;
  panels_layered_ = PanelsLayered(quality);
  if (!panels_layered_) {
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    return "";
  }
  if (built) {
    try {
      panel_layer_->Begin(fb_w, fb_h);
    } catch (const RenderError& e) {  // the panels straight into the frame from now on
      panel_layer_.reset();
      panels_layered_ = false;
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      return e.what();
    }
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    MarkPanelsDrawn(*ImGui::GetDrawData(), fb_h, panel_layer_.get());
    panel_layer_->End();
    glViewport(0, 0, fb_w, fb_h);
  }
  panel_layer_->Composite();
  return "";
}

void FrameDrawing::Finish() const { glFinish(); }

std::vector<uint8_t> FrameDrawing::ReadPixels(int fb_w, int fb_h) const {
  return renderer_ ? renderer_->ReadPixels(fb_w, fb_h) : std::vector<uint8_t>{};
}

}  // namespace contactlab
