#include "ui/view/gliding_line.h"

#include <cmath>

namespace contactlab {

std::optional<GlidingLine> ComputeGlidingLine(const ContactResult& c, int body) {
  const bool pressed =
      c.state == ContactResult::State::kStick || c.state == ContactResult::State::kSlip;
  if (!pressed || c.hydroelastic_patch >= 0 || body < 0) return std::nullopt;
  if (body != c.body_a && body != c.body_b) return std::nullopt;
  const Eigen::Vector3d n = c.normal_W.normalized();
  if (!n.allFinite() || !c.position_W.allFinite() || !std::isfinite(c.signed_distance_m) ||
      !std::isfinite(c.gliding_offset_m)) {
    return std::nullopt;
  }
  // Towards `body`: +n̂ when it is B (n̂ points from A into B), −n̂ when it is A.
  const double towards = body == c.body_b ? 1.0 : -1.0;
  GlidingLine line;
  line.surface_W = c.position_W - towards * 0.5 * c.signed_distance_m * n;
  line.offset_m = c.gliding_offset_m;
  line.predicted_W = line.surface_W + towards * c.gliding_offset_m * n;
  Eigen::Vector3d t = c.slip_velocity_W - c.slip_velocity_W.dot(n) * n;
  if (!(t.norm() > 1e-12)) t = n.unitOrthogonal();
  line.tangent_W = t.normalized();
  return line;
}

}  // namespace contactlab
