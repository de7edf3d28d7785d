// One geometry's hydroelastic representation (docs/contact-model.md §5): a compliant tet mesh
// with its pressure field p = E_h·ε, or a rigid triangle surface (or the analytic half-space),
// and the checks and builds of a live change of E_h or the mesh resolution. Pure functions of
// their arguments: safe on any thread (the sim runtime re-meshes on a worker and swaps the
// result in between steps).
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "engine/geometry/shape.h"
#include "engine/hydroelastic/hydroelastic_geometry.h"
#include "engine/hydroelastic/hydroelastic_properties.h"

namespace contactlab {

// Immutable once built and shared (shared_ptr<const>): a World keeps stepping with the old one
// while a new one is built on another thread.
struct HydroelasticRepresentation {
  ContactModel model = ContactModel::kPoint;  // kPoint: none (point contact only)
  double modulus_Pa = 0;                      // E_h of a compliant geometry (0 otherwise)
  double resolution_m = 0;  // the edge length the mesh was built with (0: half-space or none)
  std::shared_ptr<const hydroelastic::CompliantGeometry> compliant;
  std::shared_ptr<const hydroelastic::RigidGeometry> rigid;
  int num_tets() const { return compliant ? compliant->mesh.num_tets() : 0; }
  int num_triangles() const { return rigid ? rigid->mesh.num_triangles() : 0; }
  // The properties in force: `spec` with this representation's E_h and resolution.
  HydroelasticProperties InForce(const HydroelasticProperties& spec) const;
};

// Meshes larger than these are refused before they are built (≈ 160 MB: mesh, planes, BVH).
inline constexpr int kMaxHydroelasticTets = 500'000;
inline constexpr int kMaxHydroelasticTriangles = 200'000;

// The shape's largest dimension [m] (box: longest side; sphere: diameter; cylinder and
// capsule: max of diameter and overall length); 0 for a half-space. No resolution is coarser.
double ShapeLargestDimension(const Shape& s);

// A live change of a geometry's E_h and mesh resolution (std::nullopt: unchanged).
struct HydroelasticChange {
  std::optional<double> modulus_Pa;
  std::optional<double> resolution_m;
};

// Throws std::invalid_argument with one line naming the geometry and the value: a modulus that
// is not positive and finite, or given for a geometry that is not compliant; a resolution on a
// point-contact geometry or a half-space, not positive and finite, coarser than the shape's
// largest dimension, or so fine that the mesh would exceed kMaxHydroelasticTets tets
// (compliant) or kMaxHydroelasticTriangles triangles (rigid) — the message gives the finest
// resolution allowed.
// `given_volume_mesh`: the geometry's tet mesh is its own (HydroelasticProperties::volume_mesh):
// then a non-convex mesh shape may be compliant, and its resolution cannot change.
void ValidateHydroelasticChange(std::string_view geometry_name, const Shape& shape,
                                ContactModel model, const HydroelasticChange& change,
                                bool given_volume_mesh = false);

// Builds the representation of a geometry with the given properties, changed by `change`:
// values it does not hold are those of `current` (the geometry's representation now) or, with
// no `current`, of `properties` (a resolution of 0 there means DefaultHydroelasticResolution).
// When `current` was meshed at the resolution asked for, the mesh is reused and only the
// pressure is rescaled — p = E_h·ε is linear in E_h (§5), so a modulus change needs no
// re-meshing. Validates the change (ValidateHydroelasticChange).
HydroelasticRepresentation BuildHydroelasticRepresentation(
    std::string_view geometry_name, const Shape& shape, const HydroelasticProperties& properties,
    const HydroelasticChange& change = {}, const HydroelasticRepresentation* current = nullptr);

// A copy of `g` with the hydroelastic modulus E_h: p = E_h·ε is linear in E_h (§5), so the
// pressures scale by E_h/E_h,old and the mesh, face planes and BVH are kept (no re-meshing).
hydroelastic::CompliantGeometry WithModulus(const hydroelastic::CompliantGeometry& g,
                                            double modulus_Pa);

// Throws std::invalid_argument unless `next` can replace `now` for the named geometry: the same
// model, not point contact, and its mesh present.
void CheckHydroelasticReplacement(std::string_view geometry_name,
                                  const HydroelasticRepresentation& now,
                                  const HydroelasticRepresentation& next);

}  // namespace contactlab
