// Scene generators: bodies built from a few parameters rather than listed one by one — the
// clutter of spheres and boxes and the peg-in-hole block. Scene files use them through
// `generators:` (io/scene_loader.h); benchmarks and tests call them directly.
#pragma once

#include <string>

#include "engine/world/scene_spec.h"

namespace contactlab {

// Adds the clutter of the ICF paper (docs/contact-model.md §7): `count` spheres and boxes of
// `size_m`, in columns of 10 above an open box of inner width `container_m` (walls optional),
// deterministic for a seed. The floor is the scene's own.
struct ClutterSpec {
  int count = 40;
  double size_m = 0.1;
  double container_m = 0.8;
  bool walls = true;
  unsigned seed = 1;
  double density_kg_per_m3 = 1000.0;
  double drop_height_m = 0.05;  // clearance of the lowest object above the floor
};
void AddClutter(const ClutterSpec& clutter, const ContactProperties& contact, SceneSpec* scene);
// The clutter's columns stand on a square grid of this many cells per side (at least one per
// column): the container must leave each cell room for its objects.
int ClutterGridSide(int count);

// The peg-in-hole block (issue 4): a static body `name` whose origin is the centre of a square
// through-hole on its top face (X_WB = pose), outer size size_m (x, y, height), hole width =
// peg_width_m + clearance_m, and a 45° chamfer of depth chamfer_m around the hole's top edge
// (0: none). Built from boxes: four walls around the hole; with the chamfer, the walls stop
// chamfer_m below the top, a top layer is set back by chamfer_m, and four boxes turned 45° about
// the hole's edges fill the gap with their faces forming the sloped entry.
struct PegBlockSpec {
  std::string name = "block";
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
  Eigen::Vector3d size_m{0.1, 0.1, 0.05};
  double peg_width_m = 0.02;
  double clearance_m = 0.5e-3;
  double chamfer_m = 3e-3;
};
// Throws std::invalid_argument when the hole does not fit the block or the chamfer the walls.
void AddPegBlock(const PegBlockSpec& block, const ContactProperties& contact, SceneSpec* scene);

}  // namespace contactlab
