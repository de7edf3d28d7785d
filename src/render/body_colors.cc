#include "render/body_colors.h"

#include <algorithm>
#include <cmath>

#include "render/palette.h"

namespace contactlab {
namespace {

Rgb8 FromHsv(float h, float s, float v) {
  // Standard HSV → RGB with h in [0, 1): per sector, which of v, q, p, t is r, g and b.
  const float h6 = 6.0f * (h - std::floor(h));
  const int sector = static_cast<int>(h6) % 6;
  const float f = h6 - std::floor(h6);
  const float value[4] = {v, v * (1 - s * f), v * (1 - s), v * (1 - s * (1 - f))};  // v q p t
  constexpr int kRgb[6][3] = {{0, 3, 2}, {1, 0, 2}, {2, 0, 3}, {2, 1, 0}, {3, 2, 0}, {0, 2, 1}};
  const int* rgb = kRgb[sector];
  return ToRgb8(Eigen::Vector3f(value[rgb[0]], value[rgb[1]], value[rgb[2]]));
}

}  // namespace

Rgb8 BodyColor(int scene_body_index, SceneBody::Kind kind) {
  switch (kind) {
    case SceneBody::Kind::kStatic:
      return Rgb8{150, 150, 155};
    case SceneBody::Kind::kKinematic:
      return Rgb8{118, 132, 156};
    case SceneBody::Kind::kDynamic:
      break;
  }
  // Golden-ratio hue steps spread any number of bodies evenly around the wheel; the first
  // hue is a warm coral. Alternate the value slightly so neighbouring hues differ more.
  constexpr float kGolden = 0.618033988749895f;
  const float hue = 0.02f + kGolden * static_cast<float>(scene_body_index);
  const float value = (scene_body_index % 2 == 0) ? 0.88f : 0.80f;
  return FromHsv(hue, 0.45f, value);
}

Rgb8 GroundColor() { return Rgb8{196, 194, 188}; }

Eigen::Vector3f StepErrorTint(const Eigen::Vector3f& base, float share) {
  const float s = std::clamp(share, 0.0f, 1.0f);
  return base + s * (ToFloat(kStepErrorColor) - base);
}

}  // namespace contactlab
