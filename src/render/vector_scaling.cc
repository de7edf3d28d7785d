#include "render/vector_scaling.h"

#include <cmath>

#include "render/force_arrow_length.h"

namespace contactlab {

const char* VectorScalingName(VectorScaling scaling) {
  switch (scaling) {
    case VectorScaling::kLinear:
      return "linear";
    case VectorScaling::kLog:
      return "log";
    case VectorScaling::kFixed:
      return "fixed";
  }
  return "linear";
}

std::optional<VectorScaling> ParseVectorScaling(std::string_view name) {
  for (const VectorScaling s :
       {VectorScaling::kLinear, VectorScaling::kLog, VectorScaling::kFixed}) {
    if (name == VectorScalingName(s)) return s;
  }
  return std::nullopt;
}

float ArrowLength(float magnitude, const VectorStyle& style, VectorScaling scaling,
                  float fixed_length_m, float max_length_m) {
  if (!std::isfinite(magnitude) || !(magnitude > style.threshold) || !(magnitude > 0)) return 0.0f;
  switch (scaling) {
    case VectorScaling::kLinear:
      return DrawnForceArrowLength(style.scale_m_per_unit * magnitude, max_length_m);
    case VectorScaling::kLog: {
      // ln(1 + x) keeps the linear scale for |v| ≪ r and adds s·r·ln 10 per decade beyond it.
      const float r = style.reference > 0 ? style.reference : 1.0f;
      return DrawnForceArrowLength(style.scale_m_per_unit * r * std::log1p(magnitude / r),
                                   max_length_m);
    }
    case VectorScaling::kFixed:
      return fixed_length_m;
  }
  return 0.0f;
}

}  // namespace contactlab
