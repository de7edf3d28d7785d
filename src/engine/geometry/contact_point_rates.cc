#include "engine/geometry/contact_point_rates.h"

#include <array>
#include <cmath>

namespace contactlab {
namespace {

using Core = ContactFeature::Core;
using Normal = ContactFeature::Normal;

// The two sides of a contact (0: A, 1: B) with their cores c (p_A = c_A + r_A·n̂,
// p_B = c_B − r_B·n̂; docs/contact-model.md §9), the core gap g = n̂·(c_B − c_A) and the rates
// found so far.
class RatesSolver {
 public:
  RatesSolver(const ContactPoint& point, const PosedShapeMotion& a, const PosedShapeMotion& b)
      : point_(point),
        motion_{&a, &b},
        side_{&point.feature.a, &point.feature.b},
        n_(point.normal_W) {
    core_[0] = point.p_A_W - side_[0]->radius_m * n_;
    core_[1] = point.p_B_W + side_[1]->radius_m * n_;
    gap_ = n_.dot(core_[1] - core_[0]);
  }

  ContactPointRates Solve() {
    const Normal normal = point_.feature.normal;
    if (normal != Normal::kCentres) n_dot_ = NormalRate(normal);
    if (side_[0]->core == Core::kOnLine && side_[1]->core == Core::kOnLine &&
        normal != Normal::kCentres) {
      SolveLines();
    } else {
      // Cores that depend on nothing else first, then those that follow the other core; a
      // cycle (not made by the narrow phase) falls back to material points.
      for (int s = 0; s < 2; ++s) {
        if (!NeedsOther(s)) SolveCore(s);
      }
      for (int s = 0; s < 2; ++s) {
        if (!known_[s] && known_[1 - s]) SolveCore(s);
      }
      for (int s = 0; s < 2; ++s) {
        if (!known_[s]) SetCore(s, Velocity(s, core_[s]));
      }
    }
    if (normal == Normal::kCentres) {
      const Eigen::Vector3d d = core_dot_[1] - core_dot_[0];
      n_dot_ = (d - n_ * n_.dot(d)) / gap_;
    }
    return Assemble();
  }

 private:
  // Velocity of side s's material point at p_W.
  Eigen::Vector3d Velocity(int s, const Eigen::Vector3d& p_W) const {
    return motion_[s]->v_W + motion_[s]->w_W.cross(p_W - motion_[s]->X_WG.translation());
  }
  Eigen::Vector3d ToWorld(int s, const Eigen::Vector3d& d_G) const {
    return motion_[s]->X_WG.linear() * d_G;
  }
  // Towards the other side: +n̂ from A, −n̂ from B.
  Eigen::Vector3d Towards(int s) const { return s == 0 ? n_ : Eigen::Vector3d(-n_); }
  bool NeedsOther(int s) const {
    const Core c = side_[s]->core;
    return c == Core::kOnLine || c == Core::kOnPlane || c == Core::kRimToward;
  }
  void SetCore(int s, const Eigen::Vector3d& rate) {
    core_dot_[s] = rate;
    known_[s] = true;
  }

  Eigen::Vector3d NormalRate(Normal normal) const {
    switch (normal) {
      case Normal::kFixedInA:
        return motion_[0]->w_W.cross(n_);
      case Normal::kFixedInB:
        return motion_[1]->w_W.cross(n_);
      default: {
        // n̂ = ±x/|x|, x = e_A × e_B.
        const Eigen::Vector3d e_A = ToWorld(0, point_.feature.edge_A_G);
        const Eigen::Vector3d e_B = ToWorld(1, point_.feature.edge_B_G);
        const Eigen::Vector3d x = e_A.cross(e_B);
        const Eigen::Vector3d x_dot =
            motion_[0]->w_W.cross(e_A).cross(e_B) + e_A.cross(motion_[1]->w_W.cross(e_B));
        const double sign = n_.dot(x) >= 0 ? 1.0 : -1.0;
        return sign * (x_dot - n_ * n_.dot(x_dot)) / x.norm();
      }
    }
  }

  // Both cores on their lines: c_B − c_A = g·n̂ with each core sliding along its line.
  void SolveLines() {
    const Eigen::Vector3d e_A = ToWorld(0, side_[0]->axis_G), e_B = ToWorld(1, side_[1]->axis_G);
    const Eigen::Vector3d v_A = Velocity(0, core_[0]), v_B = Velocity(1, core_[1]);
    Eigen::Matrix3d M;
    M << -e_A, e_B, -n_;
    const Eigen::Vector3d x = M.partialPivLu().solve(gap_ * n_dot_ - (v_B - v_A));
    SetCore(0, v_A + x[0] * e_A);
    SetCore(1, v_B + x[1] * e_B);
  }

  void SolveCore(int s) {
    const int o = 1 - s;
    const ContactFeature::Side& side = *side_[s];
    const Eigen::Vector3d& c = core_[s];
    const Eigen::Vector3d v = Velocity(s, c);
    // With the normal along the cores a core cannot follow the normal: a material point then
    // (not made by the narrow phase but for the ends of near-parallel lines).
    const bool follows_normal = side.core == Core::kEdgeCut || side.core == Core::kRimSupport;
    if (follows_normal && point_.feature.normal == Normal::kCentres) return SetCore(s, v);
    switch (side.core) {
      case Core::kMaterial:
        return SetCore(s, v);
      case Core::kOnLine: {
        // The foot of the other core on the line.
        const Eigen::Vector3d e = ToWorld(s, side.axis_G);
        const double slide =
            (core_dot_[o] - v).dot(e) + (core_[o] - c).dot(motion_[s]->w_W.cross(e));
        return SetCore(s, v + slide * e);
      }
      case Core::kOnPlane: {
        // c = c_o + h·n̂ on the plane m·(c − c₀) = 0 turning with side s.
        const Eigen::Vector3d m = ToWorld(s, side.axis_G);
        const double h = n_.dot(c - core_[o]);
        const double h_dot = m.dot(v - core_dot_[o] - h * n_dot_) / m.dot(n_);
        return SetCore(s, core_dot_[o] + h_dot * n_ + h * n_dot_);
      }
      case Core::kEdgeCut: {
        // On the line e through c, in the plane through c_o spanned by the other's edge and n̂.
        const Eigen::Vector3d e = ToWorld(s, side.axis_G), edge = ToWorld(o, side.aux_G);
        const Eigen::Vector3d m = edge.cross(n_);
        const Eigen::Vector3d m_dot = motion_[o]->w_W.cross(edge).cross(n_) + edge.cross(n_dot_);
        const double slide =
            -(m_dot.dot(c - core_[o]) + m.dot(v - Velocity(o, core_[o]))) / m.dot(e);
        return SetCore(s, v + slide * e);
      }
      case Core::kRimToward:
      case Core::kRimSupport:
        return SetCore(s, RimRate(s));
    }
  }

  // A rim point o + R·(cos θ·u + sin θ·a × u), u the unit projection of w on the rim's plane:
  // w = c_o − o towards the other core, or the direction towards the other shape.
  Eigen::Vector3d RimRate(int s) const {
    const ContactFeature::Side& side = *side_[s];
    const Eigen::Vector3d o = motion_[s]->X_WG * side.aux_G;
    const Eigen::Vector3d a = ToWorld(s, side.axis_G);
    const Eigen::Vector3d a_dot = motion_[s]->w_W.cross(a);
    const Eigen::Vector3d v_o = Velocity(s, o);
    const bool toward = side.core == Core::kRimToward;
    const Eigen::Vector3d w = toward ? Eigen::Vector3d(core_[1 - s] - o) : Towards(s);
    const Eigen::Vector3d w_dot = toward ? Eigen::Vector3d(core_dot_[1 - s] - v_o)
                                         : Eigen::Vector3d(s == 0 ? n_dot_ : -n_dot_);
    const Eigen::Vector3d wp = w - a * a.dot(w);
    const Eigen::Vector3d wp_dot = w_dot - a * a.dot(w_dot) - a * w.dot(a_dot) - a_dot * w.dot(a);
    const double len = wp.norm();
    const Eigen::Vector3d u = wp / len;
    const Eigen::Vector3d u_dot = (wp_dot - u * u.dot(wp_dot)) / len;
    const double radius = motion_[s]->shape.radius_m;
    const double cos_t = std::cos(side.angle_rad), sin_t = std::sin(side.angle_rad);
    return v_o + radius * (cos_t * u_dot + sin_t * (a_dot.cross(u) + a.cross(u_dot)));
  }

  // The rates of MakeContact's witness points (contact_utils.h) from the cores'.
  ContactPointRates Assemble() const {
    ContactPointRates r;
    const double gap_dot = n_.dot(core_dot_[1] - core_dot_[0]);
    const Eigen::Vector3d mid_dot = 0.5 * (core_dot_[0] + core_dot_[1]);
    r.signed_distance_m_per_s = gap_dot;
    r.normal_W = n_dot_;
    r.p_A_W = mid_dot - 0.5 * gap_dot * n_ - (0.5 * gap_ - side_[0]->radius_m) * n_dot_;
    r.p_B_W = mid_dot + 0.5 * gap_dot * n_ + (0.5 * gap_ - side_[1]->radius_m) * n_dot_;
    return r;
  }

  const ContactPoint& point_;
  std::array<const PosedShapeMotion*, 2> motion_;
  std::array<const ContactFeature::Side*, 2> side_;
  Eigen::Vector3d n_;
  std::array<Eigen::Vector3d, 2> core_, core_dot_;
  std::array<bool, 2> known_{false, false};
  double gap_ = 0.0;
  Eigen::Vector3d n_dot_ = Eigen::Vector3d::Zero();
};

}  // namespace

ContactPointRates ComputeContactPointRates(const ContactPoint& point, const PosedShapeMotion& a,
                                           const PosedShapeMotion& b) {
  return RatesSolver(point, a, b).Solve();
}

ContactPoint AdvanceContactPoint(const ContactPoint& point, const PosedShapeMotion& a,
                                 const PosedShapeMotion& b, double dt_s) {
  const ContactPointRates rates = ComputeContactPointRates(point, a, b);
  ContactPoint moved = point;
  moved.normal_W = (point.normal_W + dt_s * rates.normal_W).normalized();
  moved.p_A_W += dt_s * rates.p_A_W;
  moved.p_B_W += dt_s * rates.p_B_W;
  moved.signed_distance_m += dt_s * rates.signed_distance_m_per_s;
  return moved;
}

}  // namespace contactlab
