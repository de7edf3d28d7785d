// Stage "hydroelastic faces → contacts" of a step (docs/contact-model.md §5): the faces of one
// contact surface become point-contact candidates. A pure function of the surface.
#pragma once

#include <utility>
#include <vector>

#include "engine/hydroelastic/contact_surface.h"
#include "engine/world/contact_candidates.h"

namespace contactlab {

// Hydroelastic polygons (hydroelastic::ContactFace::polygon_size: area / (tet's longest
// edge)²) below kFanPolygonSize become one constraint instead of one per fan face; below
// kTinyPolygonSize they are pooled into one constraint per patch and normal (the numerical
// slivers of planes grazing tets carry ≲ 1e-6 of a tet face's force).
inline constexpr double kFanPolygonSize = 1e-2;
inline constexpr double kTinyPolygonSize = 1e-6;

// Σ over a set of faces of one normal: what a merged constraint keeps exactly.
struct FaceSum {
  Eigen::Vector3d normal_W = Eigen::Vector3d::UnitZ();
  double area_m2 = 0, stiffness_N_per_m = 0, elastic_force_N = 0;  // Σ A, Σ A g, Σ A p0
  Eigen::Vector3d force_moment = Eigen::Vector3d::Zero();          // Σ A p0 c
  Eigen::Vector3d area_moment = Eigen::Vector3d::Zero();           // Σ A c
  // Over the faces whose penetration δ_f is defined: Σ A and Σ A δ.
  double penetration_area_m2 = 0, penetration_volume_m3 = 0;
  // Adds a face (one with no pressure gradient along n̂ has no spring and adds nothing).
  void Add(const hydroelastic::ContactFace& face);
  // Σ A p0 c / Σ A p0, or the area centroid when there is no force.
  Eigen::Vector3d CenterOfPressure() const;
  // The penetration the pressure field implies (hydroelastic::ContactFace::penetration_m),
  // area-weighted: Σ A δ / Σ A, the overlap's mean depth; −φ0 = Σ A p0 / Σ A g where n̂ runs
  // along the field (g = |∇p|, conforming faces). NaN if no face has one.
  double Penetration() const;
};

// Reused storage: tiny polygons pooled by normal, as (first face, sum).
using TinyPolygonPools = std::vector<std::pair<int, FaceSum>>;

// Appends the candidates of `surface` (compliant geometry a against b, patch index `patch`) to
// `out`. Every face becomes one point constraint at its centroid c_f along n̂_f: φ0_f =
// −p0_f/g_f, k_f = A_f·g_f, and the elastic force f0 = k_f·(−φ0_f) = A_f·p0_f given directly so
// that faces with k_f → 0 stay finite — except for small polygons, whose faces are merged: a
// polygon below kFanPolygonSize is one constraint, and those below kTinyPolygonSize are pooled
// per normal into one constraint per patch. A merged set S keeps Σ A_f (area), k = Σ A_f·g_f
// and f0 = Σ A_f·p0_f exactly (so φ0 = −f0/k), placed at the centre of pressure: the net force,
// the stiffness and (for one polygon, p linear in its tet) the moment of the elastic force are
// those of the faces, while slivers stop costing one constraint per fan face.
void AppendFaceContacts(const hydroelastic::ContactSurface& surface, int geometry_a, int geometry_b,
                        int patch, TinyPolygonPools* pools, std::vector<ContactCandidate>* out);

}  // namespace contactlab
