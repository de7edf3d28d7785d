// Box–box: separating-axis test over the 15 axes (3 + 3 face normals, 9 edge cross products),
// then for a face axis the incident face of the other box clipped (Sutherland–Hodgman) against
// the side planes of the reference face, and for an edge axis the closest points of the two
// edges. Separated pairs within the margin use GJK for the exact distance, since the 15 axes
// only bound it from below for vertex–vertex and vertex–edge configurations.
//
// An edge axis (or a GJK normal) can be nearly parallel to a face of either box: two nearly
// parallel faces that are twisted against each other touch first at a crossing of their edges,
// but the rest of the faces is within a fraction of a millimetre. A single point there lets
// the other side of the faces close in one step unresisted (a spinning box), so such pairs get
// the clipped face polygon too, with the depths measured along the exact normal.
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

inline double SignNonNegative(double x) { return x >= 0.0 ? 1.0 : -1.0; }

// Clip polygon in the reference face's coordinates (x, y in the face, z along the normal),
// with the features each point lies on (docs/contact-model.md §9): bit i of inc_edges the
// incident face's edge from its corner i to i + 1, bit k of planes the clipping pass k.
struct ClipTag {
  uint8_t inc_edges = 0, planes = 0;
};
struct ClipPolygon {
  std::array<Eigen::Vector3d, 8> points;
  std::array<ClipTag, 8> tags;
};

// Keeps the part of `in` with sign·p[axis] ≤ limit (one Sutherland–Hodgman pass, number `pass`).
int ClipAgainst(const ClipPolygon& in, int count, int axis, double sign, double limit, int pass,
                ClipPolygon* out) {
  int n = 0;
  const int capacity = static_cast<int>(out->points.size());
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector3d& p = in.points[i];
    const Eigen::Vector3d& q = in.points[(i + 1) % count];
    const double dp = limit - sign * p[axis], dq = limit - sign * q[axis];  // ≥ 0 inside
    if (dp >= 0 && n < capacity) {
      out->tags[n] = in.tags[i];
      out->points[n++] = p;
    }
    if ((dp >= 0) != (dq >= 0) && n < capacity) {
      const ClipTag& tp = in.tags[i];
      const ClipTag& tq = in.tags[(i + 1) % count];
      out->tags[n] = {static_cast<uint8_t>(tp.inc_edges & tq.inc_edges),
                      static_cast<uint8_t>((tp.planes & tq.planes) | (1u << pass))};
      out->points[n++] = p + (q - p) * (dp / (dp - dq));
    }
  }
  return n;
}

struct PosedBox {
  const Eigen::Matrix3d& R;
  const Eigen::Vector3d& p;
  const Eigen::Vector3d& h;
};

// Contacts of the face of `ref` with outward normal `face_normal` (= ±axis ref_axis, pointing
// towards `inc`) against the face of `inc` most opposed to the contact normal `dir` (unit, from
// ref into inc, dir·face_normal > 0). The incident face is clipped against the prism swept by
// the reference face along `dir`, and each point's depth is measured along `dir`: it is the
// gap between the reference face and the incident face on a line parallel to `dir`, so both
// witness points lie on the surfaces and no point is deeper than the signed distance when
// `dir` is the separating axis. For dir = face_normal this is the classic face clipping.
// Points are for the pair (ref, inc) with normal `dir`, which moves as `normal_model` tells.
int ClipFaces(const PosedBox& ref, int ref_axis, const Eigen::Vector3d& face_normal,
              const Eigen::Vector3d& dir, const PosedBox& inc, double margin_m,
              const ContactFeature& normal_model, std::vector<ContactPoint>* out) {
  const int iu = (ref_axis + 1) % 3, iv = (ref_axis + 2) % 3;
  const Eigen::Vector3d u = ref.R.col(iu), v = ref.R.col(iv);
  const Eigen::Vector3d face_center = ref.p + ref.h[ref_axis] * face_normal;
  const double cos_dir = face_normal.dot(dir);
  if (!(cos_dir > 1e-6)) return 0;

  // Incident face: the face of inc whose outward normal is most opposed to `dir`.
  const Eigen::Vector3d n_inc = inc.R.transpose() * dir;
  int inc_axis = 0;
  n_inc.cwiseAbs().maxCoeff(&inc_axis);
  const double inc_sign = -SignNonNegative(n_inc[inc_axis]);
  const int ju = (inc_axis + 1) % 3, jv = (inc_axis + 2) % 3;
  const Eigen::Vector3d inc_center = inc.p + inc_sign * inc.h[inc_axis] * inc.R.col(inc_axis);
  const Eigen::Vector3d a1 = inc.h[ju] * inc.R.col(ju), a2 = inc.h[jv] * inc.R.col(jv);

  // (x, y) of the point's projection along `dir` onto the reference plane, z the distance
  // along `dir`: an affine map, so clipping in these coordinates is exact.
  ClipPolygon poly, tmp;
  const double cu[4] = {1, -1, -1, 1}, cv[4] = {1, 1, -1, -1};
  for (int i = 0; i < 4; ++i) {
    const Eigen::Vector3d rel = inc_center + cu[i] * a1 + cv[i] * a2 - face_center;
    const double z = face_normal.dot(rel) / cos_dir;
    const Eigen::Vector3d in_plane = rel - z * dir;
    poly.points[i] = Eigen::Vector3d(u.dot(in_plane), v.dot(in_plane), z);
    poly.tags[i] = {static_cast<uint8_t>((1u << i) | (1u << ((i + 3) % 4))), 0};
  }
  int count = 4;
  count = ClipAgainst(poly, count, 0, 1.0, ref.h[iu], 0, &tmp);
  count = ClipAgainst(tmp, count, 0, -1.0, ref.h[iu], 1, &poly);
  count = ClipAgainst(poly, count, 1, 1.0, ref.h[iv], 2, &tmp);
  count = ClipAgainst(tmp, count, 1, -1.0, ref.h[iv], 3, &poly);

  // The incident face's edges (corner i to i + 1) run along ju, jv, ju, jv; passes 0 and 1 clip
  // at the reference edges along iv, passes 2 and 3 at those along iu.
  const Eigen::Vector3d inc_normal_G = inc_sign * Eigen::Vector3d::Unit(inc_axis);
  const Eigen::Vector3d ref_normal_G = ref.R.transpose() * face_normal;
  int added = 0;
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector3d& c = poly.points[i];
    if (c.z() >= margin_m) continue;
    const Eigen::Vector3d on_ref = face_center + c.x() * u + c.y() * v;
    ContactFeature feature = normal_model;
    feature.a = PlaneSide(ref_normal_G);
    feature.b = MaterialSide();
    const ClipTag& tag = poly.tags[i];
    const int edges = std::popcount(tag.inc_edges), planes = std::popcount(tag.planes);
    if (edges == 1 && planes == 1) {
      const int e = std::countr_zero(static_cast<unsigned>(tag.inc_edges));
      const int k = std::countr_zero(static_cast<unsigned>(tag.planes));
      feature.b = EdgeCutSide(Eigen::Vector3d::Unit(e % 2 == 0 ? ju : jv),
                              Eigen::Vector3d::Unit(k < 2 ? iv : iu), 0.0);
    } else if (edges == 0 && planes == 2) {
      feature.a = MaterialSide();
      feature.b = PlaneSide(inc_normal_G);
    }
    out->push_back(MakeContact(on_ref, on_ref + c.z() * dir, dir, 0.0, 0.0, feature));
    ++added;
  }
  return added;
}

// The normal model of face clipping: the reference face's normal, the first shape's.
ContactFeature FaceNormalModel() {
  return MakeFeature(FeatureNormal::kFixedInA, MaterialSide(), MaterialSide());
}

// The normal model of a polygon clipped along an exact contact's normal, for the reference
// `ref_is_A`: the exact point's when it turns with a face or with two edges; along the line of
// two cores (a vertex–vertex or vertex–edge GJK point of separated boxes) it is taken as turning
// with the reference box (docs/contact-model.md §9).
ContactFeature PolygonNormalModel(const ContactFeature& exact, bool ref_is_A) {
  ContactFeature model = exact;
  if (model.normal == FeatureNormal::kCentres) {
    model.normal = ref_is_A ? FeatureNormal::kFixedInA : FeatureNormal::kFixedInB;
  }
  if (!ref_is_A) FlipFeature(&model);
  return model;
}

// Faces within this angle (sine) of the contact normal count as in contact for edge and GJK
// normals. Only the points of the clipped face within the margin are kept, so this can be
// generous; a box spinning at 25 rad/s turns by 3° in a 2 ms step.
constexpr double kFaceSinTolerance = 0.1;

// For a contact normal `n` (unit, from A into B) that is not a face axis: if the face of A most
// aligned with n or the face of B most opposed to it is within kFaceSinTolerance of n, appends
// the face polygon clipped along n (reference: the more parallel face, A on ties) and returns
// the number of points; otherwise appends nothing.
int NearParallelFaceContacts(const PosedBox& box_A, const PosedBox& box_B,
                             const ContactPoint& exact, double margin_m,
                             std::vector<ContactPoint>* out) {
  const Eigen::Vector3d& n = exact.normal_W;
  const Eigen::Vector3d n_A = box_A.R.transpose() * n, n_B = box_B.R.transpose() * n;
  int ia = 0, ib = 0;
  const double cos_A = n_A.cwiseAbs().maxCoeff(&ia), cos_B = n_B.cwiseAbs().maxCoeff(&ib);
  const double cos_min = std::sqrt(1.0 - kFaceSinTolerance * kFaceSinTolerance);
  if (std::max(cos_A, cos_B) < cos_min) return 0;
  if (cos_A >= cos_B - 1e-12) {
    const Eigen::Vector3d face_normal = SignNonNegative(n_A[ia]) * box_A.R.col(ia);
    return ClipFaces(box_A, ia, face_normal, n, box_B, margin_m,
                     PolygonNormalModel(exact.feature, true), out);
  }
  const size_t first = out->size();
  const Eigen::Vector3d face_normal = -SignNonNegative(n_B[ib]) * box_B.R.col(ib);
  const int added = ClipFaces(box_B, ib, face_normal, -n, box_A, margin_m,
                              PolygonNormalModel(exact.feature, false), out);
  FlipContacts(first, out);
  return added;
}

// Appends the near-parallel face polygon for the exact contact `exact` (if any), and `exact`
// itself when the polygon is empty or misses the minimum. Returns the number of points.
int ExactPointAndFaces(const PosedBox& box_A, const PosedBox& box_B, const ContactPoint& exact,
                       double margin_m, std::vector<ContactPoint>* out) {
  if (exact.signed_distance_m >= margin_m) return 0;
  const size_t first = out->size();
  NearParallelFaceContacts(box_A, box_B, exact, margin_m, out);
  double deepest = std::numeric_limits<double>::infinity();
  for (size_t i = first; i < out->size(); ++i) {
    deepest = std::min(deepest, (*out)[i].signed_distance_m);
  }
  if (exact.signed_distance_m < deepest - 1e-9 - 1e-9 * std::abs(exact.signed_distance_m)) {
    out->push_back(exact);
  }
  return static_cast<int>(out->size() - first);
}

enum class AxisKind { kFaceA, kFaceB, kEdge };

// A clipped quadrilateral has at most 8 vertices; with the exact point, one more is possible.
constexpr int kMaxBoxBoxPoints = 8;

}  // namespace

// One algorithm, kept whole: the separating-axis test over the 15 axes, then the reference and
// incident faces clipped against each other (or the edge–edge closest points).
int BoxBoxContacts(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                   const Eigen::Isometry3d& X_WB, double margin_m, std::vector<ContactPoint>* out) {
  const Eigen::Matrix3d& R_WA = X_WA.linear();
  const Eigen::Matrix3d& R_WB = X_WB.linear();
  const Eigen::Vector3d& hA = a.half_extents_m;
  const Eigen::Vector3d& hB = b.half_extents_m;
  const Eigen::Vector3d t_W = X_WB.translation() - X_WA.translation();
  const Eigen::Vector3d t = R_WA.transpose() * t_W;   // centre of B in A's axes
  const Eigen::Matrix3d R = R_WA.transpose() * R_WB;  // B's axes in A's axes (columns)
  const Eigen::Matrix3d absR = R.cwiseAbs();

  // Face axes. Ties go to A, then to lower indices, so results are deterministic.
  double best_face = -std::numeric_limits<double>::infinity();
  AxisKind kind = AxisKind::kFaceA;
  int best_index = 0;
  for (int i = 0; i < 3; ++i) {
    const double sep = std::abs(t[i]) - hA[i] - absR.row(i).dot(hB);
    if (sep > margin_m) return 0;
    if (sep > best_face) {
      best_face = sep;
      best_index = i;
    }
  }
  const Eigen::Vector3d t_B = R.transpose() * t;  // centre offset in B's axes
  for (int j = 0; j < 3; ++j) {
    const double sep = std::abs(t_B[j]) - absR.col(j).dot(hA) - hB[j];
    if (sep > margin_m) return 0;
    // B's face only when clearly better, so that a stack keeps a stable reference face.
    if (sep > best_face + 1e-9 + 1e-6 * std::abs(best_face)) {
      best_face = sep;
      kind = AxisKind::kFaceB;
      best_index = j;
    }
  }
  // Edge axes e_i × b_j, in A's axes.
  double best_edge = -std::numeric_limits<double>::infinity();
  int best_edge_i = -1, best_edge_j = -1;
  Eigen::Vector3d best_edge_axis = Eigen::Vector3d::Zero();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const Eigen::Vector3d axis = Eigen::Vector3d::Unit(i).cross(R.col(j));
      const double len = axis.norm();
      if (len < 1e-6) continue;  // parallel edges: covered by the face axes
      const double ra = hA.dot(axis.cwiseAbs());
      const double rb = hB.dot((R.transpose() * axis).cwiseAbs());
      const double sep = (std::abs(t.dot(axis)) - ra - rb) / len;
      if (sep > margin_m) return 0;
      if (sep > best_edge) {
        best_edge = sep;
        best_edge_i = i;
        best_edge_j = j;
        best_edge_axis = axis / len;
      }
    }
  }
  // Edge contact only when clearly shallower than any face contact: face manifolds are what
  // keep resting boxes stable, and near-ties are decided the same way every step.
  const bool edge = best_edge_i >= 0 && best_edge > best_face + 1e-6 + 0.02 * std::abs(best_face);
  if (edge) kind = AxisKind::kEdge;
  const double best_sep = edge ? best_edge : best_face;

  const size_t first = out->size();
  auto single_point_from_gjk = [&]() {
    const ConvexCore core_A(a, X_WA), core_B(b, X_WB);
    const CoreDistance d = ComputeCoreDistance(core_A, core_B);
    if (d.signed_distance >= margin_m) return 0;
    out->push_back(MakeContact(d.point_A_W, d.point_B_W, d.normal_W, 0.0, 0.0,
                               ExactContactFeature(core_A, core_B, d.normal_W)));
    return 1;
  };

  const PosedBox box_A{R_WA, X_WA.translation(), hA}, box_B{R_WB, X_WB.translation(), hB};
  if (best_sep > 0) {
    // Separated: the axis bound is exact only if it agrees with the true distance.
    const ConvexCore core_A(a, X_WA), core_B(b, X_WB);
    const CoreDistance d = ComputeCoreDistance(core_A, core_B);
    if (d.signed_distance >= margin_m) return 0;
    if (kind == AxisKind::kEdge || d.signed_distance > best_sep + 1e-9 + 1e-6 * best_sep) {
      const ContactPoint exact = MakeContact(d.point_A_W, d.point_B_W, d.normal_W, 0.0, 0.0,
                                             ExactContactFeature(core_A, core_B, d.normal_W));
      ExactPointAndFaces(box_A, box_B, exact, margin_m, out);
      ReduceContacts(first, kMaxBoxBoxPoints, out);
      return static_cast<int>(out->size() - first);
    }
  }

  switch (kind) {
    case AxisKind::kFaceA: {
      const Eigen::Vector3d normal = SignNonNegative(t[best_index]) * R_WA.col(best_index);
      ClipFaces(box_A, best_index, normal, normal, box_B, margin_m, FaceNormalModel(), out);
      break;
    }
    case AxisKind::kFaceB: {
      // B is the reference: compute for (B, A) and flip.
      const Eigen::Vector3d normal = -SignNonNegative(t_B[best_index]) * R_WB.col(best_index);
      ClipFaces(box_B, best_index, normal, normal, box_A, margin_m, FaceNormalModel(), out);
      FlipContacts(first, out);
      break;
    }
    case AxisKind::kEdge: {
      Eigen::Vector3d n_A = best_edge_axis;  // in A's axes, from A towards B
      if (t.dot(n_A) < 0) n_A = -n_A;
      const Eigen::Vector3d n_B = -(R.transpose() * n_A);  // towards A, in B's axes
      // The edge of A farthest along n and the edge of B farthest along −n.
      Eigen::Vector3d pa(SignNonNegative(n_A.x()) * hA.x(), SignNonNegative(n_A.y()) * hA.y(),
                         SignNonNegative(n_A.z()) * hA.z());
      Eigen::Vector3d pb(SignNonNegative(n_B.x()) * hB.x(), SignNonNegative(n_B.y()) * hB.y(),
                         SignNonNegative(n_B.z()) * hB.z());
      Eigen::Vector3d qa = pa, qb = pb;
      pa[best_edge_i] = -hA[best_edge_i];
      qa[best_edge_i] = hA[best_edge_i];
      pb[best_edge_j] = -hB[best_edge_j];
      qb[best_edge_j] = hB[best_edge_j];
      const Eigen::Vector3d pa_W = X_WA * pa, qa_W = X_WA * qa;
      const Eigen::Vector3d pb_W = X_WB * pb, qb_W = X_WB * qb;
      double s = 0, u = 0;
      ClosestPointsSegmentSegment(pa_W, qa_W, pb_W, qb_W, &s, &u);
      const ContactPoint c =
          MakeContact(pa_W + s * (qa_W - pa_W), pb_W + u * (qb_W - pb_W), R_WA * n_A, 0.0, 0.0,
                      EdgeEdgeFeature(Eigen::Vector3d::Unit(best_edge_i), 0.0,
                                      Eigen::Vector3d::Unit(best_edge_j), 0.0));
      // Nearly parallel faces twisted against each other: their polygon as well.
      ExactPointAndFaces(box_A, box_B, c, margin_m, out);
      ReduceContacts(first, kMaxBoxBoxPoints, out);
      break;
    }
  }
  // Numerical corner cases (a face axis whose clip came out empty): one exact point.
  if (out->size() == first && best_sep < margin_m) single_point_from_gjk();
  return static_cast<int>(out->size() - first);
}

}  // namespace contactlab::internal
