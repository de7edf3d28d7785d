#include "engine/hydroelastic/hydroelastic_properties.h"

#include <algorithm>

namespace contactlab {

const char* ContactModelName(ContactModel m) {
  switch (m) {
    case ContactModel::kPoint:
      return "point";
    case ContactModel::kHydroelasticCompliant:
      return "hydroelastic_compliant";
    case ContactModel::kHydroelasticRigid:
      return "hydroelastic_rigid";
  }
  return "?";
}

std::optional<ContactModel> ParseContactModel(const std::string& s) {
  if (s == "point") return ContactModel::kPoint;
  if (s == "hydroelastic_compliant") return ContactModel::kHydroelasticCompliant;
  if (s == "hydroelastic_rigid") return ContactModel::kHydroelasticRigid;
  return std::nullopt;
}

double DefaultHydroelasticResolution(const Shape& s) {
  switch (s.type) {
    case ShapeType::kSphere:
    case ShapeType::kCapsule:
      return 0.2 * 2.0 * s.radius_m;
    case ShapeType::kBox:
      return 0.2 * 2.0 * s.half_extents_m.minCoeff();
    case ShapeType::kCylinder:
      return 0.2 * std::min(2.0 * s.radius_m, s.length_m);
    case ShapeType::kConvexMesh:
      return 0.2 * 2.0 * s.convex_mesh->half_size_m;
    case ShapeType::kHalfSpace:
      return 0.0;
  }
  return 0.0;
}

}  // namespace contactlab
