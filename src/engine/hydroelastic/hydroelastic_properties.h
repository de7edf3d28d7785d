// How a geometry takes part in contact, and the parameters of its hydroelastic (pressure-field)
// representation (docs/contact-model.md §5). Plain data: the scene description holds one per
// geometry; the representation built from it is in hydroelastic_representation.h.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/geometry/shape.h"
#include "engine/hydroelastic/volume_mesh.h"

namespace contactlab {

// A pair uses hydroelastic contact when at least one side is kHydroelasticCompliant and the
// other is compliant, kHydroelasticRigid, or a half-space (a half-space always has a rigid
// hydroelastic representation, whatever its model); every other pair uses point contact.
enum class ContactModel { kPoint, kHydroelasticCompliant, kHydroelasticRigid };
// "point" | "hydroelastic_compliant" | "hydroelastic_rigid".
const char* ContactModelName(ContactModel m);
std::optional<ContactModel> ParseContactModel(const std::string& s);

struct HydroelasticProperties {
  ContactModel model = ContactModel::kPoint;
  // E_h [Pa] of a compliant geometry, > 0 (default from docs/contact-model.md §2.1).
  double modulus_Pa = 1e7;
  // Mesh edge length [m], ≥ 0; 0 picks DefaultHydroelasticResolution(shape).
  double resolution_m = 0.0;
  // A compliant geometry's own tet mesh (a VTK file's, e.g. made by tetgen), used instead of one
  // generated from the shape at resolution_m — a non-convex mesh shape needs one; its field is
  // ε = distance to its boundary, normalized (docs/contact-model.md §5). Shared, immutable.
  std::shared_ptr<const hydroelastic::VolumeMesh> volume_mesh;
};

// A fifth of the shape's smallest dimension (box: smallest side; sphere: diameter; cylinder:
// min(diameter, length); capsule: diameter); 0 for a half-space (no mesh).
double DefaultHydroelasticResolution(const Shape& shape);

}  // namespace contactlab
