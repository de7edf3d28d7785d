// Where the 3D scene is drawn: with multisampling, an offscreen framebuffer of that many
// samples, resolved into the window's framebuffer at the end (the UI is then drawn on top,
// single-sampled); without, the window's framebuffer itself. Being offscreen, the sample count
// can change while the application runs (the render quality lowers it when frames are slow),
// which a window's multisampling, fixed when the window is created, cannot.
#pragma once

#include <glad/gl.h>

namespace contactlab {

class SceneTarget {
 public:
  SceneTarget() = default;
  ~SceneTarget();
  SceneTarget(const SceneTarget&) = delete;
  SceneTarget& operator=(const SceneTarget&) = delete;

  // Binds the framebuffer the scene is drawn into, width × height pixels with `samples` samples
  // per pixel (0: the framebuffer bound now; else clamped to GL_MAX_SAMPLES). Storage is made
  // again only when the size or the sample count changes. A framebuffer the driver refuses is
  // logged once and the scene is drawn single-sampled from then on.
  void Begin(int width, int height, int samples);
  // Resolves the samples into the framebuffer bound at Begin and binds it again.
  void End();
  // Samples per pixel of the last Begin (0: drawn directly).
  int samples() const { return samples_; }

 private:
  void Allocate(int width, int height, int samples);
  void Release();

  GLuint framebuffer_ = 0, color_ = 0, depth_stencil_ = 0;
  int width_ = 0, height_ = 0, samples_ = 0, allocated_samples_ = 0;
  GLint window_framebuffer_ = 0;
  GLint max_samples_ = -1;  // GL_MAX_SAMPLES, read once; 0 after a refused framebuffer
};

}  // namespace contactlab
