// Where the 3D scene is drawn: with multisampling, an offscreen framebuffer of that many
// samples, resolved at the end (the UI is then drawn on top, single-sampled); at a scene scale
// below 1 (RenderQuality::scene_scale), an offscreen framebuffer of the scaled size, scaled up
// into the window's framebuffer with a linear filter at the end (after the samples' resolve,
// with both); with neither, the window's framebuffer itself. Being offscreen, the sample count
// and the scale can change while the application runs (the render quality lowers them when
// frames are slow), which a window's multisampling, fixed when the window is created, cannot.
#pragma once

#include <glad/gl.h>

#include "render/render_quality.h"

namespace contactlab {

class SceneTarget {
 public:
  SceneTarget() = default;
  ~SceneTarget();
  SceneTarget(const SceneTarget&) = delete;
  SceneTarget& operator=(const SceneTarget&) = delete;

  // Binds the framebuffer the scene is drawn into for the framebuffer bound now, width × height
  // pixels: with `samples` samples per pixel (0: none; else clamped to GL_MAX_SAMPLES) and each
  // side times `scale` (ScaledSceneSize). Returns the size to draw the scene at. Storage is made
  // again only when a size or the sample count changes. A framebuffer the driver refuses is
  // logged once and the scene is drawn without it (single-sampled, or at full size) from then on.
  ViewportSize Begin(int width, int height, int samples, float scale);
  // Resolves the samples and scales the scene up into the framebuffer bound at Begin, and binds
  // it again.
  void End();
  // Samples per pixel of the last Begin (0: none).
  int samples() const { return samples_; }
  // The size the last Begin drew the scene at (the window's when not scaled).
  ViewportSize drawn_size() const { return drawn_; }

 private:
  // A framebuffer with an RGBA8 colour and a depth-stencil renderbuffer.
  struct Buffer {
    GLuint framebuffer = 0, color = 0, depth_stencil = 0;
    ViewportSize size;
    int samples = 0;
    bool Holds(ViewportSize s, int n) const {
      return framebuffer != 0 && size == s && samples == n;
    }
    // Throws RenderError (named by `what`) when the driver refuses it; binds `restore` again.
    void Allocate(ViewportSize s, int n, GLuint restore, const char* what);
    void Release();
  };
  // Binds `buffer` of that size and samples, made if need be; false if the driver refused it.
  bool Use(Buffer* buffer, ViewportSize size, int samples, const char* what);

  Buffer multisampled_, scaled_;
  ViewportSize window_, drawn_;
  int samples_ = 0;
  bool scaled_now_ = false;  // the last Begin drew into scaled_ (or resolves into it)
  GLint window_framebuffer_ = 0;
  GLint max_samples_ = -1;  // GL_MAX_SAMPLES, read once; 0 after a refused framebuffer
  bool can_scale_ = true;   // false after a refused scaled framebuffer
};

}  // namespace contactlab
