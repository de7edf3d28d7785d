#include "engine/geometry/convex_hull.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace contactlab {
namespace {

// Distances within this fraction of the points' extent count as zero (coplanar, duplicate).
constexpr double kRelativeTolerance = 1e-9;
// Adjacent hull triangles whose unit normals differ by less than this (1 − cos) are one face.
constexpr double kCoplanarNormalTolerance = 1e-10;

// A fixed, generic direction to break ties between points equally far along a criterion: among
// tied points it picks an extreme one (its maximizer over a face or segment is a vertex), so no
// point inside a face or edge ever enters the hull.
const Eigen::Vector3d kTieBreak(0.3141592653589793, 0.5772156649015329, 0.7568024953079282);

// Index of the best point by `key` (larger is better; within `tol` the tie-break decides), over
// the indices `candidates`, or −1 if empty.
template <typename Key>
int BestPoint(const std::vector<Eigen::Vector3d>& p, const std::vector<int>& candidates, double tol,
              const Key& key, double* best_value) {
  int best = -1;
  double best_key = -std::numeric_limits<double>::infinity();
  for (const int i : candidates) {
    const double k = key(p[i]);
    if (best < 0 || k > best_key + tol ||
        (k >= best_key - tol && kTieBreak.dot(p[i]) > kTieBreak.dot(p[best]))) {
      best = i;
      best_key = k;
    }
  }
  if (best_value) *best_value = best_key;
  return best;
}

struct HullFace {
  std::array<int, 3> v;
  Eigen::Vector3d n;  // unit outward
  double d = 0.0;     // plane n·x = d
  std::vector<int> outside;
  bool alive = true;
  int mark = -1;
};

// Quickhull over p. Returns the triangles (indices into p) of the hull; the vertices used are
// the hull's vertices. One algorithm (initial simplex, then conflict lists, horizon and new
// cone per point), kept in one function so that its invariants read in one place.
std::vector<std::array<int, 3>> Quickhull(const std::vector<Eigen::Vector3d>& p, double eps) {
  const int n = static_cast<int>(p.size());
  std::vector<int> all(n);
  std::iota(all.begin(), all.end(), 0);
  // Initial tetrahedron from extreme points: the lexicographic minimum, the point farthest from
  // it, the farthest from their line, the farthest from their plane.
  int i0 = 0;
  for (int i = 1; i < n; ++i) {
    if (std::lexicographical_compare(p[i].data(), p[i].data() + 3, p[i0].data(),
                                     p[i0].data() + 3)) {
      i0 = i;
    }
  }
  double value = 0.0;
  const int i1 = BestPoint(
      p, all, eps, [&](const Eigen::Vector3d& x) { return (x - p[i0]).norm(); }, &value);
  if (!(value > eps)) throw std::invalid_argument("convex hull: all points coincide");
  const Eigen::Vector3d axis = (p[i1] - p[i0]).normalized();
  const int i2 = BestPoint(
      p, all, eps,
      [&](const Eigen::Vector3d& x) {
        const Eigen::Vector3d r = x - p[i0];
        return (r - r.dot(axis) * axis).norm();
      },
      &value);
  if (!(value > eps)) throw std::invalid_argument("convex hull: all points are collinear");
  const Eigen::Vector3d normal = (p[i1] - p[i0]).cross(p[i2] - p[i0]).normalized();
  const int i3 = BestPoint(
      p, all, eps, [&](const Eigen::Vector3d& x) { return std::abs(normal.dot(x - p[i0])); },
      &value);
  if (!(value > eps)) {
    throw std::invalid_argument("convex hull: all points are coplanar (no volume)");
  }

  std::vector<HullFace> faces;
  std::map<std::pair<int, int>, int> edge_face;  // directed edge (a, b) → its face
  auto add_face = [&](int a, int b, int c) {
    HullFace f;
    f.v = {a, b, c};
    const Eigen::Vector3d nn = (p[b] - p[a]).cross(p[c] - p[a]);
    const double len = nn.norm();
    f.n = len > 0.0 ? Eigen::Vector3d(nn / len) : Eigen::Vector3d::Zero();
    f.d = f.n.dot(p[a]);
    const int index = static_cast<int>(faces.size());
    faces.push_back(std::move(f));
    edge_face[{a, b}] = index;
    edge_face[{b, c}] = index;
    edge_face[{c, a}] = index;
    return index;
  };
  {
    const Eigen::Vector3d inside = 0.25 * (p[i0] + p[i1] + p[i2] + p[i3]);
    const std::array<std::array<int, 3>, 4> tetra{
        {{i0, i1, i2}, {i0, i1, i3}, {i0, i2, i3}, {i1, i2, i3}}};
    for (const auto& t : tetra) {
      const Eigen::Vector3d nn = (p[t[1]] - p[t[0]]).cross(p[t[2]] - p[t[0]]);
      if (nn.dot(inside - p[t[0]]) > 0) {
        add_face(t[0], t[2], t[1]);
      } else {
        add_face(t[0], t[1], t[2]);
      }
    }
  }
  // Each remaining point goes to the face it is farthest above (points above no face are
  // inside and dropped for good).
  auto assign = [&](int i, int first_face) {
    int best = -1;
    double best_d = eps;
    for (int f = first_face; f < static_cast<int>(faces.size()); ++f) {
      if (!faces[f].alive) continue;
      const double d = faces[f].n.dot(p[i]) - faces[f].d;
      if (d > best_d) {
        best_d = d;
        best = f;
      }
    }
    if (best >= 0) faces[best].outside.push_back(i);
  };
  for (int i = 0; i < n; ++i) {
    if (i != i0 && i != i1 && i != i2 && i != i3) assign(i, 0);
  }

  std::vector<int> visible, stack, orphans;
  std::vector<std::pair<int, int>> horizon;
  for (int fi = 0; fi < static_cast<int>(faces.size()); ++fi) {
    if (!faces[fi].alive || faces[fi].outside.empty()) continue;
    const Eigen::Vector3d seed_n = faces[fi].n;
    const double seed_d = faces[fi].d;
    const int apex = BestPoint(
        p, faces[fi].outside, eps, [&](const Eigen::Vector3d& x) { return seed_n.dot(x) - seed_d; },
        nullptr);
    const Eigen::Vector3d& q = p[apex];
    // The faces q sees, by flood fill from the seed (a connected set, so its boundary is one
    // loop even when round-off would make a scan over all faces disagree).
    visible.clear();
    stack.assign(1, fi);
    faces[fi].mark = fi;
    while (!stack.empty()) {
      const int f = stack.back();
      stack.pop_back();
      visible.push_back(f);
      for (int k = 0; k < 3; ++k) {
        const int a = faces[f].v[k], b = faces[f].v[(k + 1) % 3];
        const int g = edge_face.at({b, a});
        if (faces[g].mark == fi) continue;
        if (faces[g].n.dot(q) - faces[g].d > eps) {
          faces[g].mark = fi;
          stack.push_back(g);
        }
      }
    }
    horizon.clear();
    for (const int f : visible) {
      for (int k = 0; k < 3; ++k) {
        const int a = faces[f].v[k], b = faces[f].v[(k + 1) % 3];
        const int g = edge_face.at({b, a});
        if (faces[g].mark != fi) horizon.emplace_back(a, b);
      }
    }
    orphans.clear();
    for (const int f : visible) {
      HullFace& face = faces[f];
      face.alive = false;
      for (const int i : face.outside) {
        if (i != apex) orphans.push_back(i);
      }
      face.outside.clear();
      face.outside.shrink_to_fit();
      for (int k = 0; k < 3; ++k) edge_face.erase({face.v[k], face.v[(k + 1) % 3]});
    }
    const int first_new = static_cast<int>(faces.size());
    for (const auto& [a, b] : horizon) add_face(a, b, apex);
    for (const int i : orphans) assign(i, first_new);
  }

  std::vector<std::array<int, 3>> triangles;
  for (const HullFace& f : faces) {
    if (f.alive) triangles.push_back(f.v);
  }
  return triangles;
}

// Groups adjacent triangles with (nearly) equal normals into faces; returns the face of each
// triangle and fills `faces` / `face_vertices` of `hull` (the polygon of each group).
void MergeCoplanarTriangles(ConvexPolyhedron* hull) {
  const auto& v = hull->vertices_G;
  const auto& tris = hull->triangles;
  const int nt = static_cast<int>(tris.size());
  std::map<std::pair<int, int>, int> edge_triangle;
  std::vector<Eigen::Vector3d> normal(nt), area_normal(nt);
  for (int t = 0; t < nt; ++t) {
    for (int k = 0; k < 3; ++k) edge_triangle[{tris[t][k], tris[t][(k + 1) % 3]}] = t;
    area_normal[t] = (v[tris[t][1]] - v[tris[t][0]]).cross(v[tris[t][2]] - v[tris[t][0]]);
    normal[t] = area_normal[t].normalized();
  }
  hull->triangle_face.assign(nt, -1);
  hull->faces.clear();
  hull->face_vertices.clear();
  std::vector<int> group, stack;
  for (int seed = 0; seed < nt; ++seed) {
    if (hull->triangle_face[seed] >= 0) continue;
    const int face_index = static_cast<int>(hull->faces.size());
    group.clear();
    stack.assign(1, seed);
    hull->triangle_face[seed] = face_index;
    // Flood fill against the seed's normal (not the neighbour's), so that a finely tessellated
    // curved surface never chains into one face.
    while (!stack.empty()) {
      const int t = stack.back();
      stack.pop_back();
      group.push_back(t);
      for (int k = 0; k < 3; ++k) {
        const int u = edge_triangle.at({tris[t][(k + 1) % 3], tris[t][k]});
        if (hull->triangle_face[u] < 0 &&
            normal[u].dot(normal[seed]) > 1.0 - kCoplanarNormalTolerance) {
          hull->triangle_face[u] = face_index;
          stack.push_back(u);
        }
      }
    }
    // The polygon: the group's boundary edges (their twin lies in another face) chained.
    Eigen::Vector3d n = Eigen::Vector3d::Zero();
    std::map<int, int> next;
    for (const int t : group) {
      n += area_normal[t];
      for (int k = 0; k < 3; ++k) {
        const int a = tris[t][k], b = tris[t][(k + 1) % 3];
        if (hull->triangle_face[edge_triangle.at({b, a})] != face_index) next[a] = b;
      }
    }
    ConvexPolyhedron::Face face;
    face.normal_G = n.normalized();
    face.first = static_cast<int>(hull->face_vertices.size());
    const int start = next.begin()->first;
    int a = start;
    face.offset_m = -std::numeric_limits<double>::infinity();
    do {
      hull->face_vertices.push_back(a);
      face.offset_m = std::max(face.offset_m, face.normal_G.dot(v[a]));
      a = next.at(a);
    } while (a != start && static_cast<int>(hull->face_vertices.size()) - face.first <=
                               static_cast<int>(next.size()));
    face.count = static_cast<int>(hull->face_vertices.size()) - face.first;
    hull->faces.push_back(face);
  }
}

}  // namespace

PolyhedronMassProperties ComputePolyhedronMassProperties(
    const std::vector<Eigen::Vector3d>& vertices,
    const std::vector<std::array<int, 3>>& triangles) {
  // Sum over the tetrahedra (0, a, b, c) of signed volume det/6 and second moment
  // ∫ x xᵀ dV = det/120 · (a aᵀ + b bᵀ + c cᵀ + s sᵀ), s = a + b + c (Tonon, "Explicit exact
  // formulas for the 3-D tetrahedron inertia tensor in terms of its vertex coordinates", 2004).
  // Origin at the vertex mean to keep round-off small for meshes far from their frame's origin.
  PolyhedronMassProperties m;
  if (vertices.empty()) return m;
  Eigen::Vector3d o = Eigen::Vector3d::Zero();
  for (const auto& x : vertices) o += x;
  o /= static_cast<double>(vertices.size());
  double volume = 0.0;
  Eigen::Vector3d first = Eigen::Vector3d::Zero();
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();
  for (const auto& t : triangles) {
    const Eigen::Vector3d a = vertices[t[0]] - o, b = vertices[t[1]] - o, c = vertices[t[2]] - o;
    const double det = a.dot(b.cross(c));
    const Eigen::Vector3d s = a + b + c;
    volume += det / 6.0;
    first += det / 24.0 * s;
    second += det / 120.0 *
              (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  m.volume_m3 = volume;
  if (!(volume > 0.0)) return m;
  const Eigen::Vector3d c = first / volume;  // relative to o
  m.centroid_G = o + c;
  const Eigen::Matrix3d about_centroid = second - volume * c * c.transpose();
  m.unit_density_inertia = about_centroid.trace() * Eigen::Matrix3d::Identity() - about_centroid;
  return m;
}

int ConvexPolyhedron::SupportVertex(const Eigen::Vector3d& d_G) const {
  int best = 0;
  double best_value = d_G.dot(vertices_G[0]);
  for (int i = 1; i < num_vertices(); ++i) {
    const double value = d_G.dot(vertices_G[i]);
    if (value > best_value) {
      best_value = value;
      best = i;
    }
  }
  return best;
}

double HullPlaneDistance(const ConvexPolyhedron& hull, const Eigen::Vector3d& p_G) {
  double d = -std::numeric_limits<double>::infinity();
  for (const auto& f : hull.faces) d = std::max(d, f.normal_G.dot(p_G) - f.offset_m);
  return d;
}

ConvexPolyhedron ComputeConvexHull(const std::vector<Eigen::Vector3d>& points) {
  if (points.size() < 4) {
    throw std::invalid_argument("convex hull: needs at least 4 points, got " +
                                std::to_string(points.size()));
  }
  Eigen::Vector3d lower = points[0], upper = points[0];
  for (const auto& x : points) {
    if (!x.allFinite()) throw std::invalid_argument("convex hull: a point is not finite");
    lower = lower.cwiseMin(x);
    upper = upper.cwiseMax(x);
  }
  const double extent = (upper - lower).norm();
  const double eps = kRelativeTolerance * extent;

  std::vector<Eigen::Vector3d> input = points;
  ConvexPolyhedron hull;
  // Two passes at most: if round-off let a point inside a face or on an edge into the hull, the
  // hull of the extreme vertices alone is built again.
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<std::array<int, 3>> tris = Quickhull(input, eps);
    // Compact the vertices to those used.
    std::vector<int> remap(input.size(), -1);
    hull = ConvexPolyhedron();
    for (const auto& t : tris) {
      std::array<int, 3> u;
      for (int k = 0; k < 3; ++k) {
        if (remap[t[k]] < 0) {
          remap[t[k]] = static_cast<int>(hull.vertices_G.size());
          hull.vertices_G.push_back(input[t[k]]);
        }
        u[k] = remap[t[k]];
      }
      hull.triangles.push_back(u);
    }
    MergeCoplanarTriangles(&hull);
    // A vertex is extreme iff it lies on at least 3 distinct faces.
    std::vector<std::vector<int>> vertex_faces(hull.vertices_G.size());
    for (size_t t = 0; t < hull.triangles.size(); ++t) {
      for (const int i : hull.triangles[t]) {
        auto& list = vertex_faces[i];
        if (std::find(list.begin(), list.end(), hull.triangle_face[t]) == list.end()) {
          list.push_back(hull.triangle_face[t]);
        }
      }
    }
    std::vector<Eigen::Vector3d> extreme;
    for (size_t i = 0; i < hull.vertices_G.size(); ++i) {
      if (vertex_faces[i].size() >= 3) extreme.push_back(hull.vertices_G[i]);
    }
    if (extreme.size() == hull.vertices_G.size() || pass == 1) break;
    input = std::move(extreme);
  }

  // Edge graph.
  const int nv = hull.num_vertices();
  std::vector<std::vector<int>> adjacent(nv);
  for (const auto& t : hull.triangles) {
    for (int k = 0; k < 3; ++k) {
      // Every edge appears once in each direction: record it from its first vertex only.
      adjacent[t[k]].push_back(t[(k + 1) % 3]);
    }
  }
  hull.neighbor_offsets.assign(nv + 1, 0);
  for (int i = 0; i < nv; ++i) {
    hull.neighbor_offsets[i + 1] = hull.neighbor_offsets[i] + static_cast<int>(adjacent[i].size());
    hull.neighbors.insert(hull.neighbors.end(), adjacent[i].begin(), adjacent[i].end());
  }
  hull.mass = ComputePolyhedronMassProperties(hull.vertices_G, hull.triangles);
  Eigen::Vector3d hl = hull.vertices_G[0], hu = hull.vertices_G[0];
  for (const auto& x : hull.vertices_G) {
    hl = hl.cwiseMin(x);
    hu = hu.cwiseMax(x);
  }
  hull.half_size_m = 0.5 * (hu - hl).maxCoeff();
  return hull;
}

}  // namespace contactlab
