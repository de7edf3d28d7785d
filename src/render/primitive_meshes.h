// Tessellated primitives in their shape frame (engine conventions, shape.h): sphere at the
// origin, box by half extents, cylinder and capsule along z centred at the origin, plus the
// overlay pieces (arrow shaft and head) and the ground quad.
#pragma once

#include <Eigen/Dense>

#include "engine/geometry/shape.h"
#include "engine/world/scene_spec.h"
#include "render/triangle_mesh.h"

namespace contactlab {

// Default tessellations are smooth at typical on-screen sizes but stay light for ~200 bodies on
// a software rasterizer (llvmpipe under Xvfb).
TriangleMesh MakeSphereMesh(float radius, int slices = 28, int stacks = 14);
TriangleMesh MakeBoxMesh(const Eigen::Vector3f& half_extents);
// Side and both caps of a cylinder of `radius` spanning z ∈ [z0, z1].
TriangleMesh MakeCylinderMesh(float radius, float z0, float z1, int slices = 32);
// Cylinder of axis length `length` between two hemispheres (total length + 2 radius).
TriangleMesh MakeCapsuleMesh(float radius, float length, int slices = 28, int cap_stacks = 7);
// Cone with its base disc (radius) at z = 0 and apex at z = height.
TriangleMesh MakeConeMesh(float radius, float height, int slices = 24);
// Square [-half, half]² in the z = 0 plane, normal +z.
TriangleMesh MakeQuadMesh(float half_size);

// A convex polyhedron's triangles with flat normals (one normal per planar face).
TriangleMesh MakeConvexPolyhedronMesh(const ConvexPolyhedron& hull);
// A triangle surface with area-weighted vertex normals, split into flat corners where a triangle
// turns more than 40° from its vertex's normal (creases stay sharp, curved shells look round).
TriangleMesh MakeCreasedMesh(const std::vector<Eigen::Vector3d>& vertices,
                             const std::vector<std::array<int, 3>>& triangles);
// A visual-only geometry (SceneBody::visuals) in its frame V: a primitive as MakeShapeMesh, a
// mesh as MakeCreasedMesh.
TriangleMesh MakeVisualMesh(const VisualSpec& visual);

// Levels of detail of a curved shape's tessellation, finest (0) first: a software rasterizer's
// cost is per triangle, and a sphere a few pixels across needs few of them.
inline constexpr int kNumDetailLevels = 3;
// Whether a shape's tessellation depends on the level (spheres, cylinders, capsules).
bool HasDetailLevels(const Shape& shape);
// The coarsest level whose facets stay within a pixel of the true surface for a curved shape
// of projected radius `radius_px` [px] (r sin²(π/n) ≤ 1 for n slices; the finest level beyond
// 80 px).
int DetailLevelFor(float radius_px);

// The mesh drawn for a bounded engine shape at a detail level (ignored by flat shapes).
// Half-spaces have no finite mesh: the renderer draws them as a large quad (MakeQuadMesh); this
// throws std::invalid_argument for them.
TriangleMesh MakeShapeMesh(const Shape& shape, int detail_level = 0);

}  // namespace contactlab
