// Peg-in-hole alignment (docs/architecture.md, Teleoperation aids): where the peg is relative to
// the hole, measured the same way for the run summary's task object (TaskMonitor) and for the
// operator's live aids (the peg's axis extended to the block's top, the hole's outline, a HUD).
// The block is a static body whose origin is the hole's centre on its top face, built of boxes
// around a square hole (assets/scenes/peg_in_hole.yaml) or a mesh with a round hole
// (peg_in_hole_mesh.yaml); the peg is a box, or round (a mesh or a cylinder).
#pragma once

#include <Eigen/Geometry>
#include <array>
#include <optional>

#include "engine/world/world.h"

namespace contactlab {

struct PegHole {
  int peg = -1, block = -1;                                 // scene bodies
  Eigen::Vector3d peg_half_m = Eigen::Vector3d::Zero();     // the peg box's half extents (frame P)
  Eigen::Vector3d hole_center_W = Eigen::Vector3d::Zero();  // on the block's top face
  double block_top_z_m = 0;                                 // the top face's height
  double hole_half_width_m = 0;  // the hole's half width (∞-norm from its axis; round: radius)
  bool round_peg = false;        // a cylinder or a mesh: peg_half_m is its bounding box
  bool round_hole = false;       // the block is a mesh with a round hole about its z axis
};

// The peg and hole of a scene named peg_in_hole* with bodies "peg" and "block"; nullopt else.
std::optional<PegHole> FindPegHole(const World& world);

struct PegAlignment {
  double peg_bottom_z_m = 0;       // the peg's lowest corner
  double height_above_hole_m = 0;  // of that corner over the block's top (< 0: inside)
  double lateral_offset_m = 0;     // of the peg's origin from the hole's axis, in xy
  double tilt_rad = 0;             // of the peg's z axis from the vertical
  double insertion_depth_m = 0;    // below the top, while the axis is in the hole's footprint
  bool axis_in_footprint = false;
  bool inserted = false;  // depth ≥ kInsertedDepth with the axis in the footprint
  // The peg's axis (its z through its origin) from its bottom face's centre to where it meets
  // the block's top plane (the landing point; nullopt when the axis is parallel to it).
  Eigen::Vector3d axis_bottom_W = Eigen::Vector3d::Zero();
  std::optional<Eigen::Vector3d> landing_point_W;
  bool landing_in_footprint = false;  // the landing point is over the hole (OverHole)
};

inline constexpr double kInsertedDepth_m = 0.01;

PegAlignment MeasurePegAlignment(const PegHole& hole, const Eigen::Isometry3d& X_WP);

// Whether p_W lies over the hole's footprint (in xy): within its half width of the hole's axis,
// along each of x and y for a square hole, in distance for a round one.
bool OverHole(const PegHole& hole, const Eigen::Vector3d& p_W);

// The hole's rim on the block's top as a closed polygon, counter-clockwise: a square hole's four
// corners from −x −y, a round hole's circle as kRoundRimPoints points on it from +x (a chord lies
// within 0.22 % of the radius of the circle).
inline constexpr int kRoundRimPoints = 48;
struct RimPolygon {
  std::array<Eigen::Vector3d, kRoundRimPoints> points_W{};
  int size = 0;
  const Eigen::Vector3d* begin() const { return points_W.data(); }
  const Eigen::Vector3d* end() const { return points_W.data() + size; }
};
RimPolygon HoleOutline(const PegHole& hole);

}  // namespace contactlab
