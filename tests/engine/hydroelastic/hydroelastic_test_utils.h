// Shared helpers for the hydroelastic tests.
#pragma once

#include <Eigen/Dense>

namespace contactlab::hydroelastic::testing {

// Exact force of a compliant box (half extents h, medial-axis field, E_h) pressed flat by δ
// into a plane with its face normal to z (δ ≤ inradius r = h_z): the bottom cross-section at
// depth δ has ε = min(δ, distance to the side faces)/r, so
// F = E/r ∫₀^δ (2h_x − 2t)(2h_y − 2t) dt.
inline double BoxOnPlaneForce(const Eigen::Vector3d& h, double E, double delta) {
  const double r = h.minCoeff();
  return 4.0 * E / r *
         (h.x() * h.y() * delta - (h.x() + h.y()) * delta * delta / 2.0 +
          delta * delta * delta / 3.0);
}

}  // namespace contactlab::hydroelastic::testing
