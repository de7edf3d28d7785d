// Deterministic body colours: dynamic bodies get distinct, soft hues by scene index; static
// bodies are grey and kinematic ones slate. Saturation is kept moderate on purpose so a lit
// body never reproduces the saturated contact-state colours (screenshot tests look for them).
#pragma once

#include <Eigen/Dense>

#include "engine/world/scene_spec.h"
#include "render/renderer.h"

namespace contactlab {

Rgb8 BodyColor(int scene_body_index, SceneBody::Kind kind);
Rgb8 GroundColor();
// sRGB 0–255 → sRGB 0–1 (shaders linearize themselves).
Eigen::Vector3f ToFloat(Rgb8 c);
// sRGB 0–1 → sRGB 0–255, rounded (no clamping: components must lie in [0, 1]).
Rgb8 ToRgb8(const Eigen::Vector3f& c);

}  // namespace contactlab
