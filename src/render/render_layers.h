// What the renderer draws of a snapshot and how: the layers the UI toggles and their scales.
#pragma once

#include "render/contact_colors.h"
#include "render/vector_scaling.h"

namespace contactlab {

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
  // Arrow length per newton; an arrow longer than half a fraction of the view's height there is
  // drawn shortened (DrawnForceArrowLength).
  float force_scale_m_per_N = 0.01f;
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
  // The patches' triangles (the contact surface's tessellation) outlined in kPatchEdgeColor.
  bool patch_wireframe = false;
  // Per pressed contact (stick or slip; a face set too) its slip velocity, B relative to A
  // (ContactResult::slip_velocity_W; on a patch the later geometry's, as its force arrows),
  // in kSlipVelocityColor; the scale is the arrow's length per m/s, in seconds.
  bool slip_arrows = false;
  float slip_scale_s = 1.0f;
  // How force, traction and slip arrows are scaled (ArrowLength): linear or log at their
  // scales, or all fixed_arrow_length_px window pixels long; vectors at or below their
  // threshold are not drawn.
  VectorScaling vector_scaling = VectorScaling::kLinear;
  float fixed_arrow_length_px = 40.0f;
  float force_threshold_N = 0.0f;
  float traction_threshold_Pa = 0.0f;
  float slip_threshold_m_per_s = 1e-3f;
  // Peg-in-hole alignment aids (Snapshot::alignment): the peg's axis extended to the block's
  // top, its landing point (kAlignedColor inside the hole, kMisalignedColor outside) and the
  // hole's outline (kHoleOutlineColor).
  bool alignment = true;
  // Error control (docs/contact-model.md §1.2): each body tinted towards kStepErrorColor by its
  // share of the last step's error estimate (Snapshot::position_error_by_body over its
  // largest): the bodies that drove the step size stand out.
  bool step_error = true;
  // The ghost run's dynamic bodies (Render's `ghost`), see-through in kGhostColor.
  bool ghost = true;
  float ghost_alpha = 0.4f;
};

}  // namespace contactlab
