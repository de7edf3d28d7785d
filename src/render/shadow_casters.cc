#include "render/shadow_casters.h"

#include <algorithm>

namespace contactlab {

void ShadowCasters::Add(int id, const Eigen::Isometry3d& X_WC, float radius_m) {
  current_.push_back({id, X_WC.linear().cast<float>(), X_WC.translation().cast<float>(), radius_m});
}

bool ShadowCasters::ShownByDrawnMap(const ShadowMapInputs& inputs, float max_shift_m) const {
  if (!has_drawn_ || !(inputs == drawn_inputs_) || current_.size() != drawn_.size()) return false;
  for (size_t i = 0; i < current_.size(); ++i) {
    const Caster& now = current_[i];
    const Caster& then = drawn_[i];
    if (now.id != then.id) return false;
    // A point at r from the origin moves by |Δp + ΔR r| ≤ |Δp| + |r| ‖ΔR‖₂, and the spectral
    // norm is at most the Frobenius norm: a bound that costs no eigenvalues.
    const float shift_m = (now.p_WC - then.p_WC).norm() +
                          std::max(now.radius_m, then.radius_m) * (now.R_WC - then.R_WC).norm();
    if (!(shift_m <= max_shift_m)) return false;  // NaN poses never match
  }
  return true;
}

void ShadowCasters::Remember(const ShadowMapInputs& inputs) {
  drawn_ = current_;  // into the storage of the frames before: no allocation once warm
  drawn_inputs_ = inputs;
  has_drawn_ = true;
}

}  // namespace contactlab
