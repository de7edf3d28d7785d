#include "engine/hydroelastic/surface_mesh.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace contactlab::hydroelastic {
namespace {

// Sorted values lo = b_0 < … < b_n = hi that include every `kink` strictly inside (lo, hi),
// each interval split into pieces no longer than `edge`.
std::vector<double> Breaks1D(double lo, double hi, std::vector<double> kinks, double edge) {
  std::vector<double> knots{lo};
  std::sort(kinks.begin(), kinks.end());
  const double tol = 1e-12 * std::max(1.0, hi - lo);
  for (double k : kinks) {
    if (k > knots.back() + tol && k < hi - tol) knots.push_back(k);
  }
  knots.push_back(hi);
  std::vector<double> out{lo};
  for (size_t i = 1; i < knots.size(); ++i) {
    const double a = knots[i - 1], b = knots[i];
    const int n = std::max(1, static_cast<int>(std::ceil((b - a) / edge - 1e-9)));
    for (int j = 1; j <= n; ++j) out.push_back(j == n ? b : a + (b - a) * j / n);
  }
  return out;
}

// Flips triangles whose normal points towards `interior` (valid for convex surfaces).
void OrientOutward(const Eigen::Vector3d& interior, TriangleSurfaceMesh* mesh) {
  for (auto& t : mesh->triangles) {
    const Eigen::Vector3d& a = mesh->vertices_m[t[0]];
    const Eigen::Vector3d& b = mesh->vertices_m[t[1]];
    const Eigen::Vector3d& c = mesh->vertices_m[t[2]];
    const Eigen::Vector3d n = (b - a).cross(c - a);
    if (n.dot((a + b + c) / 3.0 - interior) < 0.0) std::swap(t[1], t[2]);
  }
}

// Drops triangles with repeated vertices (from welding coincident points).
void DropDegenerate(TriangleSurfaceMesh* mesh) {
  auto& tris = mesh->triangles;
  tris.erase(std::remove_if(tris.begin(), tris.end(),
                            [](const std::array<int, 3>& t) {
                              return t[0] == t[1] || t[1] == t[2] || t[0] == t[2];
                            }),
             tris.end());
}

// Surface of revolution about z from a profile (ρ_i, z_i) that starts and ends on the axis
// (ρ = 0), with `n_around` vertices per ring.
TriangleSurfaceMesh MakeRevolution(const std::vector<Eigen::Vector2d>& profile, int n_around) {
  TriangleSurfaceMesh mesh;
  std::vector<std::vector<int>> rings;
  for (const auto& rz : profile) {
    std::vector<int> ring;
    if (rz.x() <= 1e-15) {
      ring.push_back(mesh.num_vertices());
      mesh.vertices_m.emplace_back(0.0, 0.0, rz.y());
    } else {
      for (int j = 0; j < n_around; ++j) {
        const double a = 2.0 * std::numbers::pi * j / n_around;
        ring.push_back(mesh.num_vertices());
        mesh.vertices_m.emplace_back(rz.x() * std::cos(a), rz.x() * std::sin(a), rz.y());
      }
    }
    rings.push_back(std::move(ring));
  }
  for (size_t i = 0; i + 1 < rings.size(); ++i) {
    const auto &r0 = rings[i], &r1 = rings[i + 1];
    for (int j = 0; j < n_around; ++j) {
      const int j1 = (j + 1) % n_around;
      if (r0.size() == 1 && r1.size() == 1) continue;
      if (r0.size() == 1) {
        mesh.triangles.push_back({r0[0], r1[j], r1[j1]});
      } else if (r1.size() == 1) {
        mesh.triangles.push_back({r0[j], r0[j1], r1[0]});
      } else {
        mesh.triangles.push_back({r0[j], r0[j1], r1[j1]});
        mesh.triangles.push_back({r0[j], r1[j1], r1[j]});
      }
    }
  }
  OrientOutward(Eigen::Vector3d::Zero(), &mesh);
  return mesh;
}

int AroundCount(double radius_m, double edge_length_m) {
  return std::max(8,
                  static_cast<int>(std::ceil(2.0 * std::numbers::pi * radius_m / edge_length_m)));
}

void CheckPositive(double value, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string("hydroelastic mesh generator: ") + what +
                                " must be positive and finite");
  }
}

}  // namespace

int VertexWelder::Add(const Eigen::Vector3d& p) {
  const double cell = 2.0 * tolerance_m_;
  const std::array<long long, 3> key{std::llround(p.x() / cell), std::llround(p.y() / cell),
                                     std::llround(p.z() / cell)};
  for (int dx = -1; dx <= 1; ++dx) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dz = -1; dz <= 1; ++dz) {
        auto it = cells_.find({key[0] + dx, key[1] + dy, key[2] + dz});
        if (it == cells_.end()) continue;
        for (int i : it->second) {
          if ((points_[i] - p).norm() <= tolerance_m_) return i;
        }
      }
    }
  }
  points_.push_back(p);
  cells_[key].push_back(static_cast<int>(points_.size()) - 1);
  return static_cast<int>(points_.size()) - 1;
}

Eigen::Vector3d TriangleSurfaceMesh::FaceNormal(int t) const {
  const auto& k = triangles[t];
  const Eigen::Vector3d n =
      (vertices_m[k[1]] - vertices_m[k[0]]).cross(vertices_m[k[2]] - vertices_m[k[0]]);
  const double norm = n.norm();
  return norm > 0.0 ? Eigen::Vector3d(n / norm) : Eigen::Vector3d::Zero();
}

double TriangleSurfaceMesh::FaceArea(int t) const {
  const auto& k = triangles[t];
  return 0.5 *
         (vertices_m[k[1]] - vertices_m[k[0]]).cross(vertices_m[k[2]] - vertices_m[k[0]]).norm();
}

double TriangleSurfaceMesh::TotalArea() const {
  double a = 0.0;
  for (int t = 0; t < num_triangles(); ++t) a += FaceArea(t);
  return a;
}

double TriangleSurfaceMesh::EnclosedVolume() const {
  double v = 0.0;
  for (const auto& k : triangles) {
    v += vertices_m[k[0]].dot(vertices_m[k[1]].cross(vertices_m[k[2]])) / 6.0;
  }
  return v;
}

TriangleSurfaceMesh MakeBoxSurfaceMesh(const Eigen::Vector3d& h, double edge_length_m) {
  CheckPositive(h.minCoeff(), "box half extents");
  CheckPositive(edge_length_m, "edge length");
  std::array<std::vector<double>, 3> breaks;
  for (int a = 0; a < 3; ++a) breaks[a] = Breaks1D(-h[a], h[a], {}, edge_length_m);
  VertexWelder welder(1e-9 * h.maxCoeff());
  TriangleSurfaceMesh mesh;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    for (double sign : {-1.0, 1.0}) {
      const auto &bb = breaks[b], &bc = breaks[c];
      std::vector<int> ids(bb.size() * bc.size());
      for (size_t i = 0; i < bb.size(); ++i) {
        for (size_t j = 0; j < bc.size(); ++j) {
          Eigen::Vector3d p;
          p[a] = sign * h[a];
          p[b] = bb[i];
          p[c] = bc[j];
          ids[i * bc.size() + j] = welder.Add(p);
        }
      }
      for (size_t i = 0; i + 1 < bb.size(); ++i) {
        for (size_t j = 0; j + 1 < bc.size(); ++j) {
          const int v00 = ids[i * bc.size() + j], v10 = ids[(i + 1) * bc.size() + j];
          const int v01 = ids[i * bc.size() + j + 1], v11 = ids[(i + 1) * bc.size() + j + 1];
          mesh.triangles.push_back({v00, v10, v11});
          mesh.triangles.push_back({v00, v11, v01});
        }
      }
    }
  }
  mesh.vertices_m = welder.points();
  OrientOutward(Eigen::Vector3d::Zero(), &mesh);
  return mesh;
}

TriangleSurfaceMesh MakeSphereSurfaceMesh(double R, double edge_length_m) {
  CheckPositive(R, "sphere radius");
  CheckPositive(edge_length_m, "edge length");
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
  const std::array<Eigen::Vector3d, 12> ico = {Eigen::Vector3d(-1, phi, 0),
                                               {1, phi, 0},
                                               {-1, -phi, 0},
                                               {1, -phi, 0},
                                               {0, -1, phi},
                                               {0, 1, phi},
                                               {0, -1, -phi},
                                               {0, 1, -phi},
                                               {phi, 0, -1},
                                               {phi, 0, 1},
                                               {-phi, 0, -1},
                                               {-phi, 0, 1}};
  static constexpr int kFaces[20][3] = {
      {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
      {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
      {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  // Icosahedron edge = 1.0515 R; subdivide each face n times along each edge.
  const int n = std::max(1, static_cast<int>(std::ceil(1.0515 * R / edge_length_m - 1e-9)));
  VertexWelder welder(1e-9 * R);
  TriangleSurfaceMesh mesh;
  for (const auto& f : kFaces) {
    const Eigen::Vector3d A = ico[f[0]], B = ico[f[1]], C = ico[f[2]];
    auto id = [&](int i, int j) {
      const Eigen::Vector3d p = A + (B - A) * (double(i) / n) + (C - A) * (double(j) / n);
      return welder.Add(R * p.normalized());
    };
    for (int i = 0; i < n; ++i) {
      for (int j = 0; i + j < n; ++j) {
        mesh.triangles.push_back({id(i, j), id(i + 1, j), id(i, j + 1)});
        if (i + j + 2 <= n)
          mesh.triangles.push_back({id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
      }
    }
  }
  mesh.vertices_m = welder.points();
  OrientOutward(Eigen::Vector3d::Zero(), &mesh);
  return mesh;
}

TriangleSurfaceMesh MakeCylinderSurfaceMesh(double R, double length_m, double edge_length_m) {
  CheckPositive(R, "cylinder radius");
  CheckPositive(length_m, "cylinder length");
  CheckPositive(edge_length_m, "edge length");
  const double hl = 0.5 * length_m;
  // Rings at the medial-axis kinks: z = ±(hl − R) on the side of a long cylinder, ρ = R − hl on
  // the caps of a flat one (see MakeCylinderVolumeMesh).
  const auto radial =
      Breaks1D(0.0, R, hl < R ? std::vector<double>{R - hl} : std::vector<double>{}, edge_length_m);
  const auto axial =
      Breaks1D(-hl, hl, hl > R ? std::vector<double>{-(hl - R), hl - R} : std::vector<double>{},
               edge_length_m);
  std::vector<Eigen::Vector2d> profile;
  for (double rho : radial) profile.emplace_back(rho, -hl);
  for (size_t i = 1; i + 1 < axial.size(); ++i) profile.emplace_back(R, axial[i]);
  for (auto it = radial.rbegin(); it != radial.rend(); ++it) profile.emplace_back(*it, hl);
  return MakeRevolution(profile, AroundCount(R, edge_length_m));
}

TriangleSurfaceMesh MakeCapsuleSurfaceMesh(double R, double length_m, double edge_length_m) {
  CheckPositive(R, "capsule radius");
  CheckPositive(edge_length_m, "edge length");
  if (!(length_m >= 0.0)) throw std::invalid_argument("capsule length must be ≥ 0");
  const double hl = 0.5 * length_m;
  const int m =
      std::max(2, static_cast<int>(std::ceil(0.5 * std::numbers::pi * R / edge_length_m - 1e-9)));
  std::vector<Eigen::Vector2d> profile;
  for (int j = 0; j <= m; ++j) {  // bottom hemisphere, pole to equator
    const double t = -0.5 * std::numbers::pi * (1.0 - double(j) / m);
    profile.emplace_back(j == 0 ? 0.0 : R * std::cos(t), -hl + R * std::sin(t));
  }
  if (hl > 0.0) {
    const auto axial = Breaks1D(-hl, hl, {}, edge_length_m);
    for (size_t i = 1; i + 1 < axial.size(); ++i) profile.emplace_back(R, axial[i]);
  }
  for (int j = hl > 0.0 ? 0 : 1; j <= m; ++j) {  // top hemisphere, equator to pole
    const double t = 0.5 * std::numbers::pi * double(j) / m;
    profile.emplace_back(j == m ? 0.0 : R * std::cos(t), hl + R * std::sin(t));
  }
  return MakeRevolution(profile, AroundCount(R, edge_length_m));
}

TriangleSurfaceMesh MakeConvexSurfaceMesh(const std::vector<std::array<Eigen::Vector3d, 3>>& soup) {
  if (soup.empty()) throw std::invalid_argument("convex mesh: no triangles");
  Eigen::Vector3d lo = soup[0][0], hi = soup[0][0];
  for (const auto& t : soup) {
    for (const auto& p : t) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
  }
  VertexWelder welder(1e-9 * std::max(1e-12, (hi - lo).norm()));
  TriangleSurfaceMesh mesh;
  for (const auto& t : soup)
    mesh.triangles.push_back({welder.Add(t[0]), welder.Add(t[1]), welder.Add(t[2])});
  mesh.vertices_m = welder.points();
  DropDegenerate(&mesh);
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (const auto& p : mesh.vertices_m) mean += p;
  mean /= mesh.num_vertices();
  OrientOutward(mean, &mesh);
  return mesh;
}

}  // namespace contactlab::hydroelastic
