#include "engine/hydroelastic/pressure_field.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace contactlab::hydroelastic {
namespace {

// Distance from p to the triangle (a, b, c) (Ericson, Real-Time Collision Detection §5.1.5).
double PointTriangleDistance(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                             const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return ap.norm();
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return bp.norm();
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return (p - (a + ab * (d1 / (d1 - d3)))).norm();
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return cp.norm();
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return (p - (a + ac * (d2 / (d2 - d6)))).norm();
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    return (p - (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))))).norm();
  }
  const double denom = 1.0 / (va + vb + vc);
  return (p - (a + ab * (vb * denom) + ac * (vc * denom))).norm();
}

}  // namespace

PressureField PressureField::FromEpsilon(const std::vector<double>& epsilon,
                                         double hydroelastic_modulus_Pa) {
  if (!(hydroelastic_modulus_Pa > 0.0) || !std::isfinite(hydroelastic_modulus_Pa)) {
    throw std::invalid_argument("hydroelastic modulus must be positive and finite, got " +
                                std::to_string(hydroelastic_modulus_Pa));
  }
  PressureField field;
  field.hydroelastic_modulus_Pa = hydroelastic_modulus_Pa;
  field.pressure_Pa.reserve(epsilon.size());
  for (double e : epsilon) {
    if (!(e >= 0.0 && e <= 1.0)) {
      throw std::invalid_argument("ε must lie in [0, 1], got " + std::to_string(e));
    }
    field.pressure_Pa.push_back(hydroelastic_modulus_Pa * e);
  }
  return field;
}

PressureField PressureField::FromPressure(std::vector<double> pressure_Pa) {
  PressureField field;
  double max_p = 0.0;
  for (double p : pressure_Pa) {
    if (!(p >= 0.0) || !std::isfinite(p)) {
      throw std::invalid_argument("pressure must be finite and ≥ 0, got " + std::to_string(p));
    }
    max_p = std::max(max_p, p);
  }
  field.hydroelastic_modulus_Pa = max_p;
  field.pressure_Pa = std::move(pressure_Pa);
  return field;
}

std::vector<double> EpsilonFromBoundaryDistance(const VolumeMesh& mesh) {
  const auto faces = mesh.BoundaryFaces();
  const auto on_surface = mesh.SurfaceVertexMask();
  std::vector<double> eps(mesh.vertices_m.size(), 0.0);
  double max_d = 0.0;
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    if (on_surface[v]) continue;
    double d = std::numeric_limits<double>::infinity();
    for (const auto& f : faces) {
      d = std::min(d, PointTriangleDistance(mesh.vertices_m[v], mesh.vertices_m[f[0]],
                                            mesh.vertices_m[f[1]], mesh.vertices_m[f[2]]));
    }
    eps[v] = d;
    max_d = std::max(max_d, d);
  }
  if (max_d <= 0.0) {
    spdlog::warn("hydroelastic: tet mesh has no interior vertex; its pressure field is zero");
    return eps;
  }
  for (double& e : eps) e /= max_d;
  return eps;
}

LinearField ComputeTetLinearField(const VolumeMesh& mesh, const std::vector<double>& values,
                                  int t) {
  const auto& k = mesh.tets[t];
  const Eigen::Vector3d& x0 = mesh.vertices_m[k[0]];
  Eigen::Matrix3d D;
  D.row(0) = (mesh.vertices_m[k[1]] - x0).transpose();
  D.row(1) = (mesh.vertices_m[k[2]] - x0).transpose();
  D.row(2) = (mesh.vertices_m[k[3]] - x0).transpose();
  const Eigen::Vector3d df(values[k[1]] - values[k[0]], values[k[2]] - values[k[0]],
                           values[k[3]] - values[k[0]]);
  LinearField f;
  const double det = D.determinant();
  const double scale = D.rowwise().norm().prod();
  if (std::abs(det) <= 1e-14 * scale) {
    f.offset = 0.25 * (values[k[0]] + values[k[1]] + values[k[2]] + values[k[3]]);
    return f;
  }
  f.gradient = D.inverse() * df;  // D ∇f = Δf (3×3, so the explicit inverse is fine)
  f.offset = values[k[0]] - f.gradient.dot(x0);
  return f;
}

}  // namespace contactlab::hydroelastic
