#include "engine/hydroelastic/hydroelastic_representation.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "engine/hydroelastic/vtk_reader.h"

namespace contactlab {

double ShapeLargestDimension(const Shape& s) {
  switch (s.type) {
    case ShapeType::kSphere:
      return 2.0 * s.radius_m;
    case ShapeType::kBox:
      return 2.0 * s.half_extents_m.maxCoeff();
    case ShapeType::kCylinder:
      return std::max(2.0 * s.radius_m, s.length_m);
    case ShapeType::kCapsule:
      return std::max(2.0 * s.radius_m, s.length_m + 2.0 * s.radius_m);
    case ShapeType::kConvexMesh:
      return 2.0 * s.convex_mesh->half_size_m;
    case ShapeType::kHalfSpace:
      return 0.0;
  }
  return 0.0;
}

namespace {

// Rough mesh sizes at edge length h, to refuse a resolution whose mesh would not fit in memory
// before building it: the surface generators make about 2 S/h² triangles (right triangles of
// legs h over the area S), and the shelled tet mesh has n = max(2, ⌈r/h⌉) shells (inradius r,
// volume_mesh_generators.cc): per surface triangle one core tet and 3 per outer shell, 3n − 2.
double EstimatedTriangles(const Shape& s, double h) {
  constexpr double pi = std::numbers::pi;
  double area = 0.0;
  switch (s.type) {
    case ShapeType::kSphere:
      area = 4.0 * pi * s.radius_m * s.radius_m;
      break;
    case ShapeType::kBox: {
      const Eigen::Vector3d& e = s.half_extents_m;
      area = 8.0 * (e.x() * e.y() + e.y() * e.z() + e.z() * e.x());
      break;
    }
    case ShapeType::kCylinder:
      area = 2.0 * pi * s.radius_m * (s.length_m + s.radius_m);
      break;
    case ShapeType::kCapsule:
      area = 2.0 * pi * s.radius_m * (s.length_m + 2.0 * s.radius_m);
      break;
    case ShapeType::kConvexMesh:  // the mesh's or the hull's own triangles, at any resolution
      return static_cast<double>(s.mesh ? s.mesh->triangles.size()
                                        : s.convex_mesh->triangles.size());
    case ShapeType::kHalfSpace:
      return 0.0;
  }
  return 2.0 * area / (h * h);
}

double EstimatedTets(const Shape& s, double h) {
  double inradius = 0.0;
  switch (s.type) {
    case ShapeType::kSphere:
    case ShapeType::kCapsule:
      inradius = s.radius_m;
      break;
    case ShapeType::kBox:
      inradius = s.half_extents_m.minCoeff();
      break;
    case ShapeType::kCylinder:
      inradius = std::min(s.radius_m, 0.5 * s.length_m);
      break;
    case ShapeType::kConvexMesh:  // hull triangles fanned in ConvexMeshShells layers
      return EstimatedTriangles(s, h) * 3.0 * hydroelastic::ConvexMeshShells(s, h);
    case ShapeType::kHalfSpace:
      return 0.0;
  }
  const double shells = std::max(2.0, std::ceil(inradius / h - 1e-9));
  return EstimatedTriangles(s, h) * (3.0 * shells - 2.0);
}

void ValidateModulus(const std::string& where, bool half_space, ContactModel model,
                     double modulus_Pa) {
  if (model != ContactModel::kHydroelasticCompliant) {
    throw std::invalid_argument(
        fmt::format("{} ({}): only a hydroelastic_compliant geometry has a hydroelastic modulus",
                    where, half_space ? "a half-space" : ContactModelName(model)));
  }
  if (!(modulus_Pa > 0) || !std::isfinite(modulus_Pa)) {
    throw std::invalid_argument(fmt::format(
        "{}: the hydroelastic modulus must be positive and finite, got {} Pa", where, modulus_Pa));
  }
}

void ValidateResolution(const std::string& where, const Shape& shape, ContactModel model,
                        double h) {
  if (shape.type == ShapeType::kHalfSpace) {
    throw std::invalid_argument(where + " is a half-space: it has no mesh resolution");
  }
  if (model == ContactModel::kPoint) {
    throw std::invalid_argument(where + " uses point contact: it has no hydroelastic mesh");
  }
  if (!(h > 0) || !std::isfinite(h)) {
    throw std::invalid_argument(
        fmt::format("{}: the mesh resolution must be positive and finite, got {} m", where, h));
  }
  const double largest = ShapeLargestDimension(shape);
  if (h > largest) {
    throw std::invalid_argument(
        fmt::format("{}: mesh resolution {} m is coarser than the shape (largest dimension {} m)",
                    where, h, largest));
  }
  const bool compliant = model == ContactModel::kHydroelasticCompliant;
  const double limit = compliant ? kMaxHydroelasticTets : kMaxHydroelasticTriangles;
  auto count = [&](double edge) {
    return compliant ? EstimatedTets(shape, edge) : EstimatedTriangles(shape, edge);
  };
  if (count(h) <= limit) return;
  // The finest edge length within the limit (the estimate falls monotonically with h).
  double lo = h, hi = largest;
  for (int i = 0; i < 60; ++i) {
    const double mid = std::sqrt(lo * hi);
    (count(mid) > limit ? lo : hi) = mid;
  }
  throw std::invalid_argument(fmt::format(
      "{}: mesh resolution {} m is too fine (about {:.2g} {}, limit {:.0e}); the finest "
      "allowed is {:.3g} m",
      where, h, count(h), compliant ? "tets" : "triangles", limit, hi));
}

}  // namespace

// A copy of `g` with the hydroelastic modulus E_h: p = E_h·ε is linear in E_h, so the per-vertex
// pressures and the per-tet linear fields scale by E_h/E_h,old; the mesh, face planes and BVH
// are unchanged (no re-meshing).
hydroelastic::CompliantGeometry WithModulus(const hydroelastic::CompliantGeometry& g,
                                            double modulus_Pa) {
  hydroelastic::CompliantGeometry out = g;
  const double scale = modulus_Pa / g.field.hydroelastic_modulus_Pa;
  out.field.hydroelastic_modulus_Pa = modulus_Pa;
  for (double& p : out.field.pressure_Pa) p *= scale;
  for (hydroelastic::LinearField& f : out.tet_pressure) {
    f.gradient *= scale;
    f.offset *= scale;
  }
  return out;
}

HydroelasticProperties HydroelasticRepresentation::InForce(
    const HydroelasticProperties& spec) const {
  HydroelasticProperties p = spec;
  if (compliant) p.modulus_Pa = modulus_Pa;
  if (compliant || (rigid && resolution_m > 0)) p.resolution_m = resolution_m;
  return p;
}

void ValidateHydroelasticChange(std::string_view geometry_name, const Shape& shape,
                                ContactModel model, const HydroelasticChange& change,
                                bool given_volume_mesh) {
  const std::string where = fmt::format("geometry '{}'", geometry_name);
  // A compliant mesh shape is meshed as its hull (MakeCompliantGeometry): right only when the
  // mesh is its hull.
  if (given_volume_mesh) {
    if (change.resolution_m) {
      throw std::invalid_argument(where + ": its tet mesh is given (volume_mesh): no resolution");
    }
  } else if (model == ContactModel::kHydroelasticCompliant && shape.mesh && !shape.mesh->convex) {
    throw std::invalid_argument(
        where +
        ": a non-convex mesh cannot be hydroelastic_compliant without its tet mesh (volume_mesh: "
        "FILE.vtk; generated, its tets would fill its convex hull); or make it "
        "hydroelastic_rigid, or give it as convex pieces");
  }
  if (change.modulus_Pa) {
    ValidateModulus(where, shape.type == ShapeType::kHalfSpace, model, *change.modulus_Pa);
  }
  if (change.resolution_m) ValidateResolution(where, shape, model, *change.resolution_m);
}

HydroelasticRepresentation BuildHydroelasticRepresentation(
    std::string_view geometry_name, const Shape& shape, const HydroelasticProperties& properties,
    const HydroelasticChange& change, const HydroelasticRepresentation* current) {
  ValidateHydroelasticChange(geometry_name, shape, properties.model, change,
                             properties.volume_mesh != nullptr);
  const HydroelasticProperties h = current ? current->InForce(properties) : properties;
  const double edge = change.resolution_m  ? *change.resolution_m
                      : h.resolution_m > 0 ? h.resolution_m
                                           : DefaultHydroelasticResolution(shape);
  HydroelasticRepresentation r;
  if (h.model == ContactModel::kHydroelasticCompliant) {
    r.model = h.model;
    r.modulus_Pa = change.modulus_Pa.value_or(h.modulus_Pa);
    r.resolution_m = edge;
    if (current && current->compliant && current->resolution_m == edge) {
      // Same mesh: share it if E_h is unchanged too, else rescale the pressure (no meshing).
      r.compliant = current->modulus_Pa == r.modulus_Pa
                        ? current->compliant
                        : std::make_shared<const hydroelastic::CompliantGeometry>(
                              WithModulus(*current->compliant, r.modulus_Pa));
    } else if (properties.volume_mesh) {
      r.compliant = std::make_shared<const hydroelastic::CompliantGeometry>(
          hydroelastic::MakeCompliantGeometry({*properties.volume_mesh, {}, ""}, r.modulus_Pa));
    } else {
      r.compliant = std::make_shared<const hydroelastic::CompliantGeometry>(
          hydroelastic::MakeCompliantGeometry(shape, r.modulus_Pa, edge));
    }
  } else if (h.model == ContactModel::kHydroelasticRigid || shape.type == ShapeType::kHalfSpace) {
    // A half-space always has its (free) analytic rigid representation.
    r.model = ContactModel::kHydroelasticRigid;
    r.resolution_m = shape.type == ShapeType::kHalfSpace ? 0.0 : edge;
    if (current && current->rigid && current->resolution_m == r.resolution_m) {
      r.rigid = current->rigid;
    } else {
      r.rigid = std::make_shared<const hydroelastic::RigidGeometry>(
          hydroelastic::MakeRigidGeometry(shape, edge));
    }
  }
  return r;
}

void CheckHydroelasticReplacement(std::string_view geometry_name,
                                  const HydroelasticRepresentation& now,
                                  const HydroelasticRepresentation& next) {
  const bool complete = next.model == ContactModel::kHydroelasticCompliant
                            ? next.compliant != nullptr
                        : next.model == ContactModel::kHydroelasticRigid ? next.rigid != nullptr
                                                                         : false;
  if (now.model == ContactModel::kPoint || next.model != now.model || !complete) {
    throw std::invalid_argument(fmt::format("geometry '{}' is {}, the new representation {}{}",
                                            geometry_name, ContactModelName(now.model),
                                            ContactModelName(next.model),
                                            complete ? "" : " without its mesh"));
  }
}

}  // namespace contactlab
