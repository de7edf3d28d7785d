// Which shadow map still shows the casters: the map is drawn again only when the casters moved
// by more than a fraction of a shadow texel since it was drawn, or when what it was drawn for
// changed (another scene, map size or caster set). On a software renderer the shadow pass is a
// tenth of the render thread's frame (0.3 ms for the clutter under llvmpipe), and a settled
// pile creeps by far less than a texel a second.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <vector>

namespace contactlab {

// What a shadow map was drawn for besides the casters' poses.
struct ShadowMapInputs {
  const void* scene = nullptr;
  uint64_t scene_generation = 0;
  int map_size_texels = 0;
  bool visual_geometry = false;  // casters are the bodies' visual meshes, not their geometries
  bool operator==(const ShadowMapInputs&) const = default;
};

class ShadowCasters {
 public:
  // This frame's casters (and whatever else the map's frustum is fitted to), one Add each.
  void Clear() { current_.clear(); }
  // Caster `id` (the caller's name for it and its role: a caster that stops casting, or
  // another one in its place, makes the map stale) at pose X_WC, every point of it within
  // radius_m of its origin — or 0 for a shape that turning about its origin leaves as it is
  // (a sphere about its centre: a ball spinning in place keeps its shadow).
  void Add(int id, const Eigen::Isometry3d& X_WC, float radius_m);

  // Whether the map remembered last (Remember) shows this frame's casters: drawn for the same
  // inputs and the same casters in the same order, none of whose points moved more than
  // max_shift_m.
  bool ShownByDrawnMap(const ShadowMapInputs& inputs, float max_shift_m) const;
  // The map now shows this frame's casters.
  void Remember(const ShadowMapInputs& inputs);
  // The map shows nothing known (its storage was replaced).
  void Forget() { has_drawn_ = false; }

 private:
  struct Caster {
    int id;
    Eigen::Matrix3f R_WC;
    Eigen::Vector3f p_WC;
    float radius_m;
  };
  std::vector<Caster> current_, drawn_;
  ShadowMapInputs drawn_inputs_;
  bool has_drawn_ = false;
};

}  // namespace contactlab
