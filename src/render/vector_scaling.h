// How a contact vector (force, traction, slip velocity) becomes an arrow's length: linearly at
// its scale, logarithmically (small vectors at the scale, large ones compressed, so that 0.1 N
// and 30 N both read), or at one fixed length on screen (direction only); never drawn at or
// below its threshold (issue 36, "contact views"; docs/architecture.md §5, Contact views).
#pragma once

#include <optional>
#include <string_view>

namespace contactlab {

enum class VectorScaling { kLinear, kLog, kFixed };

// "linear" | "log" | "fixed" (the --vector-scale values).
const char* VectorScalingName(VectorScaling scaling);
std::optional<VectorScaling> ParseVectorScaling(std::string_view name);

// One kind of vector's arrows, in its own unit u (N, Pa, m/s).
struct VectorStyle {
  float scale_m_per_unit = 0;  // linear: the arrow's length per unit; log: its slope at 0
  float reference = 1;         // log: the magnitude where compression sets in [u]
  float threshold = 0;         // |v| ≤ threshold [u]: no arrow
};

// The length [m] an arrow of a vector `magnitude` long is drawn: 0 at or below the threshold or
// not finite; linear s·|v| and log s·r·ln(1 + |v|/r), both compressed beyond half of
// max_length_m as force arrows are (DrawnForceArrowLength); fixed: fixed_length_m.
float ArrowLength(float magnitude, const VectorStyle& style, VectorScaling scaling,
                  float fixed_length_m, float max_length_m);

}  // namespace contactlab
