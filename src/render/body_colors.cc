#include "render/body_colors.h"

#include <cmath>

namespace contactlab {
namespace {

Rgb8 FromHsv(float h, float s, float v) {
  // Standard HSV → RGB with h in [0, 1).
  const float h6 = 6.0f * (h - std::floor(h));
  const int sector = static_cast<int>(h6) % 6;
  const float f = h6 - std::floor(h6);
  const float p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  float r = v, g = t, b = p;
  switch (sector) {
    case 0:
      r = v, g = t, b = p;
      break;
    case 1:
      r = q, g = v, b = p;
      break;
    case 2:
      r = p, g = v, b = t;
      break;
    case 3:
      r = p, g = q, b = v;
      break;
    case 4:
      r = t, g = p, b = v;
      break;
    default:
      r = v, g = p, b = q;
      break;
  }
  auto to8 = [](float x) { return static_cast<uint8_t>(std::lround(255.0f * x)); };
  return Rgb8{to8(r), to8(g), to8(b)};
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

Eigen::Vector3f ToFloat(Rgb8 c) { return Eigen::Vector3f(c.r, c.g, c.b) / 255.0f; }

}  // namespace contactlab
