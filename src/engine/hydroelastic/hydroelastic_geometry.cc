#include "engine/hydroelastic/hydroelastic_geometry.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/hydroelastic/volume_mesh_generators.h"

namespace contactlab::hydroelastic {

CompliantGeometry CompliantGeometry::Create(VolumeMesh mesh, PressureField field) {
  if (mesh.tets.empty()) throw std::invalid_argument("compliant geometry: empty tet mesh");
  if (field.pressure_Pa.size() != mesh.vertices_m.size()) {
    throw std::invalid_argument("compliant geometry: " + std::to_string(field.pressure_Pa.size()) +
                                " pressure values for " + std::to_string(mesh.vertices_m.size()) +
                                " vertices");
  }
  CompliantGeometry g;
  g.mesh = std::move(mesh);
  g.field = std::move(field);
  const int n = g.mesh.num_tets();
  g.tet_pressure.resize(n);
  g.tet_planes.resize(n);
  g.tet_size_sq.assign(n, 0.0);
  for (int t = 0; t < n; ++t) {
    g.tet_pressure[t] = ComputeTetLinearField(g.mesh, g.field.pressure_Pa, t);
    const auto& k = g.mesh.tets[t];
    for (int i = 0; i < 4; ++i) {
      for (int j = i + 1; j < 4; ++j) {
        g.tet_size_sq[t] = std::max(
            g.tet_size_sq[t], (g.mesh.vertices_m[k[i]] - g.mesh.vertices_m[k[j]]).squaredNorm());
      }
    }
    for (int i = 0; i < 4; ++i) {
      std::array<int, 3> f{k[(i + 1) % 4], k[(i + 2) % 4], k[(i + 3) % 4]};
      std::sort(f.begin(), f.end());  // same arithmetic for both tets sharing the face
      const Eigen::Vector3d& a = g.mesh.vertices_m[f[0]];
      Eigen::Vector3d nrm = (g.mesh.vertices_m[f[1]] - a).cross(g.mesh.vertices_m[f[2]] - a);
      const double len = nrm.norm();
      if (len > 0.0) nrm /= len;
      double d = nrm.dot(a);
      if (nrm.dot(g.mesh.vertices_m[k[i]]) - d > 0.0) {  // the opposite vertex must be inside
        nrm = -nrm;
        d = -d;
      }
      g.tet_planes[t][i] << nrm, d;
    }
  }
  g.bvh = Bvh::Build(g.mesh.vertices_m, g.mesh.tets);
  return g;
}

RigidGeometry RigidGeometry::HalfSpace() {
  RigidGeometry g;
  g.is_half_space = true;
  return g;
}

RigidGeometry RigidGeometry::FromSurfaceMesh(TriangleSurfaceMesh mesh) {
  RigidGeometry g;
  g.mesh = std::move(mesh);
  g.faces = MergeCoplanarTriangles(g.mesh);
  std::vector<std::array<int, RigidFace::kMaxCorners>> face_corners(g.faces.size());
  for (size_t f = 0; f < g.faces.size(); ++f) face_corners[f] = g.faces[f].corners;
  g.bvh = Bvh::Build(g.mesh.vertices_m, face_corners);
  return g;
}

namespace {

std::vector<std::array<Eigen::Vector3d, 3>> HullTriangleSoup(const ConvexPolyhedron& hull) {
  std::vector<std::array<Eigen::Vector3d, 3>> soup;
  soup.reserve(hull.triangles.size());
  for (const auto& t : hull.triangles) {
    soup.push_back({hull.vertices_G[t[0]], hull.vertices_G[t[1]], hull.vertices_G[t[2]]});
  }
  return soup;
}

}  // namespace

int ConvexMeshShells(const Shape& shape, double edge_length_m) {
  if (shape.type != ShapeType::kConvexMesh || !(edge_length_m > 0)) return 1;
  const double n = std::ceil(shape.convex_mesh->half_size_m / edge_length_m - 1e-9);
  return static_cast<int>(std::clamp(n, 1.0, 32.0));
}

CompliantGeometry MakeCompliantGeometry(const Shape& shape, double hydroelastic_modulus_Pa,
                                        double edge_length_m) {
  VolumeMeshWithEpsilon m;
  switch (shape.type) {
    case ShapeType::kSphere:
      m = MakeSphereVolumeMesh(shape.radius_m, edge_length_m);
      break;
    case ShapeType::kBox:
      m = MakeBoxVolumeMesh(shape.half_extents_m, edge_length_m);
      break;
    case ShapeType::kCylinder:
      m = MakeCylinderVolumeMesh(shape.radius_m, shape.length_m, edge_length_m);
      break;
    case ShapeType::kCapsule:
      m = MakeCapsuleVolumeMesh(shape.radius_m, shape.length_m, edge_length_m);
      break;
    case ShapeType::kConvexMesh:
      m = MakeConvexVolumeMesh(HullTriangleSoup(*shape.convex_mesh),
                               ConvexMeshShells(shape, edge_length_m));
      break;
    case ShapeType::kHalfSpace:
      throw std::invalid_argument("a half-space cannot be a compliant hydroelastic geometry");
  }
  spdlog::debug("hydroelastic: compliant {} with {} tets, {} vertices", ShapeTypeName(shape.type),
                m.mesh.num_tets(), m.mesh.num_vertices());
  return CompliantGeometry::Create(std::move(m.mesh),
                                   PressureField::FromEpsilon(m.epsilon, hydroelastic_modulus_Pa));
}

RigidGeometry MakeRigidGeometry(const Shape& shape, double edge_length_m) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return RigidGeometry::FromSurfaceMesh(MakeSphereSurfaceMesh(shape.radius_m, edge_length_m));
    case ShapeType::kBox:
      return RigidGeometry::FromSurfaceMesh(
          MakeBoxSurfaceMesh(shape.half_extents_m, edge_length_m));
    case ShapeType::kCylinder:
      return RigidGeometry::FromSurfaceMesh(
          MakeCylinderSurfaceMesh(shape.radius_m, shape.length_m, edge_length_m));
    case ShapeType::kCapsule:
      return RigidGeometry::FromSurfaceMesh(
          MakeCapsuleSurfaceMesh(shape.radius_m, shape.length_m, edge_length_m));
    case ShapeType::kConvexMesh:
      // A mesh shape's own triangles (non-convex allowed), else the hull's: a rigid surface
      // needs no refinement.
      if (shape.mesh) {
        return RigidGeometry::FromSurfaceMesh({shape.mesh->vertices_G, shape.mesh->triangles});
      }
      return RigidGeometry::FromSurfaceMesh(
          MakeConvexSurfaceMesh(HullTriangleSoup(*shape.convex_mesh)));
    case ShapeType::kHalfSpace:
      return RigidGeometry::HalfSpace();
  }
  throw std::invalid_argument("unknown shape type");
}

}  // namespace contactlab::hydroelastic
