// Where the gliding overlay goes (issue 12, item 5): while a contact slides, the convex
// approximations hold the bodies apart by the gliding offset δ (docs/contact-model.md §2.5;
// SAP μ(δt + τ_d)‖v_t‖, Similar μδt‖v_t‖, Lagged 0), so a sliding body floats at the height δ
// above the other body's surface. The line is drawn there, at true scale.
#pragma once

#include <Eigen/Dense>
#include <optional>

#include "engine/world/step_results.h"

namespace contactlab {

struct GlidingLine {
  Eigen::Vector3d surface_W;    // on the other body's surface
  Eigen::Vector3d predicted_W;  // surface_W moved by the gliding offset towards `body`
  Eigen::Vector3d tangent_W;    // unit, in the contact plane: the slip direction if slipping
  double offset_m = 0;
};

// For a pressed (kStick, kSlip) point contact of `body`: the contact point is the midpoint of
// the witness points, p_B − p_A = φ·n̂ with n̂ from A into B (engine/geometry/contact_utils.h),
// so the other body's surface point is p ∓ (φ/2)·n̂ (φ at the start of the step, when the
// point was found). std::nullopt for other contacts, hydroelastic faces (a face lies inside
// the overlap: no surface point to draw from) and non-finite data.
std::optional<GlidingLine> ComputeGlidingLine(const ContactResult& c, int body);

}  // namespace contactlab
