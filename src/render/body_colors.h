// Deterministic body colours: dynamic bodies get distinct, soft hues by scene index; static
// bodies are grey and kinematic ones slate. Saturation is kept moderate on purpose so a lit
// body never reproduces the saturated contact-state colours (screenshot tests look for them).
#pragma once

#include "engine/world/scene_spec.h"
#include "render/rgb8.h"

namespace contactlab {

Rgb8 BodyColor(int scene_body_index, SceneBody::Kind kind);
Rgb8 GroundColor();
// Error control (RenderLayers::step_error): `base` (sRGB 0–1) blended towards kStepErrorColor
// by `share` ∈ [0, 1], the body's part of the step's largest error estimate.
Eigen::Vector3f StepErrorTint(const Eigen::Vector3f& base, float share);

}  // namespace contactlab
