// The perceptual colour map of contact pressure (hydroelastic patches, docs/contact-model.md §5)
// and the colour bar: matplotlib's viridis (van der Walt & Smith, CC0), lightness rising
// monotonically from dark purple to yellow, readable in grey scale and by colour-blind
// viewers. One table serves the renderer (uploaded as a texture) and the UI's colour bar.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <cstdint>

#include "render/rgb8.h"

namespace contactlab {

// Colour at t ∈ [0, 1] (clamped; NaN gives the t = 0 colour), sRGB 0–1: piecewise linear
// through viridis sampled at every 8th of its 256 entries.
Eigen::Vector3f PressureColorMap(float t);
// The same in 8-bit sRGB (rounded).
Rgb8 PressureColorMap8(float t);
// The 256-entry table the renderer uploads (RGB8 triples): entry i is PressureColorMap8(i/255).
std::array<uint8_t, 3 * 256> PressureColorMapTable();

// Where a pressure falls on the map: (p − min)/(max − min) clamped to [0, 1]; 0 when the
// range is empty or not finite, or p is NaN.
float NormalizedPressure(float pressure_Pa, float min_Pa, float max_Pa);

}  // namespace contactlab
