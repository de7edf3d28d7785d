// What the geometry query of a step finds, before anything becomes a constraint: contact
// candidates (a point pair, or a set of hydroelastic faces) and the hydroelastic contact
// surfaces they come from (docs/contact-model.md §5).
#pragma once

#include <Eigen/Dense>

#include "engine/geometry/collision.h"
#include "engine/hydroelastic/contact_surface.h"

namespace contactlab {

struct ContactCandidate {
  int geometry_a = -1, geometry_b = -1;
  ContactPoint point;  // normal from A into B; for a face set: at its centre of pressure
  // Hydroelastic face sets only (patch ≥ 0): the patch, its first face and their number (0:
  // a patch's pooled tiny polygons), their total area and mean pressure, and the stiffness
  // k = Σ A_f·g_f and elastic force f0 = Σ A_f·p0_f of the set (φ0 = −f0/k), and the
  // penetration the pressure field implies there (FaceSum::Penetration; NaN: not defined).
  int patch = -1, face = -1;
  int num_faces = 0;
  double face_area_m2 = 0, face_pressure_Pa = 0;
  double face_stiffness_N_per_m = 0, face_elastic_force_N = 0;
  double face_penetration_m = 0;
};

// One hydroelastic contact surface of the last step (for rendering and analysis). A is the
// compliant geometry; every normal points from A into B, as in ContactResult.
struct HydroelasticPatch {
  int geometry_a = -1, geometry_b = -1;
  int body_a = -1, body_b = -1;  // scene body indices
  // Triangles fanned from each polygon's centroid: surface->faces[f].vertices index
  // surface->vertices_W, with the pressure at every vertex in surface->vertex_pressure_Pa (and
  // per face: area, centroid, normal, pressure). Owned by the World; valid until the next
  // Step() or Reset().
  const hydroelastic::ContactSurface* surface = nullptr;
  // The faces that became constraints are contacts()[first_contact, first_contact +
  // num_contacts) (faces with no pressure gradient along the normal carry no spring and are
  // skipped, and small polygons are merged (kFanPolygonSize), so num_contacts ≤
  // surface->faces.size()).
  int first_contact = 0, num_contacts = 0;
  // Σ over those faces of the solver's normal and friction forces on B [N] (the step average).
  Eigen::Vector3d normal_force_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d friction_force_W = Eigen::Vector3d::Zero();
};

}  // namespace contactlab
