#include "engine/hydroelastic/volume_mesh_generators.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace contactlab::hydroelastic {
namespace {

int ShellCount(double depth_m, double edge_length_m) {
  return std::max(2, static_cast<int>(std::ceil(depth_m / edge_length_m - 1e-9)));
}

Eigen::Vector3d Clamp(const Eigen::Vector3d& p, const Eigen::Vector3d& bound) {
  return p.cwiseMax(-bound).cwiseMin(bound);
}

}  // namespace

VolumeMeshWithEpsilon MakeShelledVolumeMesh(
    const TriangleSurfaceMesh& surface,
    const std::function<Eigen::Vector3d(const Eigen::Vector3d&)>& anchor, int num_shells,
    const Eigen::Vector3d& core_center) {
  if (num_shells < 1) throw std::invalid_argument("shelled volume mesh: num_shells must be ≥ 1");
  const int n = num_shells;
  Eigen::Vector3d lo = surface.vertices_m[0], hi = lo;
  for (const auto& p : surface.vertices_m) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const double size = (hi - lo).norm();
  VertexWelder welder(1e-9 * size);
  std::vector<double> eps;
  auto add_vertex = [&](const Eigen::Vector3d& x, double e) {
    const int k = welder.Add(x);
    if (k == static_cast<int>(eps.size())) eps.push_back(e);
    return k;
  };
  const int center = add_vertex(core_center, 1.0);
  // id[v * (n + 1) + j]: shell j ≥ 1 of surface vertex v (j = n is the surface itself).
  std::vector<int> id(surface.vertices_m.size() * (n + 1), -1);
  for (size_t v = 0; v < surface.vertices_m.size(); ++v) {
    const Eigen::Vector3d& p = surface.vertices_m[v];
    const Eigen::Vector3d q = anchor(p);
    for (int j = 1; j <= n; ++j) {
      const Eigen::Vector3d x = j == n ? p : Eigen::Vector3d(q + (double(j) / n) * (p - q));
      id[v * (n + 1) + j] = add_vertex(x, 1.0 - double(j) / n);
    }
  }
  VolumeMeshWithEpsilon out;
  out.mesh.vertices_m = welder.points();
  out.epsilon = std::move(eps);
  const double min_volume = 1e-15 * size * size * size;
  auto add_tet = [&](int a, int b, int c, int d) {
    if (a == b || a == c || a == d || b == c || b == d || c == d) return;
    const auto& x = out.mesh.vertices_m;
    const double vol = SignedTetVolume(x[a], x[b], x[c], x[d]);
    if (std::abs(vol) <= min_volume) return;
    if (vol > 0) {
      out.mesh.tets.push_back({a, b, c, d});
    } else {
      out.mesh.tets.push_back({a, b, d, c});
    }
  };
  for (auto tri : surface.triangles) {
    // Core: shell 1 is star-shaped about the centre; fan it (a cone of the triangle).
    add_tet(center, id[tri[0] * (n + 1) + 1], id[tri[1] * (n + 1) + 1], id[tri[2] * (n + 1) + 1]);
    // Sorting by surface index makes every quad side face use the diagonal from its
    // lower-index inner vertex to its higher-index outer vertex, the same choice in both
    // prisms that share the face.
    std::sort(tri.begin(), tri.end());
    for (int j = 2; j <= n; ++j) {
      const int a = id[tri[0] * (n + 1) + j - 1], b = id[tri[1] * (n + 1) + j - 1],
                c = id[tri[2] * (n + 1) + j - 1];
      const int A = id[tri[0] * (n + 1) + j], B = id[tri[1] * (n + 1) + j],
                C = id[tri[2] * (n + 1) + j];
      add_tet(a, b, c, C);
      add_tet(a, b, B, C);
      add_tet(a, A, B, C);
    }
  }
  return out;
}

VolumeMeshWithEpsilon MakeBoxVolumeMesh(const Eigen::Vector3d& h, double edge_length_m) {
  const auto surface = MakeBoxSurfaceMesh(h, edge_length_m);
  const double r = h.minCoeff();
  const Eigen::Vector3d medial = h - Eigen::Vector3d::Constant(r);
  return MakeShelledVolumeMesh(
      surface, [&](const Eigen::Vector3d& p) { return Clamp(p, medial); },
      ShellCount(r, edge_length_m), Eigen::Vector3d::Zero());
}

VolumeMeshWithEpsilon MakeSphereVolumeMesh(double R, double edge_length_m) {
  return MakeShelledVolumeMesh(
      MakeSphereSurfaceMesh(R, edge_length_m),
      [](const Eigen::Vector3d&) { return Eigen::Vector3d::Zero(); }, ShellCount(R, edge_length_m),
      Eigen::Vector3d::Zero());
}

VolumeMeshWithEpsilon MakeCylinderVolumeMesh(double R, double length_m, double edge_length_m) {
  const double hl = 0.5 * length_m;
  const auto surface = MakeCylinderSurfaceMesh(R, length_m, edge_length_m);
  std::function<Eigen::Vector3d(const Eigen::Vector3d&)> anchor;
  if (hl >= R) {
    // Medial segment on the axis.
    anchor = [=](const Eigen::Vector3d& p) {
      return Eigen::Vector3d(0, 0, std::clamp(p.z(), -(hl - R), hl - R));
    };
  } else {
    // Flat cylinder: medial disk z = 0, ρ ≤ R − hl.
    anchor = [=](const Eigen::Vector3d& p) {
      const double rho = std::hypot(p.x(), p.y());
      const double s = rho > R - hl ? (R - hl) / rho : 1.0;
      return Eigen::Vector3d(s * p.x(), s * p.y(), 0.0);
    };
  }
  return MakeShelledVolumeMesh(surface, anchor, ShellCount(std::min(R, hl), edge_length_m),
                               Eigen::Vector3d::Zero());
}

VolumeMeshWithEpsilon MakeCapsuleVolumeMesh(double R, double length_m, double edge_length_m) {
  const double hl = 0.5 * length_m;
  return MakeShelledVolumeMesh(
      MakeCapsuleSurfaceMesh(R, length_m, edge_length_m),
      [=](const Eigen::Vector3d& p) { return Eigen::Vector3d(0, 0, std::clamp(p.z(), -hl, hl)); },
      ShellCount(R, edge_length_m), Eigen::Vector3d::Zero());
}

VolumeMeshWithEpsilon MakeConvexVolumeMesh(const std::vector<std::array<Eigen::Vector3d, 3>>& soup,
                                           int num_shells) {
  const auto surface = MakeConvexSurfaceMesh(soup);
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (const auto& p : surface.vertices_m) mean += p;
  mean /= surface.num_vertices();
  return MakeShelledVolumeMesh(
      surface, [&](const Eigen::Vector3d&) { return mean; }, num_shells, mean);
}

}  // namespace contactlab::hydroelastic
