// Signed distance between two convex cores: GJK (Gilbert–Johnson–Keerthi) for separated
// cores, EPA (expanding polytope) for overlapping ones. No heap allocation.
#pragma once

#include "engine/geometry/convex_core.h"

namespace contactlab::internal {

struct CoreDistance {
  // Signed distance between the cores (radii not included): > 0 separated, < 0 overlapping.
  double signed_distance = 0.0;
  // Unit, from A into B.
  Eigen::Vector3d normal_W = Eigen::Vector3d::UnitZ();
  // Witness points on the cores: point_B − point_A = signed_distance · normal (up to the
  // solver tolerance).
  Eigen::Vector3d point_A_W = Eigen::Vector3d::Zero();
  Eigen::Vector3d point_B_W = Eigen::Vector3d::Zero();
};

// Never fails: a degenerate case (flat cores, EPA not converging) falls back to the
// separation along the line of centres.
CoreDistance ComputeCoreDistance(const ConvexCore& a, const ConvexCore& b);

}  // namespace contactlab::internal
