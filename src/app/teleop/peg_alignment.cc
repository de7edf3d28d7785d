#include "app/teleop/peg_alignment.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace contactlab {

namespace {

// A block given as a mesh with a round hole about its z axis: the top is its highest vertex, the
// hole's radius the smallest distance of a vertex from the axis (the wall's vertices; a chamfer's
// lie farther out).
void AddMeshBlock(const SolidMesh& mesh, const Eigen::Isometry3d& X_BG,
                  const Eigen::Isometry3d& X_WBlock, PegHole* h) {
  for (const Eigen::Vector3d& v_G : mesh.vertices_G) {
    const Eigen::Vector3d v_B = X_BG * v_G;
    h->block_top_z_m = std::max(h->block_top_z_m, (X_WBlock * v_B).z());
    h->hole_half_width_m = std::min(h->hole_half_width_m, v_B.head<2>().norm());
  }
  h->round_hole = true;
}

}  // namespace

std::optional<PegHole> FindPegHole(const World& world) {
  const SceneSpec& scene = world.scene();
  PegHole h;
  h.peg = scene.FindBody("peg");
  h.block = scene.FindBody("block");
  if (scene.name.rfind("peg_in_hole", 0) != 0 || h.peg < 0 || h.block < 0) return std::nullopt;
  const Eigen::Isometry3d X_WBlock = world.BodyPose(h.block);
  h.block_top_z_m = -std::numeric_limits<double>::infinity();
  h.hole_half_width_m = std::numeric_limits<double>::infinity();
  for (int g = 0; g < world.num_geometries(); ++g) {
    const Shape& shape = world.geometry(g).shape;
    if (world.geometry_body(g) == h.peg && shape.type != ShapeType::kHalfSpace) {
      // A box peg, or a round one (a mesh or a cylinder) by its bounding box: centred on P.
      const Aabb box = ComputeAabb(shape, Eigen::Isometry3d::Identity(), 0.0);
      h.peg_half_m = 0.5 * (box.upper - box.lower);
      h.round_peg = shape.type != ShapeType::kBox;
    }
    if (world.geometry_body(g) == h.block && shape.mesh) {
      AddMeshBlock(*shape.mesh, world.geometry(g).X_BG, X_WBlock, &h);
      continue;
    }
    if (world.geometry_body(g) != h.block || shape.type != ShapeType::kBox) continue;
    // The box's bounding box in the block frame; its xy distance (∞-norm) from the hole axis.
    const Eigen::Isometry3d X = world.geometry(g).X_BG;
    const Eigen::Vector3d half = X.linear().cwiseAbs() * shape.half_extents_m;
    const Eigen::Vector3d lo = X.translation() - half, hi = X.translation() + half;
    h.block_top_z_m = std::max(h.block_top_z_m, (X_WBlock * X.translation()).z() + half.z());
    const double dx = std::max({lo.x(), -hi.x(), 0.0}), dy = std::max({lo.y(), -hi.y(), 0.0});
    if (dx > 0 || dy > 0) h.hole_half_width_m = std::min(h.hole_half_width_m, std::max(dx, dy));
  }
  h.hole_center_W = X_WBlock.translation();
  return h;
}

PegAlignment MeasurePegAlignment(const PegHole& hole, const Eigen::Isometry3d& X_WP) {
  PegAlignment a;
  a.peg_bottom_z_m = std::numeric_limits<double>::infinity();
  // The corners of the peg's box (a round peg's bounding box: when it tilts, they dip below its
  // rim by at most (√2 − 1)·r·sin(tilt), 0.1 mm at 2° for r = 1 cm).
  for (int corner = 0; corner < 8; ++corner) {
    const Eigen::Vector3d c((corner & 1 ? 1 : -1) * hole.peg_half_m.x(),
                            (corner & 2 ? 1 : -1) * hole.peg_half_m.y(),
                            (corner & 4 ? 1 : -1) * hole.peg_half_m.z());
    a.peg_bottom_z_m = std::min(a.peg_bottom_z_m, (X_WP * c).z());
  }
  a.height_above_hole_m = a.peg_bottom_z_m - hole.block_top_z_m;
  a.lateral_offset_m = (X_WP.translation() - hole.hole_center_W).head<2>().norm();
  a.axis_in_footprint = OverHole(hole, X_WP.translation());
  a.insertion_depth_m =
      a.axis_in_footprint ? std::max(0.0, hole.block_top_z_m - a.peg_bottom_z_m) : 0.0;
  a.inserted = a.axis_in_footprint && a.insertion_depth_m >= kInsertedDepth_m;
  const Eigen::Vector3d z_W = X_WP.linear().col(2);
  a.tilt_rad = std::acos(std::clamp(z_W.z(), -1.0, 1.0));
  a.axis_bottom_W = X_WP * Eigen::Vector3d(0, 0, -hole.peg_half_m.z());
  if (std::abs(z_W.z()) > 1e-9) {  // p + s z meets z = top
    const double s = (hole.block_top_z_m - a.axis_bottom_W.z()) / z_W.z();
    a.landing_point_W = a.axis_bottom_W + s * z_W;
    a.landing_in_footprint = OverHole(hole, *a.landing_point_W);
  }
  return a;
}

bool OverHole(const PegHole& hole, const Eigen::Vector3d& p_W) {
  const Eigen::Vector2d offset = (p_W - hole.hole_center_W).head<2>();
  return (hole.round_hole ? offset.norm() : offset.cwiseAbs().maxCoeff()) <= hole.hole_half_width_m;
}

RimPolygon HoleOutline(const PegHole& hole) {
  const double w = hole.hole_half_width_m;
  const Eigen::Vector3d c(hole.hole_center_W.x(), hole.hole_center_W.y(), hole.block_top_z_m);
  RimPolygon rim;
  if (!hole.round_hole) {
    rim.points_W[0] = c + Eigen::Vector3d(-w, -w, 0);
    rim.points_W[1] = c + Eigen::Vector3d(w, -w, 0);
    rim.points_W[2] = c + Eigen::Vector3d(w, w, 0);
    rim.points_W[3] = c + Eigen::Vector3d(-w, w, 0);
    rim.size = 4;
    return rim;
  }
  for (int i = 0; i < kRoundRimPoints; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / kRoundRimPoints;
    rim.points_W[i] = c + Eigen::Vector3d(w * std::cos(angle), w * std::sin(angle), 0);
  }
  rim.size = kRoundRimPoints;
  return rim;
}

}  // namespace contactlab
