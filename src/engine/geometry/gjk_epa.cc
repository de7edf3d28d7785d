#include "engine/geometry/gjk_epa.h"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "engine/geometry/contact_utils.h"

namespace contactlab::internal {
namespace {

// A vertex of the Minkowski difference A − B with the support points that produced it, so the
// witness points can be recovered from barycentric coordinates.
struct Vertex {
  Eigen::Vector3d w, a, b;
};

Vertex SupportOfDifference(const ConvexCore& A, const ConvexCore& B, const Eigen::Vector3d& dir) {
  Vertex v;
  v.a = A.Support(dir);
  v.b = B.Support(-dir);
  v.w = v.a - v.b;
  return v;
}

// Barycentric coordinates of the point of segment [a, b] closest to the origin.
Eigen::Vector2d ClosestOnSegment(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  const Eigen::Vector3d ab = b - a;
  const double len2 = ab.squaredNorm();
  if (len2 <= 1e-30) return {1.0, 0.0};
  const double t = std::clamp(-a.dot(ab) / len2, 0.0, 1.0);
  return {1.0 - t, t};
}

// Barycentric coordinates of the point of triangle abc closest to the origin (Ericson,
// Real-Time Collision Detection §5.1.5, with the query point at the origin). Vertices not
// used get exactly 0, which the simplex reduction relies on.
Eigen::Vector3d ClosestOnTriangle(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                  const Eigen::Vector3d& c) {
  const Eigen::Vector3d ab = b - a, ac = c - a;
  const double d1 = -ab.dot(a), d2 = -ac.dot(a);
  if (d1 <= 0 && d2 <= 0) return {1, 0, 0};
  const double d3 = -ab.dot(b), d4 = -ac.dot(b);
  if (d3 >= 0 && d4 <= d3) return {0, 1, 0};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double v = d1 / (d1 - d3);
    return {1 - v, v, 0};
  }
  const double d5 = -ab.dot(c), d6 = -ac.dot(c);
  if (d6 >= 0 && d5 <= d6) return {0, 0, 1};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double w = d2 / (d2 - d6);
    return {1 - w, 0, w};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0, 1 - w, w};
  }
  const double sum = va + vb + vc;
  if (!(sum > 1e-300)) {
    // Degenerate (collinear) triangle: the best of its edges.
    Eigen::Vector3d best(1, 0, 0);
    double best_d2 = a.squaredNorm();
    const std::array<std::pair<int, int>, 3> edges{{{0, 1}, {1, 2}, {0, 2}}};
    const std::array<const Eigen::Vector3d*, 3> p{&a, &b, &c};
    for (const auto& [i, j] : edges) {
      const Eigen::Vector2d l = ClosestOnSegment(*p[i], *p[j]);
      const double d2e = (l[0] * *p[i] + l[1] * *p[j]).squaredNorm();
      if (d2e < best_d2) {
        best_d2 = d2e;
        best.setZero();
        best[i] = l[0];
        best[j] = l[1];
      }
    }
    return best;
  }
  const double v = vb / sum, w = vc / sum;
  return {1 - v - w, v, w};
}

struct Simplex {
  std::array<Vertex, 4> v;
  std::array<double, 4> lambda{};
  int n = 0;

  // Keeps only the vertices with positive weight.
  void Compact() {
    int k = 0;
    for (int i = 0; i < n; ++i) {
      if (lambda[i] > 0.0) {
        v[k] = v[i];
        lambda[k] = lambda[i];
        ++k;
      }
    }
    n = k;
  }
  Eigen::Vector3d Point() const {
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    for (int i = 0; i < n; ++i) p += lambda[i] * v[i].w;
    return p;
  }
};

// Replaces the simplex by its smallest sub-simplex containing the point closest to the origin.
// Returns true if the origin is inside a (full) tetrahedron.
bool ReduceSimplex(Simplex* s) {
  switch (s->n) {
    case 1:
      s->lambda[0] = 1.0;
      return false;
    case 2: {
      const Eigen::Vector2d l = ClosestOnSegment(s->v[0].w, s->v[1].w);
      s->lambda[0] = l[0];
      s->lambda[1] = l[1];
      break;
    }
    case 3: {
      const Eigen::Vector3d l = ClosestOnTriangle(s->v[0].w, s->v[1].w, s->v[2].w);
      for (int i = 0; i < 3; ++i) s->lambda[i] = l[i];
      break;
    }
    case 4: {
      // Faces with their opposite vertex.
      static constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
      double best_d2 = std::numeric_limits<double>::infinity();
      std::array<double, 4> best_lambda{};
      bool outside_any = false;
      for (const auto& f : kFaces) {
        const Eigen::Vector3d& a = s->v[f[0]].w;
        const Eigen::Vector3d& b = s->v[f[1]].w;
        const Eigen::Vector3d& c = s->v[f[2]].w;
        const Eigen::Vector3d n = (b - a).cross(c - a);
        const double origin_side = -n.dot(a);
        const double opposite_side = n.dot(s->v[f[3]].w - a);
        const bool degenerate = std::abs(opposite_side) <= 1e-14 * n.norm() * (b - a).norm();
        if (!degenerate && origin_side * opposite_side > 0) continue;  // same side: inside
        outside_any = true;
        const Eigen::Vector3d l = ClosestOnTriangle(a, b, c);
        const double d2 = (l[0] * a + l[1] * b + l[2] * c).squaredNorm();
        if (d2 < best_d2) {
          best_d2 = d2;
          best_lambda = {0, 0, 0, 0};
          best_lambda[f[0]] = l[0];
          best_lambda[f[1]] = l[1];
          best_lambda[f[2]] = l[2];
        }
      }
      if (!outside_any) return true;
      s->lambda = best_lambda;
      break;
    }
    default:
      break;
  }
  s->Compact();
  return false;
}

// Grows a GJK simplex that ended on the origin (touching or shallow contact) into a
// tetrahedron for EPA. Returns false for flat Minkowski differences.
bool ExpandToTetrahedron(const ConvexCore& A, const ConvexCore& B, Simplex* s) {
  constexpr double kMinSpread = 1e-9;
  if (s->n == 1) {
    static const std::array<Eigen::Vector3d, 6> kDirections = {
        Eigen::Vector3d::UnitX(),  -Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(),
        -Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(),  -Eigen::Vector3d::UnitZ()};
    for (const Eigen::Vector3d& d : kDirections) {
      const Vertex w = SupportOfDifference(A, B, d);
      if ((w.w - s->v[0].w).norm() > kMinSpread) {
        s->v[s->n++] = w;
        break;
      }
    }
    if (s->n == 1) return false;
  }
  if (s->n == 2) {
    const Eigen::Vector3d axis = (s->v[1].w - s->v[0].w).normalized();
    const Eigen::Vector3d perp = AnyPerpendicular(axis);
    for (int k = 0; k < 6; ++k) {
      const Eigen::Vector3d d = Eigen::AngleAxisd(k * std::numbers::pi / 3.0, axis) * perp;
      const Vertex w = SupportOfDifference(A, B, d);
      const Eigen::Vector3d rel = w.w - s->v[0].w;
      if ((rel - rel.dot(axis) * axis).norm() > kMinSpread) {
        s->v[s->n++] = w;
        break;
      }
    }
    if (s->n == 2) return false;
  }
  if (s->n == 3) {
    Eigen::Vector3d n = (s->v[1].w - s->v[0].w).cross(s->v[2].w - s->v[0].w);
    if (n.norm() <= 1e-300) return false;
    n.normalize();
    for (const double sign : {1.0, -1.0}) {
      const Vertex w = SupportOfDifference(A, B, sign * n);
      if (std::abs(n.dot(w.w - s->v[0].w)) > kMinSpread) {
        s->v[s->n++] = w;
        break;
      }
    }
    if (s->n == 3) return false;
  }
  return true;
}

CoreDistance FromWitnesses(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                           const Eigen::Vector3d& normal, double signed_distance) {
  CoreDistance r;
  r.point_A_W = a;
  r.point_B_W = b;
  r.normal_W = normal;
  r.signed_distance = signed_distance;
  return r;
}

// Separation along the line of centres: the last resort when EPA cannot run.
CoreDistance AlongCenters(const ConvexCore& A, const ConvexCore& B) {
  Eigen::Vector3d u = B.center_W() - A.center_W();
  const double len = u.norm();
  u = len > 1e-12 ? Eigen::Vector3d(u / len) : Eigen::Vector3d::UnitZ();
  const Eigen::Vector3d a = A.Support(u), b = B.Support(-u);
  return FromWitnesses(a, b, u, u.dot(b - a));
}

class Epa {
 public:
  CoreDistance Run(const ConvexCore& A, const ConvexCore& B, const Simplex& s);

 private:
  static constexpr int kMaxVertices = 128;
  static constexpr int kMaxFaces = 256;
  static constexpr int kMaxIterations = 96;
  struct Face {
    std::array<int, 3> v;
    Eigen::Vector3d n;
    double distance;
    bool alive;
  };
  bool AddFace(int a, int b, int c);

  std::array<Vertex, kMaxVertices> vertices_;
  std::array<Face, kMaxFaces> faces_;
  std::array<std::pair<int, int>, 3 * kMaxFaces> edges_;
  std::array<int, kMaxFaces> free_;  // slots of removed faces, reused first
  int num_vertices_ = 0, num_faces_ = 0, num_free_ = 0;
};

bool Epa::AddFace(int a, int b, int c) {
  int slot;
  if (num_free_ > 0) {
    slot = free_[--num_free_];
  } else {
    if (num_faces_ == kMaxFaces) return false;
    slot = num_faces_++;
  }
  Face& f = faces_[slot];
  f.v = {a, b, c};
  f.alive = true;
  const Eigen::Vector3d& pa = vertices_[a].w;
  const Eigen::Vector3d n = (vertices_[b].w - pa).cross(vertices_[c].w - pa);
  const double len = n.norm();
  if (len > 1e-18) {
    f.n = n / len;
    f.distance = f.n.dot(pa);
  } else {
    // A sliver: never the closest face and never seen as visible.
    f.n.setZero();
    f.distance = std::numeric_limits<double>::infinity();
  }
  return true;
}

// One algorithm (the tetrahedron from GJK, then: closest face, support point along its normal,
// stop when it no longer moves the face, else replace the faces it sees by a cone), kept in one
// function so that the polytope's invariants read in one place.
CoreDistance Epa::Run(const ConvexCore& A, const ConvexCore& B, const Simplex& s) {
  num_vertices_ = 4;
  for (int i = 0; i < 4; ++i) vertices_[i] = s.v[i];
  num_faces_ = 0;
  num_free_ = 0;
  static constexpr int kTetra[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
  for (const auto& t : kTetra) {
    const Eigen::Vector3d& a = vertices_[t[0]].w;
    const Eigen::Vector3d n = (vertices_[t[1]].w - a).cross(vertices_[t[2]].w - a);
    // Outward: away from the opposite vertex.
    if (n.dot(vertices_[t[3]].w - a) > 0) {
      AddFace(t[0], t[2], t[1]);
    } else {
      AddFace(t[0], t[1], t[2]);
    }
  }

  int best = -1;
  bool stopped = false;  // left the loop with `best` the closest face
  for (int iter = 0; iter < kMaxIterations && !stopped; ++iter) {
    best = -1;
    for (int i = 0; i < num_faces_; ++i) {
      if (faces_[i].alive && (best < 0 || faces_[i].distance < faces_[best].distance)) best = i;
    }
    if (best < 0 || !std::isfinite(faces_[best].distance)) return AlongCenters(A, B);
    const Face& f = faces_[best];
    const Vertex w = SupportOfDifference(A, B, f.n);
    const double gap = f.n.dot(w.w) - f.distance;
    if (gap <= 1e-8 + 1e-6 * std::abs(f.distance) || num_vertices_ == kMaxVertices) {
      stopped = true;
      break;
    }
    // Remove the faces seen from w and keep the horizon (edges used once).
    int num_edges = 0;
    const Face best_copy = f;
    for (int i = 0; i < num_faces_; ++i) {
      Face& g = faces_[i];
      if (!g.alive || g.n.dot(w.w - vertices_[g.v[0]].w) <= 1e-12) continue;
      g.alive = false;
      free_[num_free_++] = i;
      for (int k = 0; k < 3; ++k) {
        const int e0 = g.v[k], e1 = g.v[(k + 1) % 3];
        int twin = -1;
        for (int e = 0; e < num_edges; ++e) {
          if (edges_[e].first == e1 && edges_[e].second == e0) {
            twin = e;
            break;
          }
        }
        if (twin >= 0) {
          edges_[twin] = edges_[--num_edges];
        } else {
          edges_[num_edges++] = {e0, e1};
        }
      }
    }
    if (num_edges == 0) {
      faces_[best] = best_copy;
      stopped = true;
      break;
    }
    const int wi = num_vertices_++;
    vertices_[wi] = w;
    bool ok = true;
    for (int e = 0; e < num_edges && ok; ++e) ok = AddFace(edges_[e].first, edges_[e].second, wi);
    if (!ok) {
      // Out of room: report the last consistent closest face.
      faces_[best] = best_copy;
      stopped = true;
      break;
    }
  }
  if (!stopped) {
    // Iteration cap: the closest face of the final polytope.
    best = -1;
    for (int i = 0; i < num_faces_; ++i) {
      if (faces_[i].alive && (best < 0 || faces_[i].distance < faces_[best].distance)) best = i;
    }
  }
  if (best < 0 || !std::isfinite(faces_[best].distance)) return AlongCenters(A, B);
  const Face& f = faces_[best];
  const Eigen::Vector3d p = f.distance * f.n;
  const Vertex& va = vertices_[f.v[0]];
  const Vertex& vb = vertices_[f.v[1]];
  const Vertex& vc = vertices_[f.v[2]];
  const Eigen::Vector3d l = ClosestOnTriangle(va.w - p, vb.w - p, vc.w - p);
  const Eigen::Vector3d a = l[0] * va.a + l[1] * vb.a + l[2] * vc.a;
  const Eigen::Vector3d b = l[0] * va.b + l[1] * vb.b + l[2] * vc.b;
  return FromWitnesses(a, b, f.n, -f.distance);
}

}  // namespace

CoreDistance ComputeCoreDistance(const ConvexCore& A, const ConvexCore& B) {
  constexpr int kMaxIterations = 64;
  // Below this distance the cores count as touching and EPA decides the normal [m].
  constexpr double kTouching = 1e-9;
  Eigen::Vector3d v = A.center_W() - B.center_W();
  if (v.squaredNorm() < 1e-24) v = Eigen::Vector3d::UnitX();
  Simplex s;
  s.v[0] = SupportOfDifference(A, B, -v);
  s.lambda[0] = 1.0;
  s.n = 1;
  v = s.v[0].w;
  bool overlap = false;
  for (int iter = 0; iter < kMaxIterations; ++iter) {
    const double vv = v.squaredNorm();
    if (vv <= kTouching * kTouching) {
      overlap = true;
      break;
    }
    const Vertex w = SupportOfDifference(A, B, -v);
    // v·w is a lower bound on |v|·distance: stop when it no longer improves on |v|².
    if (vv - v.dot(w.w) <= 1e-10 * vv) break;
    bool duplicate = false;
    for (int i = 0; i < s.n; ++i) duplicate |= (s.v[i].w - w.w).squaredNorm() < 1e-28;
    if (duplicate) break;
    Simplex next = s;
    next.v[next.n++] = w;
    if (ReduceSimplex(&next)) {
      s = next;
      overlap = true;
      break;
    }
    const Eigen::Vector3d v_next = next.Point();
    if (v_next.squaredNorm() >= vv) break;  // no progress (round-off)
    s = next;
    v = v_next;
  }
  if (!overlap) {
    Eigen::Vector3d a = Eigen::Vector3d::Zero(), b = Eigen::Vector3d::Zero();
    for (int i = 0; i < s.n; ++i) {
      a += s.lambda[i] * s.v[i].a;
      b += s.lambda[i] * s.v[i].b;
    }
    const double distance = v.norm();
    return FromWitnesses(a, b, -v / distance, distance);
  }
  if (!ExpandToTetrahedron(A, B, &s)) return AlongCenters(A, B);
  static thread_local Epa epa;
  return epa.Run(A, B, s);
}

}  // namespace contactlab::internal
