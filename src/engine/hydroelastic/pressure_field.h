// The hydroelastic pressure field p = E_h · ε (docs/contact-model.md §5; paper §III eq. (2)):
// ε is a dimensionless "virtual strain", 0 on the surface and 1 at the deepest interior points,
// stored per vertex and interpolated linearly inside each tet; E_h is the hydroelastic
// modulus [Pa].
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "engine/hydroelastic/volume_mesh.h"

namespace contactlab::hydroelastic {

struct PressureField {
  double hydroelastic_modulus_Pa = 0.0;
  std::vector<double> pressure_Pa;  // one per vertex of the mesh

  // p = E_h ε per vertex; throws std::invalid_argument if ε ∉ [0, 1] or E_h ≤ 0.
  static PressureField FromEpsilon(const std::vector<double>& epsilon,
                                   double hydroelastic_modulus_Pa);
  // A field given directly in pascals (e.g. from a VTK file); E_h is taken as its maximum so
  // that ε = p / E_h still peaks at 1.
  static PressureField FromPressure(std::vector<double> pressure_Pa);
};

// ε for an arbitrary tet mesh: distance of each vertex to the boundary surface, divided by the
// largest such distance (so ε = 0 on the boundary and 1 at the deepest vertex). O(V·F): meant
// for loading meshes, not for per-step use. All-zero (with a warning) when no vertex is interior.
std::vector<double> EpsilonFromBoundaryDistance(const VolumeMesh& mesh);

// The linear function f(x) = gradient·x + offset that interpolates per-vertex `values` over tet t
// (x in the mesh frame). A degenerate tet gives a zero gradient and the mean value.
struct LinearField {
  Eigen::Vector3d gradient = Eigen::Vector3d::Zero();
  double offset = 0.0;
  double operator()(const Eigen::Vector3d& x) const { return gradient.dot(x) + offset; }
};
LinearField ComputeTetLinearField(const VolumeMesh& mesh, const std::vector<double>& values, int t);

}  // namespace contactlab::hydroelastic
