// OpenGL 3.3 core renderer of a Snapshot (engine data, read-only). Needs a current GL context
// whose functions glad has loaded (LoadGl). Visual layers are toggled by the UI.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/snapshot.h"

namespace contactlab {

// A shader that does not compile or link (the message names the file and carries the compiler
// log), a PNG that cannot be written, an incomplete shadow-map framebuffer.
class RenderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads GL function pointers through glad with the given loader (e.g. glfwGetProcAddress).
// Returns false if GL 3.3 core is not available.
using GlProcLoader = void* (*)(const char*);
bool LoadGl(GlProcLoader loader);

// Orbit camera: looks at `target` from `distance`, azimuth `yaw_rad` about world z, elevation
// `pitch_rad`. Follows a scene body when follow_body ≥ 0: Renderer::Render then looks at that
// body's origin instead of `target` (the Camera itself is not changed, so Pan has no visible
// effect while following; orbit and zoom still work).
//
// A scene camera (CameraSpec, SceneCameraView) instead sets X_WC, its pose in the world (camera
// frame C: looking along +z_C, +x_C right, +y_C down, as in Drake and OpenCV): View() and Eye()
// then come from it, yaw, pitch and follow_body are ignored, and `target` (a point in front of
// it, distance_m away) only places the ground and scales near/far. shift_ndc moves the image
// (normalized device coordinates, +y up) so that its centre lands where the panels leave room.
struct Camera {
  Eigen::Vector3f target{0, 0, 0.2f};
  float distance_m = 2.0f;
  float yaw_rad = 0.8f;
  float pitch_rad = 0.45f;
  float fov_y_rad = 0.8f;
  int follow_body = -1;
  std::optional<Eigen::Isometry3f> X_WC;
  Eigen::Vector2f shift_ndc = Eigen::Vector2f::Zero();
  Eigen::Matrix4f View() const;
  Eigen::Matrix4f Projection(float aspect) const;
  Eigen::Vector3f Eye() const;
  void Orbit(float dx_rad, float dy_rad);
  // Moves the target so the scene follows a mouse drag of (dx, dy) in units of the view's
  // width/height (dx > 0: right, dy > 0: down, screen convention). `aspect` = width/height
  // makes a full-width drag move by the full visible width.
  void Pan(float dx, float dy, float aspect = 1.0f);
  void Zoom(float factor);
};

// Contact point colours by state (also what the GUI tests look for in screenshots), sRGB 0–255.
struct Rgb8 {
  uint8_t r, g, b;
};
inline constexpr Rgb8 kStickColor{40, 220, 70};    // sticking contact
inline constexpr Rgb8 kSlipColor{245, 130, 20};    // sliding contact
inline constexpr Rgb8 kMarginColor{70, 150, 245};  // in the margin, not touching
inline constexpr Rgb8 kNormalForceColor{230, 40, 40};
inline constexpr Rgb8 kFrictionForceColor{240, 220, 40};
inline constexpr Rgb8 kTeleopTcpColor{250, 250, 250};    // measured TCP (teleoperation)
inline constexpr Rgb8 kGhostColor{80, 200, 255};         // the ghost run's bodies (tinted)
inline constexpr Rgb8 kPerturbationColor{230, 60, 230};  // the mouse spring
inline constexpr Rgb8 kHoleOutlineColor{255, 235, 40};   // alignment: the hole's rim
inline constexpr Rgb8 kAlignedColor{60, 230, 90};        // the peg's axis lands in the hole
inline constexpr Rgb8 kMisalignedColor{255, 120, 40};    // ... or outside it

// What colours the contact point markers: their state (kStickColor, kSlipColor, kMarginColor),
// or on the pressure colour map (render/contact_colors.h) their gliding offset
// (ContactResult::gliding_offset_m) or slip speed.
enum class ContactColorMode { kState, kGliding, kSlip };

// Layers the UI toggles.
struct RenderLayers {
  bool bodies = true;
  bool grid = true;
  bool shadows = true;
  bool contact_points = true;
  bool normal_forces = true;
  bool friction_forces = true;
  bool body_frames = false;
  // Teleoperation: the commanded TCP pose (axes, x red, y green, z blue) and a marker at the
  // measured TCP, when the snapshot has an active teleop (Snapshot::teleop).
  bool teleop_target = true;
  float force_scale_m_per_N = 0.01f;  // arrow length per newton
  // Diameter of the contact point markers (never drawn smaller than ~7 pixels across).
  float contact_point_size_m = 0.008f;
  // Colour by state, gliding offset or slip speed; the last two from 0 to contact_color_max
  // (metres or m/s, set by the UI every frame; ≤ 0 or not finite: a default scale,
  // ContactColorTop).
  ContactColorMode contact_colors = ContactColorMode::kState;
  float contact_color_max = 0.0f;
  // Bodies with visual geometry (a URDF's <visual> meshes and primitives) are drawn with it
  // instead of their collision geometry; off: the collision geometry (what contact sees).
  bool visual_geometry = true;
  // Static geometry between the camera and a dynamic body (e.g. the near walls of a bin) is
  // drawn see-through, with this opacity, after the opaque bodies, and casts no shadow
  // (SeeThroughGeometries).
  bool see_through_static = true;
  float see_through_alpha = 0.25f;
  // Hydroelastic contact patches (docs/contact-model.md §5), coloured by the pressure field through
  // PressureColorMap from pressure_min_Pa to pressure_max_Pa. A patch lies inside its own two
  // bodies: seen through them it is hatched (x-ray: stripes of the exact colour, the body faint
  // between them); other bodies in front hide it. With patches on, their faces' point markers
  // and per-face force arrows give way to the patch and one net force arrow per patch at its
  // centre of pressure. pressure_auto: the UI sets pressure_max_Pa every frame from the
  // snapshot (AutoPressureRange); a range the renderer cannot use (max ≤ min, not finite) falls
  // back to [0, the snapshot's largest pressure].
  bool contact_patches = true;
  bool pressure_auto = true;
  float pressure_min_Pa = 0.0f;
  float pressure_max_Pa = 0.0f;
  // Per face of a patch, the traction (force per area) at its centroid, normal and tangential
  // parts as the normal and friction force arrows, with their own scale.
  bool traction_arrows = false;
  float traction_scale_m_per_Pa = 1e-5f;  // arrow length per pascal
  // Peg-in-hole alignment aids (Snapshot::alignment): the peg's axis extended to the block's
  // top, its landing point (kAlignedColor inside the hole, kMisalignedColor outside) and the
  // hole's outline (kHoleOutlineColor).
  bool alignment = true;
  // The ghost run's dynamic bodies (Render's `ghost`), see-through in kGhostColor.
  bool ghost = true;
  float ghost_alpha = 0.4f;
};

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

class Renderer {
 public:
  // Compiles the shaders found in shader_dir (throws RenderError naming the file).
  explicit Renderer(const std::string& shader_dir);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Takes effect at the next BeginScene (sample count) and Render (shadow map).
  void SetQuality(const RenderQuality& quality);
  const RenderQuality& quality() const;
  // A frame's scene (Render, then any RenderInset) is drawn between these two: BeginScene binds
  // a multisampled offscreen framebuffer of width × height pixels when the quality asks for
  // samples (else leaves the current one bound), EndScene resolves it into the framebuffer that
  // was bound and binds that again. Without them the scene is drawn single-sampled.
  void BeginScene(int width, int height);
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

// Writes RGBA8 rows (top to bottom) as a PNG. Throws RenderError if the file can't be written.
void WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace contactlab
