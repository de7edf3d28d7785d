// Generic convex pairs (cylinder–box, cylinder–cylinder, cylinder–capsule, capsule–box):
// GJK/EPA on the cores gives the exact signed distance and normal; then the supporting
// features of both shapes along the normal (face polygon, line, point) are clipped against
// each other so that face contacts (a cylinder standing on a box, a box on a cylinder's cap,
// a capsule lying on a box) produce a support polygon instead of one point.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "engine/geometry/contact_utils.h"
#include "engine/geometry/convex_core.h"
#include "engine/geometry/gjk_epa.h"
#include "engine/geometry/pair_contacts.h"

namespace contactlab::internal {
namespace {

// Features within this angle (sine) of the contact normal count as in contact. Points of a
// slightly tilted face are kept only if within the margin, so this can be generous.
constexpr double kFeatureSinTolerance = 0.05;
// Upper bound on the points of one pair's manifold.
constexpr int kMaxManifoldPoints = 8;

using Polygon = std::array<Eigen::Vector3d, 2 * SupportFeature::kMaxVertices>;

// A point at parameter u ∈ [0, 1] of a supporting line (line_W) of `core`: an end, or sliding.
ContactFeature::Side LineEndOrSlide(const ConvexCore& core, double u, const Eigen::Vector3d& p_W,
                                    const Eigen::Vector3d& line_W) {
  constexpr double kEnd = 1e-9;
  if (u <= kEnd || u >= 1.0 - kEnd) return FeatureVertexSide(core, p_W, 2);
  return FeatureLineSide(core, line_W);
}

// Which features a clipped point lies on (docs/contact-model.md §9): bit i of inc_edges the
// incident feature's edge from its vertex i to i + 1, bit k of ref_planes the side plane through
// the reference polygon's edge k.
struct ClipTag {
  uint16_t inc_edges = 0, ref_planes = 0;
};
using PolygonTags = std::array<ClipTag, 2 * SupportFeature::kMaxVertices>;

// Clips the incident feature (polygon or segment) against the side planes of the reference
// polygon (planes through its edges, parallel to `ref_normal`), with each point's tag.
int ClipToPrism(const SupportFeature& ref, const Eigen::Vector3d& ref_normal,
                const SupportFeature& inc, Polygon* result, PolygonTags* tags) {
  if (inc.count == 2) {
    // Segment: parametric clipping.
    const Eigen::Vector3d p = inc.vertices_W[0], d = inc.vertices_W[1] - inc.vertices_W[0];
    double lo = 0.0, hi = 1.0;
    uint16_t lo_plane = 0, hi_plane = 0;
    for (int k = 0; k < ref.count && lo <= hi; ++k) {
      const Eigen::Vector3d& e0 = ref.vertices_W[k];
      const Eigen::Vector3d& e1 = ref.vertices_W[(k + 1) % ref.count];
      const Eigen::Vector3d inward = ref_normal.cross(e1 - e0);
      const double dp = inward.dot(p - e0), dd = inward.dot(d);
      if (std::abs(dd) < 1e-300) {
        if (dp < 0) return 0;
        continue;
      }
      const double t = -dp / dd;
      if (dd > 0 && t > lo) {
        lo = t;
        lo_plane = static_cast<uint16_t>(1u << k);
      } else if (dd < 0 && t < hi) {
        hi = t;
        hi_plane = static_cast<uint16_t>(1u << k);
      }
    }
    if (lo > hi) return 0;
    (*result)[0] = p + lo * d;
    (*result)[1] = p + hi * d;
    (*tags)[0] = {1, lo_plane};
    (*tags)[1] = {1, hi_plane};
    return 2;
  }
  Polygon tmp;
  PolygonTags tmp_tags;
  Polygon* in = result;
  Polygon* out = &tmp;
  PolygonTags* in_tags = tags;
  PolygonTags* out_tags = &tmp_tags;
  int count = inc.count;
  for (int i = 0; i < count; ++i) {
    (*in)[i] = inc.vertices_W[i];
    (*in_tags)[i] = {static_cast<uint16_t>((1u << i) | (1u << ((i + count - 1) % count))), 0};
  }
  const int capacity = static_cast<int>(result->size());
  for (int k = 0; k < ref.count && count > 0; ++k) {
    const Eigen::Vector3d& e0 = ref.vertices_W[k];
    const Eigen::Vector3d& e1 = ref.vertices_W[(k + 1) % ref.count];
    const Eigen::Vector3d inward = ref_normal.cross(e1 - e0);
    int n = 0;
    for (int i = 0; i < count; ++i) {
      const Eigen::Vector3d& p = (*in)[i];
      const Eigen::Vector3d& q = (*in)[(i + 1) % count];
      const ClipTag& tp = (*in_tags)[i];
      const ClipTag& tq = (*in_tags)[(i + 1) % count];
      const double dp = inward.dot(p - e0), dq = inward.dot(q - e0);
      if (dp >= 0 && n < capacity) {
        (*out_tags)[n] = tp;
        (*out)[n++] = p;
      }
      if ((dp >= 0) != (dq >= 0) && n < capacity) {
        (*out_tags)[n] = {static_cast<uint16_t>(tp.inc_edges & tq.inc_edges),
                          static_cast<uint16_t>((tp.ref_planes & tq.ref_planes) | (1u << k))};
        (*out)[n++] = p + (q - p) * (dp / (dp - dq));
      }
    }
    count = n;
    std::swap(in, out);
    std::swap(in_tags, out_tags);
  }
  if (in != result) {
    for (int i = 0; i < count; ++i) {
      (*result)[i] = (*in)[i];
      (*tags)[i] = (*in_tags)[i];
    }
  }
  return count;
}

int LowestBit(uint16_t bits) { return std::countr_zero(static_cast<unsigned>(bits)); }

// How a clipped point moves (docs/contact-model.md §9): an incident vertex, an incident edge cut
// by a side plane of the reference polygon, or a reference vertex over the incident face (two
// side planes); the reference side's point is on its face, under the incident one along the
// face's normal. Sets *ref_side and *inc_side.
void ClippedSides(const ClipTag& tag, const Eigen::Vector3d& q, const ConvexCore& ref_core,
                  const SupportFeature& ref, const ConvexCore& inc_core, const SupportFeature& inc,
                  ContactFeature::Side* ref_side, ContactFeature::Side* inc_side) {
  *ref_side = PlaneSide(ref_core.R_WG.transpose() * ref.face_normal_W);
  const int edges = std::popcount(tag.inc_edges), planes = std::popcount(tag.ref_planes);
  if (edges == 1 && planes == 1) {
    const int e = LowestBit(tag.inc_edges), k = LowestBit(tag.ref_planes);
    const Eigen::Vector3d inc_edge_W = inc.vertices_W[(e + 1) % inc.count] - inc.vertices_W[e];
    const Eigen::Vector3d ref_edge_W = ref.vertices_W[(k + 1) % ref.count] - ref.vertices_W[k];
    const ContactFeature::Side line = FeatureLineSide(inc_core, inc_edge_W);
    *inc_side = EdgeCutSide(line.axis_G, (ref_core.R_WG.transpose() * ref_edge_W).normalized(),
                            inc_core.inflation);
  } else if (edges == 0 && planes == 2 && inc.count >= 3) {
    *ref_side = MaterialSide();
    *inc_side = PlaneSide(inc_core.R_WG.transpose() * inc.face_normal_W);
  } else {
    *inc_side = FeatureVertexSide(inc_core, q, inc.count);
  }
}

// The points of a reference polygon against an incident polygon or segment: the incident
// feature clipped to the reference prism, each point over the reference face.
int AppendClippedManifold(const ConvexCore& A, const ConvexCore& B, const SupportFeature& fa,
                          const SupportFeature& fb, const Eigen::Vector3d& normal, double margin_m,
                          std::vector<ContactPoint>* out) {
  const bool ref_is_A = fa.count >= 3 && (fb.count < 3 || fa.face_normal_W.dot(normal) >=
                                                              -fb.face_normal_W.dot(normal));
  const SupportFeature& ref = ref_is_A ? fa : fb;
  const SupportFeature& inc = ref_is_A ? fb : fa;
  const ConvexCore& ref_core = ref_is_A ? A : B;
  const ConvexCore& inc_core = ref_is_A ? B : A;
  if (inc.count < 2) return 0;  // a vertex or rim point: the exact point suffices
  Polygon clipped;
  PolygonTags tags;
  const int count = ClipToPrism(ref, ref.face_normal_W, inc, &clipped, &tags);
  int added = 0;
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector3d& q = clipped[i];
    const double height = ref.face_normal_W.dot(q - ref.vertices_W[0]);
    const Eigen::Vector3d on_ref = q - height * ref.face_normal_W;
    ContactFeature::Side ref_side, inc_side;
    ClippedSides(tags[i], q, ref_core, ref, inc_core, inc, &ref_side, &inc_side);
    const ContactPoint c =
        ref_is_A ? MakeContact(on_ref, q, ref.face_normal_W, A.inflation, B.inflation,
                               MakeFeature(FeatureNormal::kFixedInA, ref_side, inc_side))
                 : MakeContact(q, on_ref, -ref.face_normal_W, A.inflation, B.inflation,
                               MakeFeature(FeatureNormal::kFixedInB, inc_side, ref_side));
    if (c.signed_distance_m < margin_m) {
      out->push_back(c);
      ++added;
    }
  }
  return added;
}

// Appends the clipped manifold for the exact contact `exact` (from A into B); returns the count.
int AppendFeatureManifold(const ConvexCore& A, const ConvexCore& B, const ContactPoint& exact,
                          double margin_m, std::vector<ContactPoint>* out) {
  const Eigen::Vector3d& normal = exact.normal_W;
  const SupportFeature fa = A.Feature(normal, kFeatureSinTolerance);
  const SupportFeature fb = B.Feature(-normal, kFeatureSinTolerance);
  if (fa.count >= 3 || fb.count >= 3) {
    return AppendClippedManifold(A, B, fa, fb, normal, margin_m, out);
  }
  int added = 0;
  if (fa.count == 2 && fb.count == 2) {
    // Two lines (cylinder sides, capsule axes, box edges): the ends of their overlap if they
    // are parallel, with the exact point's normal; an end of a line is a material point (or a
    // rim's), an interior point the other line's end projected on it.
    const Eigen::Vector3d pa = fa.vertices_W[0], da = fa.vertices_W[1] - fa.vertices_W[0];
    const Eigen::Vector3d pb = fb.vertices_W[0], db = fb.vertices_W[1] - fb.vertices_W[0];
    const double len_a = da.norm(), len_b = db.norm();
    if (len_a < 1e-9 || len_b < 1e-9) return 0;
    if (da.cross(db).norm() > kFeatureSinTolerance * len_a * len_b) return 0;
    const double t0 = (pb - pa).dot(da) / (len_a * len_a);
    const double t1 = (pb + db - pa).dot(da) / (len_a * len_a);
    const double lo = std::max(0.0, std::min(t0, t1)), hi = std::min(1.0, std::max(t0, t1));
    if (hi - lo < 1e-6 / len_a) return 0;
    for (const double s : {lo, hi}) {
      const Eigen::Vector3d on_a = pa + s * da;
      const double u = std::clamp((on_a - pb).dot(db) / (len_b * len_b), 0.0, 1.0);
      ContactFeature feature = exact.feature;
      feature.a = LineEndOrSlide(A, s, on_a, da);
      feature.b = LineEndOrSlide(B, u, pb + u * db, db);
      const ContactPoint c =
          MakeContact(on_a, pb + u * db, normal, A.inflation, B.inflation, feature);
      if (c.signed_distance_m < margin_m) {
        out->push_back(c);
        ++added;
      }
    }
  }
  return added;
}

}  // namespace

void ReduceContacts(size_t first, int max_points, std::vector<ContactPoint>* out) {
  const int count = static_cast<int>(out->size() - first);
  if (count <= max_points) return;
  // Selection by swapping the chosen points to the front of the range.
  ContactPoint* p = out->data() + first;
  int deepest = 0;
  for (int i = 1; i < count; ++i) {
    if (p[i].signed_distance_m < p[deepest].signed_distance_m) deepest = i;
  }
  std::swap(p[0], p[deepest]);
  std::array<double, 64> min_dist2;
  const int tracked = std::min(count, static_cast<int>(min_dist2.size()));
  for (int i = 0; i < tracked; ++i) {
    min_dist2[i] = (p[i].Midpoint() - p[0].Midpoint()).squaredNorm();
  }
  for (int k = 1; k < max_points; ++k) {
    int farthest = k;
    for (int i = k + 1; i < tracked; ++i) {
      if (min_dist2[i] > min_dist2[farthest]) farthest = i;
    }
    std::swap(p[k], p[farthest]);
    std::swap(min_dist2[k], min_dist2[farthest]);
    for (int i = k + 1; i < tracked; ++i) {
      min_dist2[i] = std::min(min_dist2[i], (p[i].Midpoint() - p[k].Midpoint()).squaredNorm());
    }
  }
  out->resize(first + max_points);
}

int ConvexConvexContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                         const Eigen::Isometry3d& X_WB, double margin_m,
                         std::vector<ContactPoint>* out) {
  const ConvexCore core_A(a, X_WA), core_B(b, X_WB);
  const CoreDistance d = ComputeCoreDistance(core_A, core_B);
  const ContactPoint exact =
      MakeContact(d.point_A_W, d.point_B_W, d.normal_W, core_A.inflation, core_B.inflation,
                  ExactContactFeature(core_A, core_B, d.normal_W));
  if (exact.signed_distance_m >= margin_m) return 0;
  const size_t first = out->size();
  const int added = AppendFeatureManifold(core_A, core_B, exact, margin_m, out);
  double deepest_clipped = std::numeric_limits<double>::infinity();
  for (size_t i = first; i < out->size(); ++i) {
    deepest_clipped = std::min(deepest_clipped, (*out)[i].signed_distance_m);
  }
  // The exact point too when the polygonized features miss the true minimum (a rim point
  // between two polygon vertices of a rocking cylinder).
  if (added == 0 || exact.signed_distance_m < deepest_clipped - 1e-7) out->push_back(exact);
  ReduceContacts(first, kMaxManifoldPoints, out);
  return static_cast<int>(out->size() - first);
}

}  // namespace contactlab::internal
