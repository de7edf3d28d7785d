// OpenGL 3.3 core renderer of a Snapshot (engine data, read-only). Needs a current GL context
// whose functions glad has loaded (LoadGl, render/gl_loader.h). Visual layers are toggled by the
// UI.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/runtime/snapshot.h"
#include "render/camera.h"
#include "render/render_layers.h"
#include "render/render_quality.h"

namespace contactlab {

// Where a half-space is drawn: the plane through its geometry origin with normal +z of its
// frame (X_WG), as a finite quad centred under the camera target (the target projected onto
// the plane, in plane coordinates snapped to whole metres so that the distance fade moves in
// steps no one notices). model maps quad mesh coordinates (z = 0) to world;
// plane_from_mesh maps them to plane (half-space frame) coordinates, for the grid.
struct GroundQuadPlacement {
  Eigen::Matrix4f model;
  Eigen::Matrix4f plane_from_mesh;
  Eigen::Vector2f center;  // in plane coordinates
};
GroundQuadPlacement PlaceGroundQuad(const Eigen::Isometry3d& X_WG,
                                    const Eigen::Vector3f& camera_target);

// Per geometry of the snapshot: whether it is a bounded geometry of a static body that hides
// part of a dynamic body from `eye` (the segment from the eye to a dynamic geometry's centre
// crosses its bounding box, grown by half that geometry's radius). Half-spaces never are.
void SeeThroughGeometries(const Snapshot& snapshot, const Eigen::Vector3f& eye,
                          std::vector<char>* see_through);

class Renderer {
 public:
  // Compiles the shaders found in shader_dir (throws RenderError naming the file).
  explicit Renderer(const std::string& shader_dir);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Takes effect at the next BeginScene (sample count, scene scale) and Render (shadow map).
  void SetQuality(const RenderQuality& quality);
  const RenderQuality& quality() const;
  // A frame's scene (Render, then any RenderInset) is drawn between these two: BeginScene binds
  // an offscreen framebuffer when the quality asks for samples or a scene scale below 1 (else
  // leaves the current one bound, width × height pixels) and returns the size to draw the scene
  // at, the framebuffer's scaled by RenderQuality::scene_scale (render/scene_target.h); EndScene
  // resolves the samples and scales the scene up into the framebuffer that was bound, and binds
  // that again. Without them the scene is drawn single-sampled at the size Render is given.
  ViewportSize BeginScene(int width, int height);
  void EndScene();
  // Draws the snapshot into the current framebuffer (width × height pixels; the framebuffer
  // bound on entry is bound again on return). Meshes are built when the scene
  // (scene_generation) changes, not per frame. Force arrows show the force on geometry B at
  // the contact point; contact points, arrows and frames are drawn over the bodies. A patch's
  // force and traction arrows show the force on the pair's geometry later in World order (B of
  // every point contact, whose pairs are ordered so), so point and patch arrows agree.
  // A ghost snapshot of the same scene (GhostRuntime) is drawn over it, see-through; the mouse
  // spring (Snapshot::perturbation) as an arrow from the grabbed point to the mouse point.
  void Render(const Snapshot& snapshot, const Camera& camera, const RenderLayers& layers, int width,
              int height, const Snapshot* ghost = nullptr);
  // The same into the rectangle of the current framebuffer with lower left corner (x, y) and
  // size width × height pixels (a picture-in-picture inset); only that rectangle is cleared.
  // After Render in the same scene (BeginScene … EndScene) it shades with the full view's
  // shadow map as it is, never drawing one of its own.
  void RenderInset(const Snapshot& snapshot, const Camera& camera, const RenderLayers& layers,
                   int x, int y, int width, int height, const Snapshot* ghost = nullptr);
  // Reads the current framebuffer back as RGBA8 rows top to bottom (for screenshots); alpha
  // is set to 255.
  std::vector<uint8_t> ReadPixels(int width, int height) const;
  // Distinct shape meshes resident on the GPU (tests: identical shapes share one upload).
  int num_shape_meshes() const;
  // Shadow maps drawn since construction: a map is drawn again only when a caster moved by more
  // than a quarter of its texel, or the scene, layers or map size changed.
  int num_shadow_map_draws() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace contactlab
