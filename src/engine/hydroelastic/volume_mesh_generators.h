// Tet meshes with their ε field for the shapes of engine/geometry/shape.h (docs/contact-model.md
// §5).
//
// All generators use one construction: each surface vertex p is joined to an "anchor" q(p) on
// the shape's deepest set M (where ε = 1: the centre of a sphere, the axis segment of a
// capsule, the medial rectangle/segment/point of a box), and shells x_j = q + (j/n)(p − q),
// j = 1…n, are inserted with ε_j = 1 − j/n (j = n is the surface). q is the closest point of the
// convex set M, so each shell is an injective image of the surface (the projection is firmly
// non-expansive). Between shells each surface triangle sweeps a prism split into 3 tets by a
// rule on the global surface vertex indices (neighbouring prisms share diagonals: the mesh is
// conforming). The innermost shell j = 1 (convex, around M) is fanned to the shape's centre,
// where ε = 1: anchoring several vertices to the same point of M directly would collapse
// prisms into wedges that the index rule can fold. The tets therefore fill exactly the
// polyhedron of the surface mesh, and ε is the distance-like field except inside that core,
// deeper than (1 − 1/n) of the inradius, where it is interpolated to 1 at the centre.
//
// Box: q(p) is the closest point of the medial box M = {|x_a| ≤ h_a − r} (r the inradius). A
// face's region (the points nearest that face) is convex and holds the face and q of each of its
// points, so every shell tet of a surface triangle lies in the region of that triangle's face,
// where ε = (distance to that face)/r is linear: the per-tet linear field equals the
// distance-to-boundary field exactly (outside the core, i.e. for ε ≤ 1 − 1/n) at any resolution,
// down to 2 surface triangles a face.
// Sphere and capsule: ε = 1 − (distance to the centre / axis segment)/R, interpolated linearly.
// Cylinder: same medial construction (segment |z| ≤ L/2 − R, or for a flat cylinder the disk
// ρ ≤ R − L/2); the field is the linear interpolant of a distance-like field.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <functional>
#include <vector>

#include "engine/hydroelastic/surface_mesh.h"
#include "engine/hydroelastic/volume_mesh.h"

namespace contactlab::hydroelastic {

struct VolumeMeshWithEpsilon {
  VolumeMesh mesh;
  std::vector<double> epsilon;  // per vertex, in [0, 1]
};

// The generic construction above. `anchor` maps a surface vertex to its point on M.
VolumeMeshWithEpsilon MakeShelledVolumeMesh(
    const TriangleSurfaceMesh& surface,
    const std::function<Eigen::Vector3d(const Eigen::Vector3d&)>& anchor, int num_shells,
    const Eigen::Vector3d& core_center);

// `edge_length_m` is the target edge length [m] (the resolution), on the surface and between
// shells.
VolumeMeshWithEpsilon MakeBoxVolumeMesh(const Eigen::Vector3d& half_extents_m,
                                        double edge_length_m);
VolumeMeshWithEpsilon MakeSphereVolumeMesh(double radius_m, double edge_length_m);
VolumeMeshWithEpsilon MakeCylinderVolumeMesh(double radius_m, double length_m,
                                             double edge_length_m);
VolumeMeshWithEpsilon MakeCapsuleVolumeMesh(double radius_m, double length_m, double edge_length_m);
// Convex mesh from surface triangles: a fan to the vertex mean (ε = 1 there, 0 on the surface),
// with `num_shells` ≥ 1 layers. ε is then the "gauge" 1 − s for x = c + s(p − c), linear per tet.
VolumeMeshWithEpsilon MakeConvexVolumeMesh(const std::vector<std::array<Eigen::Vector3d, 3>>& soup,
                                           int num_shells = 1);

}  // namespace contactlab::hydroelastic
