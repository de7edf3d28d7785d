#include "engine/geometry/convex_core.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "engine/geometry/contact_utils.h"

namespace contactlab::internal {
namespace {

inline double SignNonNegative(double x) { return x >= 0.0 ? 1.0 : -1.0; }

}  // namespace

ConvexCore::ConvexCore(const Shape& shape, const Eigen::Isometry3d& X_WG)
    : type(shape.type),
      R_WG(X_WG.linear()),
      p_WG(X_WG.translation()),
      half_extents(shape.half_extents_m),
      center(p_WG) {
  switch (shape.type) {
    case ShapeType::kSphere:
      inflation = shape.radius_m;
      break;
    case ShapeType::kCapsule:
      inflation = shape.radius_m;
      half_length = 0.5 * shape.length_m;
      break;
    case ShapeType::kCylinder:
      radius = shape.radius_m;
      half_length = 0.5 * shape.length_m;
      break;
    case ShapeType::kConvexMesh:
      polyhedron = shape.convex_mesh.get();
      center = R_WG * polyhedron->mass.centroid_G + p_WG;
      break;
    default:
      break;
  }
}

Eigen::Vector3d ConvexCore::Support(const Eigen::Vector3d& dir_W) const {
  const Eigen::Vector3d d = R_WG.transpose() * dir_W;
  Eigen::Vector3d s = Eigen::Vector3d::Zero();
  switch (type) {
    case ShapeType::kBox:
      s = Eigen::Vector3d(SignNonNegative(d.x()) * half_extents.x(),
                          SignNonNegative(d.y()) * half_extents.y(),
                          SignNonNegative(d.z()) * half_extents.z());
      break;
    case ShapeType::kCapsule:
      s.z() = SignNonNegative(d.z()) * half_length;
      break;
    case ShapeType::kCylinder: {
      const double radial = std::sqrt(d.x() * d.x() + d.y() * d.y());
      // With no radial component every rim point supports; the cap centre also does.
      if (radial > 1e-12 * (radial + std::abs(d.z()))) {
        s.x() = radius * d.x() / radial;
        s.y() = radius * d.y() / radial;
      }
      s.z() = SignNonNegative(d.z()) * half_length;
      break;
    }
    case ShapeType::kConvexMesh:
      s = polyhedron->vertices_G[polyhedron->SupportVertex(d)];
      break;
    default:
      break;
  }
  return R_WG * s + p_WG;
}

Eigen::Vector3d ConvexCore::ToWorld(const Eigen::Vector3d& p_G) const { return R_WG * p_G + p_WG; }

SupportFeature ConvexCore::Feature(const Eigen::Vector3d& dir_W, double sin_tolerance) const {
  const Eigen::Vector3d d = R_WG.transpose() * dir_W;  // unit
  const double cos_tolerance = std::sqrt(std::max(0.0, 1.0 - sin_tolerance * sin_tolerance));
  switch (type) {
    case ShapeType::kBox:
      return BoxFeature(d, sin_tolerance, cos_tolerance);
    case ShapeType::kCylinder:
      return CylinderFeature(d, sin_tolerance, cos_tolerance);
    case ShapeType::kCapsule:
      return CapsuleFeature(d, sin_tolerance);
    case ShapeType::kConvexMesh:
      return MeshFeature(d, sin_tolerance, cos_tolerance);
    default: {
      SupportFeature f;
      f.vertices_W[0] = p_WG;
      f.count = 1;
      return f;
    }
  }
}

SupportFeature ConvexCore::BoxFeature(const Eigen::Vector3d& d, double sin_tolerance,
                                      double cos_tolerance) const {
  SupportFeature f;
  int axis = 0;
  d.cwiseAbs().maxCoeff(&axis);
  if (std::abs(d[axis]) >= cos_tolerance) {
    const double s = SignNonNegative(d[axis]);
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    // (u, v) corners counterclockwise about +e_axis; reversed for the −e_axis face.
    const double cu[4] = {1, -1, -1, 1}, cv[4] = {1, 1, -1, -1};
    for (int i = 0; i < 4; ++i) {
      const int k = s > 0 ? i : 3 - i;
      Eigen::Vector3d p;
      p[axis] = s * half_extents[axis];
      p[u] = cu[k] * half_extents[u];
      p[v] = cv[k] * half_extents[v];
      f.vertices_W[i] = ToWorld(p);
    }
    f.count = 4;
    f.face_normal_W = s * R_WG.col(axis);
    return f;
  }
  // An edge along the axis to which d is (nearly) perpendicular.
  int edge_axis = 0;
  d.cwiseAbs().minCoeff(&edge_axis);
  Eigen::Vector3d p(SignNonNegative(d.x()) * half_extents.x(),
                    SignNonNegative(d.y()) * half_extents.y(),
                    SignNonNegative(d.z()) * half_extents.z());
  if (std::abs(d[edge_axis]) <= sin_tolerance) {
    p[edge_axis] = -half_extents[edge_axis];
    f.vertices_W[0] = ToWorld(p);
    p[edge_axis] = half_extents[edge_axis];
    f.vertices_W[1] = ToWorld(p);
    f.count = 2;
    return f;
  }
  f.vertices_W[0] = ToWorld(p);
  f.count = 1;
  return f;
}

SupportFeature ConvexCore::CylinderFeature(const Eigen::Vector3d& d, double sin_tolerance,
                                           double cos_tolerance) const {
  SupportFeature f;
  const double radial = std::hypot(d.x(), d.y());
  if (std::abs(d.z()) >= cos_tolerance) {
    const double s = SignNonNegative(d.z());
    for (int i = 0; i < kCylinderCapVertices; ++i) {
      const int k = s > 0 ? i : kCylinderCapVertices - 1 - i;
      const double angle = 2.0 * std::numbers::pi * k / kCylinderCapVertices;
      f.vertices_W[i] = ToWorld(
          Eigen::Vector3d(radius * std::cos(angle), radius * std::sin(angle), s * half_length));
    }
    f.count = kCylinderCapVertices;
    f.face_normal_W = s * R_WG.col(2);
    return f;
  }
  const Eigen::Vector3d rim(radius * d.x() / radial, radius * d.y() / radial, 0.0);
  if (std::abs(d.z()) <= sin_tolerance) {
    f.vertices_W[0] = ToWorld(rim - Eigen::Vector3d(0, 0, half_length));
    f.vertices_W[1] = ToWorld(rim + Eigen::Vector3d(0, 0, half_length));
    f.count = 2;
    return f;
  }
  f.vertices_W[0] = ToWorld(rim + Eigen::Vector3d(0, 0, SignNonNegative(d.z()) * half_length));
  f.count = 1;
  return f;
}

SupportFeature ConvexCore::CapsuleFeature(const Eigen::Vector3d& d, double sin_tolerance) const {
  SupportFeature f;
  if (std::abs(d.z()) <= sin_tolerance) {
    f.vertices_W[0] = ToWorld(Eigen::Vector3d(0, 0, -half_length));
    f.vertices_W[1] = ToWorld(Eigen::Vector3d(0, 0, half_length));
    f.count = 2;
    return f;
  }
  f.vertices_W[0] = ToWorld(Eigen::Vector3d(0, 0, SignNonNegative(d.z()) * half_length));
  f.count = 1;
  return f;
}

SupportFeature ConvexCore::MeshFeature(const Eigen::Vector3d& d, double sin_tolerance,
                                       double cos_tolerance) const {
  SupportFeature f;
  const ConvexPolyhedron& h = *polyhedron;
  // The face whose normal is closest to d.
  int best_face = 0;
  double best_cos = -2.0;
  for (int i = 0; i < h.num_faces(); ++i) {
    const double c = h.faces[i].normal_G.dot(d);
    if (c > best_cos) {
      best_cos = c;
      best_face = i;
    }
  }
  if (best_cos >= cos_tolerance) {
    const ConvexPolyhedron::Face& face = h.faces[best_face];
    // A face with more corners than a feature holds (a many-sided cap) is represented by an
    // inscribed polygon of evenly spread corners: still convex and counterclockwise.
    const int count = std::min(face.count, SupportFeature::kMaxVertices);
    for (int i = 0; i < count; ++i) {
      const int k = static_cast<int>((static_cast<long>(i) * face.count) / count);
      f.vertices_W[i] = ToWorld(h.vertices_G[h.face_vertices[face.first + k]]);
    }
    f.count = count;
    f.face_normal_W = R_WG * face.normal_G;
    return f;
  }
  // An edge from the support vertex nearly perpendicular to d.
  const int v = h.SupportVertex(d);
  const Eigen::Vector3d& pv = h.vertices_G[v];
  int best_edge = -1;
  double best_height = -std::numeric_limits<double>::infinity();
  for (int k = h.neighbor_offsets[v]; k < h.neighbor_offsets[v + 1]; ++k) {
    const Eigen::Vector3d e = h.vertices_G[h.neighbors[k]] - pv;
    const double height = d.dot(e);
    if (std::abs(height) <= sin_tolerance * e.norm() && height > best_height) {
      best_height = height;
      best_edge = h.neighbors[k];
    }
  }
  f.vertices_W[0] = ToWorld(pv);
  f.count = 1;
  if (best_edge >= 0) {
    f.vertices_W[1] = ToWorld(h.vertices_G[best_edge]);
    f.count = 2;
  }
  return f;
}

ContactFeature::Side FeatureVertexSide(const ConvexCore& core, const Eigen::Vector3d& p_W,
                                       int feature_count) {
  if (core.type == ShapeType::kCylinder && feature_count <= 2) {
    const double z = core.R_WG.col(2).dot(p_W - core.p_WG);
    return RimSide(FeatureCore::kRimSupport, SignNonNegative(z) * core.half_length);
  }
  return MaterialSide(core.inflation);
}

ContactFeature::Side FeatureLineSide(const ConvexCore& core, const Eigen::Vector3d& line_W) {
  if (core.type == ShapeType::kCylinder) return LineSide(Eigen::Vector3d::UnitZ(), core.radius);
  return LineSide((core.R_WG.transpose() * line_W).normalized(), core.inflation);
}

namespace {

// One side of an exact contact: its supporting feature towards the other core.
struct ExactSide {
  int count = 1;  // 1 point, 2 line, ≥ 3 face
  ContactFeature::Side side;
};

ExactSide ClassifyExactSide(const ConvexCore& core, const Eigen::Vector3d& dir_W) {
  // EPA's normal is exact to ~1e-8 on flat features; a rim point is never within this of a cap.
  constexpr double kFeatureSin = 1e-5;
  const SupportFeature f = core.Feature(dir_W, kFeatureSin);
  if (f.count >= 3) {
    return {f.count, PlaneSide(core.R_WG.transpose() * f.face_normal_W, core.inflation)};
  }
  if (f.count == 2) return {2, FeatureLineSide(core, f.vertices_W[1] - f.vertices_W[0])};
  return {1, FeatureVertexSide(core, f.vertices_W[0], 1)};
}

// A rim point seen as its tangent line (for a rim against a line or another rim).
ContactFeature::Side AsLine(const ContactFeature::Side& side, const ConvexCore& core,
                            const Eigen::Vector3d& p_W) {
  if (side.core != FeatureCore::kRimSupport) return side;
  const Eigen::Vector3d p_G = core.R_WG.transpose() * (p_W - core.p_WG);
  return LineSide(Eigen::Vector3d::UnitZ().cross(p_G).normalized());
}

}  // namespace

ContactFeature ExactContactFeature(const ConvexCore& a, const ConvexCore& b,
                                   const Eigen::Vector3d& normal_W) {
  const ExactSide sa = ClassifyExactSide(a, normal_W), sb = ClassifyExactSide(b, -normal_W);
  // A face against a point; a line or face on a face is a manifold's business (its exact point
  // is then taken as a material point).
  if (sa.count >= 3 || sb.count >= 3) {
    const bool face_A = sa.count >= 3;
    const ExactSide& other = face_A ? sb : sa;
    const ContactFeature::Side point =
        other.count == 1 ? other.side : MaterialSide(face_A ? b.inflation : a.inflation);
    return face_A ? MakeFeature(FeatureNormal::kFixedInA, sa.side, point)
                  : MakeFeature(FeatureNormal::kFixedInB, point, sb.side);
  }
  const Eigen::Vector3d p_A = a.Support(normal_W), p_B = b.Support(-normal_W);
  const bool rim_A = sa.side.core == FeatureCore::kRimSupport;
  const bool rim_B = sb.side.core == FeatureCore::kRimSupport;
  if (sa.count == 2 || sb.count == 2 || (rim_A && rim_B)) {
    const ContactFeature::Side la = AsLine(sa.side, a, p_A), lb = AsLine(sb.side, b, p_B);
    if (la.core == FeatureCore::kOnLine && lb.core == FeatureCore::kOnLine) {
      return EdgeEdgeFeature(la.axis_G, la.radius_m, lb.axis_G, lb.radius_m);
    }
    return MakeFeature(FeatureNormal::kCentres, la, lb);
  }
  // Two points: a rim's is the one closest to the other point.
  ContactFeature f = MakeFeature(FeatureNormal::kCentres, sa.side, sb.side);
  if (rim_A) f.a.core = FeatureCore::kRimToward;
  if (rim_B) f.b.core = FeatureCore::kRimToward;
  return f;
}

}  // namespace contactlab::internal
