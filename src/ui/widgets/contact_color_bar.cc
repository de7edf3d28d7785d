#include "ui/widgets/contact_color_bar.h"

#include <cmath>
#include <cstdio>

#include "render/contact_colors.h"
#include "render/render_layers.h"

namespace contactlab {
namespace {

// Below a nanometre (per second) a value is numerical noise (a sticking contact's offset).
constexpr double kZero = 1e-9;

}  // namespace

std::string FormatContactValue(double value, double scale, ContactColorMode mode) {
  if (!std::isfinite(value)) return "-";
  if (std::abs(value) < kZero) return "0";
  const double s = std::isfinite(scale) && scale > 0 ? scale : std::abs(value);
  const bool speed = mode == ContactColorMode::kSlip;
  const char* unit = speed ? "m/s" : "m";
  double shown = value;
  if (s < 1e-4) {
    unit = speed ? "\u00b5m/s" : "\u00b5m", shown *= 1e6;
  } else if (s < 0.1) {
    unit = speed ? "mm/s" : "mm", shown *= 1e3;
  }
  char text[32];
  // Two significant digits, without an exponent for three-digit values.
  std::snprintf(text, sizeof text, std::abs(shown) >= 100 ? "%.0f %s" : "%.2g %s", shown, unit);
  return text;
}

ColorBarRect ContactColorBarRect(float scene_right, float scene_bottom, bool above_pressure_bar) {
  const ColorBarRect pressure = PressureColorBarRect(scene_right, scene_bottom);
  if (!above_pressure_bar) return pressure;
  const float shift = pressure.y1 - pressure.y0 + 6.0f;
  return {pressure.x0, pressure.y0 - shift, pressure.x1, pressure.y1 - shift};
}

void ContactColorBar(const Snapshot& snapshot, float scene_right, float scene_bottom,
                     RenderLayers* layers) {
  const ContactColorMode mode = layers->contact_colors;
  if (mode == ContactColorMode::kState) return;
  const double top = AutoContactColorTop(snapshot.contacts, mode);
  layers->contact_color_max = static_cast<float>(top);
  if (!layers->contact_points) return;
  const std::string labels[3] = {"0", FormatContactValue(0.5 * top, top, mode),
                                 FormatContactValue(top, top, mode)};
  const bool pressure_bar = layers->contact_patches && !snapshot.hydroelastic.empty();
  ColorMapBar("##contact_color_bar", ContactColorBarRect(scene_right, scene_bottom, pressure_bar),
              mode == ContactColorMode::kGliding ? "gliding offset (auto)" : "slip speed (auto)",
              labels);
}

}  // namespace contactlab
