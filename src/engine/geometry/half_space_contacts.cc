// Any bounded shape against a half-space: the support points of the shape along the inward
// normal. Flat features give several points so that resting bodies have a support polygon
// (a convex mesh: its vertices within the margin, at most 8).
#include <cmath>
#include <numbers>

#include "engine/geometry/contact_utils.h"
#include "engine/geometry/convex_core.h"
#include "engine/geometry/pair_contacts.h"

namespace contactlab::internal {
namespace {

// Number of rim samples per cylinder cap.
constexpr int kRimSamples = 8;
// At most this many vertices of a convex mesh (a finely tessellated round face resting on the
// plane would otherwise give one constraint per vertex).
constexpr int kMaxMeshPoints = 8;

// A point of the shape's core at height `height` above the plane (along `normal`); `side_B`
// tells how it moves with the shape (the plane's point is its projection, the normal the
// half-space's).
inline bool AppendIfWithinMargin(const Eigen::Vector3d& core_B, double height, double radius_B,
                                 const Eigen::Vector3d& normal, double margin_m,
                                 const ContactFeature::Side& side_B,
                                 std::vector<ContactPoint>* out) {
  if (height - radius_B >= margin_m) return false;
  const ContactFeature feature =
      MakeFeature(FeatureNormal::kFixedInA, PlaneSide(Eigen::Vector3d::UnitZ()), side_B);
  out->push_back(MakeContact(core_B - height * normal, core_B, normal, 0.0, radius_B, feature));
  return true;
}

}  // namespace

int HalfSpaceContacts(const Shape& /*half_space: no size*/, const Eigen::Isometry3d& X_WA,
                      const Shape& b, const Eigen::Isometry3d& X_WB, double margin_m,
                      std::vector<ContactPoint>* out) {
  const Eigen::Vector3d normal = X_WA.linear().col(2);
  const Eigen::Vector3d& center = X_WB.translation();
  const Eigen::Matrix3d& R_WB = X_WB.linear();
  const double center_height = normal.dot(center - X_WA.translation());
  const size_t first = out->size();
  switch (b.type) {
    case ShapeType::kSphere:
      AppendIfWithinMargin(center, center_height, b.radius_m, normal, margin_m,
                           MaterialSide(b.radius_m), out);
      break;
    case ShapeType::kCapsule: {
      // Both end spheres: a lying capsule rests on two points.
      const Eigen::Vector3d half = 0.5 * b.length_m * R_WB.col(2);
      const double half_height = normal.dot(half);
      AppendIfWithinMargin(center - half, center_height - half_height, b.radius_m, normal, margin_m,
                           MaterialSide(b.radius_m), out);
      AppendIfWithinMargin(center + half, center_height + half_height, b.radius_m, normal, margin_m,
                           MaterialSide(b.radius_m), out);
      break;
    }
    case ShapeType::kBox: {
      // Every vertex within the margin: a resting box gives its 4 bottom corners.
      const Eigen::Vector3d n_B = R_WB.transpose() * normal;
      const Eigen::Vector3d& h = b.half_extents_m;
      const double lowest = center_height - n_B.cwiseAbs().dot(h);
      if (lowest >= margin_m) break;
      for (int i = 0; i < 8; ++i) {
        const Eigen::Vector3d corner((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(),
                                     (i & 4) ? h.z() : -h.z());
        const double height = center_height + n_B.dot(corner);
        AppendIfWithinMargin(center + R_WB * corner, height, 0.0, normal, margin_m, MaterialSide(),
                             out);
      }
      break;
    }
    case ShapeType::kCylinder: {
      const Eigen::Vector3d axis = R_WB.col(2);
      const double axis_height = normal.dot(axis);
      const double half_length = 0.5 * b.length_m, radius = b.radius_m;
      const double lowest = center_height - half_length * std::abs(axis_height) -
                            radius * std::sqrt(std::max(0.0, 1.0 - axis_height * axis_height));
      if (lowest >= margin_m) break;
      // Rim frame (u, v) of the caps, u towards the lowest rim point; when the axis is along
      // the normal every rim point is equally low and x of the cylinder frame is used.
      Eigen::Vector3d u = -normal + axis_height * axis;
      const double u_norm = u.norm();
      u = u_norm > 1e-9 ? Eigen::Vector3d(u / u_norm) : Eigen::Vector3d(R_WB.col(0));
      const Eigen::Vector3d v = axis.cross(u);
      const double u_height = normal.dot(u), v_height = normal.dot(v);
      for (const double side : {-1.0, 1.0}) {
        const Eigen::Vector3d cap_center = center + side * half_length * axis;
        const double cap_height = center_height + side * half_length * axis_height;
        // The whole cap is beyond the margin: skip its samples.
        if (cap_height - radius * u_norm >= margin_m) continue;
        for (int k = 0; k < kRimSamples; ++k) {
          const double angle = 2.0 * std::numbers::pi * k / kRimSamples;
          const double cu = radius * std::cos(angle), cv = radius * std::sin(angle);
          // The samples turn with u (docs/contact-model.md §9), unless the cylinder stands.
          const ContactFeature::Side rim =
              u_norm > 1e-9 ? RimSide(FeatureCore::kRimSupport, side * half_length, angle)
                            : MaterialSide();
          AppendIfWithinMargin(cap_center + cu * u + cv * v,
                               cap_height + cu * u_height + cv * v_height, 0.0, normal, margin_m,
                               rim, out);
        }
      }
      break;
    }
    case ShapeType::kConvexMesh: {
      // Every vertex within the margin (a face resting on the plane gives its corners), then
      // the deepest and best spread of them.
      const Eigen::Vector3d n_B = R_WB.transpose() * normal;
      const auto& vertices = b.convex_mesh->vertices_G;
      for (const Eigen::Vector3d& v : vertices) {
        AppendIfWithinMargin(center + R_WB * v, center_height + n_B.dot(v), 0.0, normal, margin_m,
                             MaterialSide(), out);
      }
      ReduceContacts(first, kMaxMeshPoints, out);
      break;
    }
    case ShapeType::kHalfSpace:
      break;
  }
  return static_cast<int>(out->size() - first);
}

}  // namespace contactlab::internal
