// Per-body hydroelastic representations (docs/contact-model.md §5), built once and posed per query:
// a compliant body is a tet mesh with its pressure field, a rigid body a triangle surface mesh
// (or the analytic plane of a half-space). Everything is in the geometry frame G.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <vector>

#include "engine/geometry/shape.h"
#include "engine/hydroelastic/bvh.h"
#include "engine/hydroelastic/pressure_field.h"
#include "engine/hydroelastic/rigid_faces.h"
#include "engine/hydroelastic/surface_mesh.h"
#include "engine/hydroelastic/volume_mesh.h"

namespace contactlab::hydroelastic {

struct CompliantGeometry {
  VolumeMesh mesh;
  PressureField field;
  // Per tet: the linear pressure p(x) = ∇p·x + offset [Pa] in G.
  std::vector<LinearField> tet_pressure;
  // Per tet, per face (opposite vertex i): unit outward normal n and offset d, the tet being
  // n·x ≤ d. The two tets sharing a face store exactly negated planes, so a point on the face
  // is assigned to exactly one of them (see contact_surface.cc).
  std::vector<std::array<Eigen::Vector4d, 4>> tet_planes;
  // Per tet: its longest edge squared [m²] (the scale of ContactFace::polygon_size).
  std::vector<double> tet_size_sq;
  Bvh bvh;  // over tets

  // Throws std::invalid_argument if sizes disagree or the mesh is empty.
  static CompliantGeometry Create(VolumeMesh mesh, PressureField field);
};

struct RigidGeometry {
  bool is_half_space = false;  // then the solid is z ≤ 0 of G and the mesh is empty
  TriangleSurfaceMesh mesh;
  std::vector<RigidFace> faces;  // the mesh's coplanar triangles merged into convex polygons
  Bvh bvh;                       // over faces

  static RigidGeometry HalfSpace();
  static RigidGeometry FromSurfaceMesh(TriangleSurfaceMesh mesh);
};

// From a Shape: `edge_length_m` is the mesh resolution, E_h the hydroelastic modulus [Pa].
// A half-space cannot be compliant (std::invalid_argument). A convex mesh keeps its hull's
// triangles (rigid: as they are; compliant: fanned to the vertex mean in
// ConvexMeshShells(shape, edge) layers, the field ε being the gauge, exact per tet).
CompliantGeometry MakeCompliantGeometry(const Shape& shape, double hydroelastic_modulus_Pa,
                                        double edge_length_m);
RigidGeometry MakeRigidGeometry(const Shape& shape, double edge_length_m);
// Layers of a compliant convex mesh at edge length h: max(1, ⌈half size / h⌉), at most 32.
int ConvexMeshShells(const Shape& shape, double edge_length_m);

}  // namespace contactlab::hydroelastic
