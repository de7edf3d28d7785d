// A 2D layer (the panels) drawn now and then into a texture of the framebuffer's size and
// blended over every frame (ui/panel_refresh.h says when it is drawn again).
//
// Drawn over transparent black with the blend Dear ImGui's OpenGL backend sets — colour
// (src_alpha, 1 − src_alpha), alpha (1, 1 − src_alpha) — the texture holds the layer's colour
// premultiplied by its coverage, C = Σ αᵢ cᵢ Πⱼ>ᵢ (1 − αⱼ), and its coverage A = 1 − Πᵢ (1 − αᵢ);
// blended once with (1, 1 − src_alpha) it gives the frame C + (1 − A) · frame, which is what
// drawing the layer's triangles straight over the frame gives (to 8-bit rounding).
// Blending costs a software renderer a texel fetch and a blend per pixel blended: with the parts
// drawn marked (MarkDrawn), only the tiles they touch are blended, not the whole window (the
// panels cover half of it; llvmpipe blended the other half, transparent, every frame).
// Needs a current GL context for its whole life.
#pragma once

#include <glad/gl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "render/shader_program.h"

namespace contactlab {

class LayerTexture {
 public:
  // Compiles layer.vert / layer.frag from shader_dir (throws RenderError naming the file).
  explicit LayerTexture(const std::string& shader_dir);
  ~LayerTexture();
  LayerTexture(const LayerTexture&) = delete;
  LayerTexture& operator=(const LayerTexture&) = delete;

  // Binds the layer's framebuffer, width × height pixels, cleared to transparent: what is drawn
  // until End is the layer. Storage is made again only when the size changes. An empty size
  // (a minimized window) leaves the bound framebuffer and holds nothing. Throws RenderError
  // when the driver refuses the framebuffer.
  void Begin(int width, int height);
  // Binds the framebuffer that was bound at Begin again.
  void End();
  // Something was drawn into the rectangle with lower left corner (x, y) and size width × height
  // pixels (GL's convention; clipped to the layer). Once any is marked, Composite blends only
  // the kTile_px tiles the marks touch, each once however many marks overlap it; without a mark
  // since Begin, all of the layer.
  void MarkDrawn(int x, int y, int width, int height);
  // Blends the layer over the bound framebuffer (its viewport: the layer's size, from 0, 0).
  void Composite() const;
  static constexpr int kTile_px = 32;
  // Whether the layer holds a drawing of width × height pixels.
  bool Holds(int width, int height) const { return drawn_ && width == width_ && height == height_; }

 private:
  void Allocate(int width, int height);
  void Release();

  ShaderProgram program_;
  GLint layer_loc_;
  GLuint vertex_array_ = 0;  // empty: the vertex shader makes the triangle
  GLuint framebuffer_ = 0, texture_ = 0;
  int width_ = 0, height_ = 0;
  bool drawn_ = false;
  GLint previous_framebuffer_ = 0;
  // Per kTile_px tile, rows from the bottom: marked (MarkDrawn); sized with the storage.
  std::vector<uint8_t> marked_tiles_;
  int tiles_x_ = 0, tiles_y_ = 0;
  bool any_marked_ = false;
};

}  // namespace contactlab
