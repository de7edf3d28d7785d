// Reader for tet meshes in the VTK legacy ASCII format ("# vtk DataFile Version x.y",
// DATASET UNSTRUCTURED_GRID), as written by `tetgen -k` (see README.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/hydroelastic/hydroelastic_geometry.h"
#include "engine/hydroelastic/volume_mesh.h"

namespace contactlab::hydroelastic {

struct VtkVolumeMesh {
  VolumeMesh mesh;  // tets re-oriented to positive volume
  // The first POINT_DATA SCALARS array, taken as pressure [Pa], if the file has one.
  std::optional<std::vector<double>> point_pressure_Pa;
  std::string scalar_name;
};

// Reads POINTS, CELLS (every cell must be a 4-vertex tetrahedron), CELL_TYPES (all 10) and an
// optional POINT_DATA / SCALARS block; other sections (CELL_DATA, FIELD, …) are ignored.
// Throws std::runtime_error "<path>:<line>: <what>" on malformed input.
VtkVolumeMesh ReadVtkVolumeMesh(const std::string& path);
// The same from text already in memory (`name` is used in error messages).
VtkVolumeMesh ParseVtkVolumeMesh(const std::string& text, const std::string& name);

// A compliant geometry from a loaded mesh: its pressure array if it has one (E_h is then the
// array's maximum and `hydroelastic_modulus_Pa` is ignored), otherwise
// p = E_h · EpsilonFromBoundaryDistance(mesh).
CompliantGeometry MakeCompliantGeometry(VtkVolumeMesh vtk, double hydroelastic_modulus_Pa);

}  // namespace contactlab::hydroelastic
