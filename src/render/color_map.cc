#include "render/color_map.h"

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace {

// viridis entries 0, 8, …, 248 and 255 (matplotlib _cm_listed.py); KnotIndex(k) is each
// one's index in the 256-entry map. Linear interpolation between them stays within ~1/255 of
// the full map.
constexpr int kNumKnots = 33;
constexpr float kViridis[kNumKnots][3] = {
    {0.267004f, 0.004874f, 0.329415f}, {0.277018f, 0.050344f, 0.375715f},
    {0.282327f, 0.094955f, 0.417331f}, {0.282884f, 0.135920f, 0.453427f},
    {0.278826f, 0.175490f, 0.483397f}, {0.270595f, 0.214069f, 0.507052f},
    {0.258965f, 0.251537f, 0.524736f}, {0.244972f, 0.287675f, 0.537260f},
    {0.229739f, 0.322361f, 0.545706f}, {0.214298f, 0.355619f, 0.551184f},
    {0.199430f, 0.387607f, 0.554642f}, {0.185556f, 0.418570f, 0.556753f},
    {0.172719f, 0.448791f, 0.557885f}, {0.160665f, 0.478540f, 0.558115f},
    {0.149039f, 0.508051f, 0.557250f}, {0.137770f, 0.537492f, 0.554906f},
    {0.127568f, 0.566949f, 0.550556f}, {0.120565f, 0.596422f, 0.543611f},
    {0.120638f, 0.625828f, 0.533488f}, {0.132268f, 0.655014f, 0.519661f},
    {0.157851f, 0.683765f, 0.501686f}, {0.196571f, 0.711827f, 0.479221f},
    {0.246070f, 0.738910f, 0.452024f}, {0.304148f, 0.764704f, 0.419943f},
    {0.369214f, 0.788888f, 0.382914f}, {0.440137f, 0.811138f, 0.340967f},
    {0.515992f, 0.831158f, 0.294279f}, {0.595839f, 0.848717f, 0.243329f},
    {0.678489f, 0.863742f, 0.189503f}, {0.762373f, 0.876424f, 0.137064f},
    {0.845561f, 0.887322f, 0.099702f}, {0.926106f, 0.897330f, 0.104071f},
    {0.993248f, 0.906157f, 0.143936f}};

float KnotIndex(int k) { return k < kNumKnots - 1 ? 8.0f * static_cast<float>(k) : 255.0f; }

}  // namespace

Eigen::Vector3f PressureColorMap(float t) {
  if (!(t > 0)) t = 0;  // NaN too
  t = std::min(t, 1.0f);
  const float index = 255.0f * t;
  const int k = std::min(static_cast<int>(index / 8.0f), kNumKnots - 2);
  const float s =
      std::clamp((index - KnotIndex(k)) / (KnotIndex(k + 1) - KnotIndex(k)), 0.0f, 1.0f);
  const Eigen::Vector3f a(kViridis[k][0], kViridis[k][1], kViridis[k][2]);
  const Eigen::Vector3f b(kViridis[k + 1][0], kViridis[k + 1][1], kViridis[k + 1][2]);
  return a + s * (b - a);
}

Rgb8 PressureColorMap8(float t) { return ToRgb8(PressureColorMap(t)); }

std::array<uint8_t, 3 * 256> PressureColorMapTable() {
  std::array<uint8_t, 3 * 256> table{};
  for (int i = 0; i < 256; ++i) {
    const Rgb8 c = PressureColorMap8(static_cast<float>(i) / 255.0f);
    table[3 * i] = c.r;
    table[3 * i + 1] = c.g;
    table[3 * i + 2] = c.b;
  }
  return table;
}

float NormalizedPressure(float pressure_Pa, float min_Pa, float max_Pa) {
  const float range = max_Pa - min_Pa;
  if (!(range > 0) || !std::isfinite(range)) return 0.0f;
  const float t = (pressure_Pa - min_Pa) / range;
  if (!(t > 0)) return 0.0f;  // NaN too
  return std::min(t, 1.0f);
}

}  // namespace contactlab
