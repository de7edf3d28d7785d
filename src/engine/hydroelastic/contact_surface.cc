#include "engine/hydroelastic/contact_surface.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace contactlab::hydroelastic {
namespace {

// A tet's slice (≤ 4 corners) clipped to a rigid face of k ≤ 8 corners has ≤ 4 + k; plane ∩ tet
// (≤ 4) clipped by a tet's 4 planes ≤ 8.
constexpr int kMaxPolygon = 16;
struct Polygon {
  std::array<Eigen::Vector3d, kMaxPolygon> v;
  int n = 0;
};

// cos(5π/8): the largest angle between a face normal and a pressure gradient that is still
// accepted (Drake uses the same threshold to reject back faces).
const double kCosMaxAngle = std::cos(5.0 * std::numbers::pi / 8.0);

bool AlongGradient(const Eigen::Vector3d& direction, const Eigen::Vector3d& gradient) {
  const double g = gradient.norm();
  // A vanishing gradient gives no orientation information: accept.
  return g <= 0.0 || direction.dot(gradient) >= kCosMaxAngle * g;
}

// Tie-break for points exactly on a plane: the two tets sharing a face store exactly negated
// planes, so "inside iff s < 0, or s == 0 and the normal is lexicographically positive" puts a
// point of the shared face into exactly one of them (no double counting, no gap).
bool LexPositive(const Eigen::Vector3d& n) {
  if (n.x() != 0.0) return n.x() > 0.0;
  if (n.y() != 0.0) return n.y() > 0.0;
  return n.z() > 0.0;
}

// Sutherland–Hodgman: keeps the part of `in` with n·x − d inside (see LexPositive).
void ClipByPlane(const Polygon& in, const Eigen::Vector3d& n, double d, bool keep_zero,
                 Polygon* out) {
  out->n = 0;
  if (in.n == 0) return;
  std::array<double, kMaxPolygon> s;
  for (int i = 0; i < in.n; ++i) s[i] = n.dot(in.v[i]) - d;
  for (int i = 0; i < in.n; ++i) {
    const int j = i + 1 < in.n ? i + 1 : 0;
    const bool in_i = s[i] < 0.0 || (s[i] == 0.0 && keep_zero);
    const bool in_j = s[j] < 0.0 || (s[j] == 0.0 && keep_zero);
    if (in_i) out->v[out->n++] = in.v[i];
    if (in_i != in_j) {
      const double t = s[i] / (s[i] - s[j]);
      out->v[out->n++] = in.v[i] + t * (in.v[j] - in.v[i]);
    }
    if (out->n > kMaxPolygon - 2) break;  // cannot happen for convex input; guards the buffer
  }
}

// Whether every vertex of `poly` is inside the plane in ClipByPlane's sense (then clipping
// would return it unchanged).
bool InsidePlane(const Polygon& poly, const Eigen::Vector3d& n, double d, bool keep_zero) {
  for (int i = 0; i < poly.n; ++i) {
    const double s = n.dot(poly.v[i]) - d;
    if (!(s < 0.0 || (s == 0.0 && keep_zero))) return false;
  }
  return true;
}

// The polygon where the plane s(x) = 0 cuts a tet, from the vertex values s_i; empty if the
// plane misses it. Vertices with s < 0 are "below", s ≥ 0 "above" (a plane through a shared
// face then belongs to one tet only).
void SliceTet(const std::array<Eigen::Vector3d, 4>& x, const std::array<double, 4>& s,
              Polygon* out) {
  out->n = 0;
  std::array<int, 4> below, above;
  int nb = 0, na = 0;
  for (int i = 0; i < 4; ++i) {
    if (s[i] < 0.0) {
      below[nb++] = i;
    } else {
      above[na++] = i;
    }
  }
  if (nb == 0 || na == 0) return;
  auto cut = [&](int i, int j) {
    const double t = s[i] / (s[i] - s[j]);
    out->v[out->n++] = x[i] + t * (x[j] - x[i]);
  };
  if (nb == 1) {
    for (int k = 0; k < 3; ++k) cut(below[0], above[k]);
  } else if (na == 1) {
    for (int k = 0; k < 3; ++k) cut(below[k], above[0]);
  } else {
    // Quad: consecutive edges share a vertex, so this order walks its boundary.
    cut(below[0], above[0]);
    cut(below[0], above[1]);
    cut(below[1], above[1]);
    cut(below[1], above[0]);
  }
}

// One body's pressure field where a polygon lies: |∇p| of the tet [Pa/m] (∞: a rigid body), and
// the deepest any point of the body can lie [m] — at most half the smallest extent of its
// bounding box, which holds its inscribed ball.
struct FieldDepth {
  double gradient_norm = kRigidPressureGradient;
  double max_depth_m = 0.0;
};

FieldDepth CompliantFieldDepth(const CompliantGeometry& g, int tet) {
  return {g.tet_pressure[tet].gradient.norm(), g.bvh.nodes()[0].half_extent.minCoeff()};
}

// How deep a point of pressure p lies in the body (ContactFace::penetration_m): p/|∇p|, the
// distance to the zero of the tet's linear field; for the generated fields (p = E_h·distance/r
// in a face's region) exactly the distance to the surface. A tet whose field is (nearly) flat
// puts that zero farther away than any point of the body can be deep: not defined (NaN).
double DepthInBody(double p, const FieldDepth& field) {
  if (std::isinf(field.gradient_norm) || !(p > 0.0)) return 0.0;  // rigid side, or the surface
  const double d = p / field.gradient_norm;
  return d <= field.max_depth_m * (1.0 + 1e-9) ? d : std::numeric_limits<double>::quiet_NaN();
}

// Appends the fan of `poly` (frame A) to the surface. `pressure` evaluates p at a point of
// frame A; n_A is the unit normal (A into B) in frame A; tet_size_sq the tet's longest edge
// squared (ContactFace::polygon_size); field_A, field_B the two bodies' fields there (the
// faces' penetration).
template <typename Pressure>
void EmitPolygon(const Polygon& poly, const Eigen::Vector3d& n_A, const Pressure& pressure,
                 double g_A, double g_B, double tet_size_sq, const FieldDepth& field_A,
                 const FieldDepth& field_B, const Eigen::Isometry3d& X_WA, ContactSurface* out) {
  if (poly.n < 3) return;
  // Area centroid (continuous in the vertices, unlike the vertex mean, which jumps when a
  // vertex appears) of the planar convex polygon.
  double area2 = 0.0;
  Eigen::Vector3d weighted = Eigen::Vector3d::Zero();
  for (int i = 1; i + 1 < poly.n; ++i) {
    const double w = (poly.v[i] - poly.v[0]).cross(poly.v[i + 1] - poly.v[0]).dot(n_A);
    area2 += w;
    weighted += w * (poly.v[0] + poly.v[i] + poly.v[i + 1]);
  }
  if (area2 == 0.0 || !std::isfinite(area2)) return;  // zero area: no force
  const Eigen::Vector3d c = weighted / (3.0 * area2);
  const Eigen::Matrix3d& R_WA = X_WA.linear();
  const Eigen::Vector3d n_W = R_WA * n_A;
  const int base = static_cast<int>(out->vertices_W.size());
  out->vertices_W.push_back(X_WA * c);
  out->vertex_pressure_Pa.push_back(pressure(c));
  for (int i = 0; i < poly.n; ++i) {
    out->vertices_W.push_back(X_WA * poly.v[i]);
    out->vertex_pressure_Pa.push_back(pressure(poly.v[i]));
  }
  const size_t first_face = out->faces.size();
  for (int i = 0; i < poly.n; ++i) {
    const int j = (i + 1) % poly.n;
    const double area = 0.5 * std::abs((poly.v[i] - c).cross(poly.v[j] - c).dot(n_A));
    if (area == 0.0) continue;
    ContactFace f;
    f.vertices = {base, base + 1 + i, base + 1 + j};
    f.area_m2 = area;
    const Eigen::Vector3d centroid = (c + poly.v[i] + poly.v[j]) / 3.0;
    f.centroid_W = X_WA * centroid;
    f.normal_W = n_W;
    f.pressure_Pa = std::max(0.0, pressure(centroid));
    f.g_A_Pa_per_m = g_A;
    f.g_B_Pa_per_m = g_B;
    f.penetration_m = DepthInBody(f.pressure_Pa, field_A) + DepthInBody(f.pressure_Pa, field_B);
    out->faces.push_back(f);
  }
  if (out->faces.size() > first_face) {
    ContactFace& first = out->faces[first_face];
    first.polygon_faces = static_cast<int>(out->faces.size() - first_face);
    first.polygon_size = tet_size_sq > 0.0 ? 0.5 * std::abs(area2) / tet_size_sq : 1.0;
  }
}

std::array<Eigen::Vector3d, 4> TetVertices(const CompliantGeometry& g, int t) {
  const auto& k = g.mesh.tets[t];
  return {g.mesh.vertices_m[k[0]], g.mesh.vertices_m[k[1]], g.mesh.vertices_m[k[2]],
          g.mesh.vertices_m[k[3]]};
}

// A face of the rigid body B posed in A's frame: its plane n_out·x = d (n_out B's outward
// normal), its bounding box and, for the prism across the plane that clips a tet's slice to the
// face, its edges' outward in-plane normals e·x ≤ e_d.
struct PosedFace {
  Eigen::Vector3d n_out;
  double d = 0;
  double slack = 0;  // rounding of the posed corners: a tet or box this close to the plane is kept
  Eigen::Vector3d center, extent;
  int num_edges = 0;
  std::array<Eigen::Vector3d, RigidFace::kMaxCorners> edge_normal;
  std::array<double, RigidFace::kMaxCorners> edge_offset;
  std::array<bool, RigidFace::kMaxCorners> edge_keep_zero;
};

PosedFace PoseFace(const RigidGeometry& B, int f, const Eigen::Isometry3d& X_AB, double a_size) {
  const RigidFace& face = B.faces[f];
  PosedFace posed;
  std::array<Eigen::Vector3d, RigidFace::kMaxCorners> v;
  for (int i = 0; i < face.num_corners; ++i) v[i] = X_AB * B.mesh.vertices_m[face.corners[i]];
  posed.n_out = X_AB.linear() * face.normal;
  posed.d = posed.n_out.dot(v[0]);
  posed.slack = 1e-12 * (std::abs(posed.d) + v[0].norm() + a_size);
  Eigen::Vector3d lower = v[0], upper = v[0];
  for (int i = 1; i < face.num_corners; ++i) {
    lower = lower.cwiseMin(v[i]);
    upper = upper.cwiseMax(v[i]);
  }
  posed.center = 0.5 * (lower + upper);
  posed.extent = 0.5 * (upper - lower) + Eigen::Vector3d::Constant(posed.slack);
  // Counter-clockwise corners about n_out: (v_next − v) × n_out points out of the face. Two
  // coplanar faces sharing an edge get opposite edge planes; LexPositive assigns a point on it
  // to one (up to the rounding of the posed corners: a sliver of zero area).
  posed.num_edges = face.num_corners;
  for (int e = 0; e < face.num_corners; ++e) {
    const int next = e + 1 < face.num_corners ? e + 1 : 0;
    posed.edge_normal[e] = (v[next] - v[e]).cross(posed.n_out);
    posed.edge_offset[e] = posed.edge_normal[e].dot(v[e]);
    posed.edge_keep_zero[e] = LexPositive(posed.edge_normal[e]);
  }
  return posed;
}

// The slice `poly` clipped to the face's edges; a slice mostly lies within all of them (a tet is
// small beside a rigid face), and then nothing is copied. `scratch` is the other buffer.
const Polygon& ClipToFace(const PosedFace& face, Polygon* poly, Polygon* scratch) {
  Polygon* cur = poly;
  Polygon* next = scratch;
  for (int e = 0; e < face.num_edges && cur->n > 0; ++e) {
    const Eigen::Vector3d& n = face.edge_normal[e];
    if (InsidePlane(*cur, n, face.edge_offset[e], face.edge_keep_zero[e])) continue;
    ClipByPlane(*cur, n, face.edge_offset[e], face.edge_keep_zero[e], next);
    std::swap(cur, next);
  }
  return *cur;
}

void HalfSpaceSurface(const CompliantGeometry& A, const Eigen::Isometry3d& X_WA,
                      const Eigen::Isometry3d& X_WB, ContactSurfaceScratch* scratch,
                      ContactSurface* out) {
  const Eigen::Isometry3d X_AB = X_WA.inverse() * X_WB;
  const Eigen::Vector3d n_out = X_AB.linear().col(2);  // half-space outward normal, in A
  const double d = n_out.dot(X_AB.translation());
  const Eigen::Vector3d n_hat = -n_out;  // from A into the half-space B
  Polygon poly;
  A.bvh.ForEachPlaneCrossing(n_out, d, &scratch->node_stack, [&](int t) {
    const LinearField& p = A.tet_pressure[t];
    if (!AlongGradient(n_out, p.gradient)) return;
    const auto x = TetVertices(A, t);
    const std::array<double, 4> s{n_out.dot(x[0]) - d, n_out.dot(x[1]) - d, n_out.dot(x[2]) - d,
                                  n_out.dot(x[3]) - d};
    SliceTet(x, s, &poly);
    EmitPolygon(poly, n_hat, p, std::abs(p.gradient.dot(n_hat)), kRigidPressureGradient,
                A.tet_size_sq[t], CompliantFieldDepth(A, t), FieldDepth(), X_WA, out);
  });
}

}  // namespace

void ContactSurface::Clear() {
  vertices_W.clear();
  vertex_pressure_Pa.clear();
  faces.clear();
}

double ContactSurface::TotalArea_m2() const {
  double a = 0.0;
  for (const auto& f : faces) a += f.area_m2;
  return a;
}

Eigen::Vector3d ContactSurface::NetForceOnB_W() const {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  for (const auto& f : faces) force += (f.area_m2 * f.pressure_Pa) * f.normal_W;
  return force;
}

Eigen::Vector3d ContactSurface::NetMomentOnB_W(const Eigen::Vector3d& o_W) const {
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  for (const auto& f : faces) {
    moment += (f.centroid_W - o_W).cross((f.area_m2 * f.pressure_Pa) * f.normal_W);
  }
  return moment;
}

void ContactSurface::SwapBodies() {
  for (auto& f : faces) {
    f.normal_W = -f.normal_W;
    std::swap(f.g_A_Pa_per_m, f.g_B_Pa_per_m);
  }
}

FacePointContact ComputeFacePointContact(const ContactFace& face) {
  // Below this the face has no usable stiffness (a pressure gradient of 1e-9 Pa/m would put
  // φ0 kilometres away for any real pressure).
  constexpr double kMinGradient = 1e-9;
  constexpr double kMax = std::numeric_limits<double>::max();
  FacePointContact c;
  const double gA = face.g_A_Pa_per_m, gB = face.g_B_Pa_per_m;
  if (!(gA > 0.0) || !(gB > 0.0)) return c;  // zero (or NaN) gradient: no spring
  // Series combination written as 1/(1/g_A + 1/g_B): a rigid side (∞) adds zero compliance,
  // and nothing overflows for large finite gradients.
  double g = 1.0 / (1.0 / gA + 1.0 / gB);
  if (!(g < kMax)) g = kMax;  // rigid–rigid: not a hydroelastic pair, but stay finite
  if (g < kMinGradient) return c;
  const double p0 = std::isfinite(face.pressure_Pa) ? std::max(0.0, face.pressure_Pa) : 0.0;
  const double area = std::isfinite(face.area_m2) ? std::max(0.0, face.area_m2) : 0.0;
  c.g_Pa_per_m = g;
  c.phi0_m = -p0 / g;
  c.stiffness_N_per_m = std::min(area * g, kMax);
  c.valid = true;
  return c;
}

void ComputeContactSurface(const CompliantGeometry& A, const Eigen::Isometry3d& X_WA,
                           const RigidGeometry& B, const Eigen::Isometry3d& X_WB,
                           ContactSurfaceScratch* scratch, ContactSurface* out) {
  out->Clear();
  if (B.is_half_space) {
    HalfSpaceSurface(A, X_WA, X_WB, scratch, out);
    return;
  }
  // Face by face (issue 5, peg-in-hole: the dual-tree traversal paired every tet of a BVH leaf
  // with every triangle of the other leaf, and a large rigid triangle's box took in many tets:
  // ~7 candidate pairs per output face, most of them with the tet entirely on one side of the
  // triangle's plane). Each rigid face (coplanar triangles merged, rigid_faces.h) whose box
  // meets A's bounds is posed in A once, and A's BVH is descended only through boxes that
  // overlap the face's box *and* straddle its plane; each leaf tet is then tested exactly
  // against the plane before the back-face test. The polygon face ∩ tet is the tet's slice by
  // the face's plane (SliceTet: a plane through a face shared by two tets slices only one of
  // them) clipped to the face's edges.
  const Eigen::Isometry3d X_AB = X_WA.inverse() * X_WB;
  if (A.bvh.empty() || B.bvh.empty()) return;
  const BvhNode& a_root = A.bvh.nodes()[0];
  // A's bounding box in B's frame (a box around the rotated box) for the face query.
  const Eigen::Isometry3d X_BA = X_AB.inverse();
  const Eigen::Vector3d a_center_B = X_BA * a_root.center;
  const Eigen::Vector3d a_extent_B = X_BA.linear().cwiseAbs() * a_root.half_extent;
  Polygon poly, tmp;
  auto clip_face = [&](int f) {
    const PosedFace face = PoseFace(B, f, X_AB, a_root.half_extent.norm());
    const Eigen::Vector3d n_abs = face.n_out.cwiseAbs();
    A.bvh.ForEachUnpruned(
        [&](const BvhNode& node) {
          return !BoxesOverlap(node.center, node.half_extent, face.center, face.extent) ||
                 std::abs(face.n_out.dot(node.center) - face.d) >
                     n_abs.dot(node.half_extent) + face.slack;
        },
        &scratch->node_stack,
        [&](int t) {
          const auto x = TetVertices(A, t);
          std::array<double, 4> s;
          int above = 0, below = 0;
          for (int i = 0; i < 4; ++i) {
            s[i] = face.n_out.dot(x[i]) - face.d;
            above += s[i] > face.slack;
            below += s[i] < -face.slack;
          }
          if (above == 4 || below == 4) return;  // the tet misses the face's plane
          const LinearField& p = A.tet_pressure[t];
          if (!AlongGradient(face.n_out, p.gradient)) return;  // back face of B
          SliceTet(x, s, &poly);
          const Polygon& clipped = ClipToFace(face, &poly, &tmp);
          const Eigen::Vector3d n_hat = -face.n_out;
          EmitPolygon(clipped, n_hat, p, std::abs(p.gradient.dot(n_hat)), kRigidPressureGradient,
                      A.tet_size_sq[t], CompliantFieldDepth(A, t), FieldDepth(), X_WA, out);
        });
  };
  // The rigid faces whose boxes meet A's bounds (B's BVH, in B's frame).
  B.bvh.ForEachUnpruned(
      [&](const BvhNode& node) {
        return !BoxesOverlap(node.center, node.half_extent, a_center_B, a_extent_B);
      },
      &scratch->face_stack, clip_face);
}

void ComputeContactSurface(const CompliantGeometry& A, const Eigen::Isometry3d& X_WA,
                           const CompliantGeometry& B, const Eigen::Isometry3d& X_WB,
                           ContactSurfaceScratch* scratch, ContactSurface* out) {
  out->Clear();
  const Eigen::Isometry3d X_AB = X_WA.inverse() * X_WB;
  const Eigen::Matrix3d R_AB = X_AB.linear();
  const Eigen::Vector3d p_BA = X_AB.inverse().translation();  // A's origin in B
  Polygon poly, tmp;
  A.bvh.ForEachOverlap(B.bvh, X_AB, &scratch->pair_stack, [&](int ta, int tb) {
    const LinearField& pA = A.tet_pressure[ta];
    const LinearField& pB_B = B.tet_pressure[tb];
    // p_B as a linear function of points in frame A: x_B = R_BA x_A + p_BA.
    LinearField pB;
    pB.gradient = R_AB * pB_B.gradient;
    pB.offset = pB_B.gradient.dot(p_BA) + pB_B.offset;
    // Equal-pressure plane p_A − p_B = 0 (appendix X-B); n̂ = (∇p_B − ∇p_A)/|·| points into B,
    // where p_B rises and p_A falls.
    const Eigen::Vector3d dg = pB.gradient - pA.gradient;
    const double dg_norm = dg.norm();
    const double g_scale = pA.gradient.norm() + pB.gradient.norm();
    if (!(dg_norm > 1e-12 * g_scale) || dg_norm == 0.0) return;  // parallel fields: no plane
    const Eigen::Vector3d n_hat = dg / dg_norm;
    if (!AlongGradient(n_hat, pB.gradient) || !AlongGradient(-n_hat, pA.gradient)) return;
    const auto x = TetVertices(A, ta);
    std::array<double, 4> s;
    for (int i = 0; i < 4; ++i) s[i] = pA(x[i]) - pB(x[i]);
    SliceTet(x, s, &poly);
    Polygon* cur = &poly;
    Polygon* next = &tmp;
    for (int f = 0; f < 4 && cur->n > 0; ++f) {
      // Tet B's face plane n·x_B ≤ d becomes (R_AB n)·x_A ≤ d − n·p_BA in A.
      const Eigen::Vector4d& plane = B.tet_planes[tb][f];
      const Eigen::Vector3d n_B = plane.head<3>();
      ClipByPlane(*cur, R_AB * n_B, plane[3] - n_B.dot(p_BA), LexPositive(n_B), next);
      std::swap(cur, next);
    }
    EmitPolygon(*cur, n_hat, pA, std::abs(pA.gradient.dot(n_hat)), std::abs(pB.gradient.dot(n_hat)),
                std::min(A.tet_size_sq[ta], B.tet_size_sq[tb]), CompliantFieldDepth(A, ta),
                CompliantFieldDepth(B, tb), X_WA, out);
  });
}

}  // namespace contactlab::hydroelastic
