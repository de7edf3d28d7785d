#include "engine/hydroelastic/rigid_faces.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace contactlab::hydroelastic {
namespace {

using Corners = std::vector<int>;

// Relative tolerance of the coplanarity and collinearity tests: rounding of the generators'
// vertices, far below any real crease.
constexpr double kTolerance = 1e-12;

uint64_t EdgeKey(int from, int to) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(from)) << 32) | static_cast<uint32_t>(to);
}

// `c` rotated to start at corner `first`.
Corners StartingAt(const Corners& c, int first) {
  const auto it = std::find(c.begin(), c.end(), first);
  Corners out(it, c.end());
  out.insert(out.end(), c.begin(), it);
  return out;
}

// P ∪ Q for P holding the edge a→b and Q the edge b→a (both counter-clockwise about n): P from b
// round to a, then Q's corners strictly between a and b. Collinear corners are dropped; empty
// if a corner is reflex or the union has more than kMaxCorners corners.
Corners Glue(const Corners& P, const Corners& Q, int a, int b, const Eigen::Vector3d& n,
             const std::vector<Eigen::Vector3d>& x) {
  Corners joined = StartingAt(P, b);
  const Corners q = StartingAt(Q, a);
  joined.insert(joined.end(), q.begin() + 1, q.end() - 1);
  Corners out;
  const int m = static_cast<int>(joined.size());
  for (int i = 0; i < m; ++i) {
    const Eigen::Vector3d in = x[joined[i]] - x[joined[(i + m - 1) % m]];
    const Eigen::Vector3d on = x[joined[(i + 1) % m]] - x[joined[i]];
    const double turn = in.cross(on).dot(n);
    const double tolerance = kTolerance * in.norm() * on.norm();
    if (turn > tolerance) {
      out.push_back(joined[i]);
    } else if (!(std::abs(turn) <= tolerance && in.dot(on) > 0)) {
      return {};  // reflex (or a fold back): the union is not convex
    }
  }
  if (out.size() < 3 || out.size() > static_cast<size_t>(RigidFace::kMaxCorners)) return {};
  return out;
}

bool Coplanar(const Eigen::Vector3d& n_P, const Eigen::Vector3d& n_Q, const Corners& Q,
              const Eigen::Vector3d& on_P, const std::vector<Eigen::Vector3d>& x, double size) {
  if (!(n_P.dot(n_Q) >= 1 - kTolerance)) return false;  // also rejects degenerate faces
  for (int v : Q) {
    if (std::abs(n_P.dot(x[v] - on_P)) > kTolerance * size) return false;
  }
  return true;
}

}  // namespace

// Greedy merging over a work list: a face that grew is looked at again, until no face has a
// coplanar neighbour it can take in and stay convex. One algorithm, kept whole.
std::vector<RigidFace> MergeCoplanarTriangles(const TriangleSurfaceMesh& mesh) {
  const std::vector<Eigen::Vector3d>& x = mesh.vertices_m;
  const int nt = mesh.num_triangles();
  Eigen::Vector3d lower = Eigen::Vector3d::Zero(), upper = Eigen::Vector3d::Zero();
  if (!x.empty()) lower = upper = x[0];
  for (const auto& p : x) {
    lower = lower.cwiseMin(p);
    upper = upper.cwiseMax(p);
  }
  const double size = (upper - lower).norm();

  std::vector<Corners> corners(nt);
  std::vector<Eigen::Vector3d> normal(nt);
  std::vector<bool> alive(nt, true);
  std::unordered_map<uint64_t, int> edge_face;  // directed edge → the face holding it
  edge_face.reserve(3 * static_cast<size_t>(nt));
  for (int t = 0; t < nt; ++t) {
    const auto& k = mesh.triangles[t];
    corners[t] = {k[0], k[1], k[2]};
    normal[t] = mesh.FaceNormal(t);
    for (int i = 0; i < 3; ++i) edge_face[EdgeKey(k[i], k[(i + 1) % 3])] = t;
  }
  std::vector<int> work(nt);
  for (int t = 0; t < nt; ++t) work[t] = nt - 1 - t;
  while (!work.empty()) {
    const int f = work.back();
    work.pop_back();
    if (!alive[f]) continue;
    const Corners& P = corners[f];
    for (size_t i = 0; i < P.size(); ++i) {
      const int a = P[i], b = P[(i + 1) % P.size()];
      const auto twin = edge_face.find(EdgeKey(b, a));
      if (twin == edge_face.end() || twin->second == f) continue;
      const int g = twin->second;
      if (!Coplanar(normal[f], normal[g], corners[g], x[a], x, size)) continue;
      Corners merged = Glue(P, corners[g], a, b, normal[f], x);
      if (merged.empty()) continue;
      for (const int face : {f, g}) {
        const Corners& c = corners[face];
        for (size_t j = 0; j < c.size(); ++j) {
          const auto edge = edge_face.find(EdgeKey(c[j], c[(j + 1) % c.size()]));
          if (edge != edge_face.end() && edge->second == face) edge_face.erase(edge);
        }
      }
      corners[f] = std::move(merged);
      for (size_t j = 0; j < corners[f].size(); ++j) {
        edge_face[EdgeKey(corners[f][j], corners[f][(j + 1) % corners[f].size()])] = f;
      }
      alive[g] = false;
      work.push_back(f);
      break;  // P changed: f is looked at again from the work list
    }
  }

  std::vector<RigidFace> faces;
  for (int t = 0; t < nt; ++t) {
    if (!alive[t]) continue;
    RigidFace face;
    face.num_corners = static_cast<int>(corners[t].size());
    face.corners.fill(corners[t][0]);
    std::copy(corners[t].begin(), corners[t].end(), face.corners.begin());
    face.normal = normal[t];
    faces.push_back(face);
  }
  return faces;
}

}  // namespace contactlab::hydroelastic
