#include "render/contact_colors.h"

#include <algorithm>
#include <cmath>

#include "app/command_line.h"
#include "render/color_map.h"
#include "render/palette.h"

namespace contactlab {
namespace {

// Default scales: the gliding offset μ·δt·‖v_t‖ of μ = 0.5, δt = 1 ms at 2 m/s; a slow slide.
constexpr double kDefaultGlidingTop_m = 1e-3;
constexpr double kDefaultSlipTop_m_per_s = 1e-2;
// Below these the largest value is noise (a sticking contact's 1e-15 m offset, 1e-20 m/s slip)
// and a scale fitted to it would paint noise: the default scale is used instead.
constexpr double kMinGlidingTop_m = 1e-6;
constexpr double kMinSlipTop_m_per_s = 1e-5;

}  // namespace

const char* ContactColorModeName(ContactColorMode mode) {
  // One list of the names: the command line validates --contact-colors against it.
  const int i = static_cast<int>(mode);
  return i >= 0 && i < 3 ? kContactColorModes[i] : "?";
}

std::optional<ContactColorMode> ParseContactColorMode(std::string_view name) {
  for (ContactColorMode m :
       {ContactColorMode::kState, ContactColorMode::kGliding, ContactColorMode::kSlip}) {
    if (name == ContactColorModeName(m)) return m;
  }
  return std::nullopt;
}

Rgb8 ContactStateColor(ContactResult::State state) {
  if (state == ContactResult::State::kStick) return kStickColor;
  if (state == ContactResult::State::kSlip) return kSlipColor;
  return kMarginColor;
}

double ContactColorValue(const ContactResult& c, ContactColorMode mode) {
  switch (mode) {
    case ContactColorMode::kGliding:
      return c.gliding_offset_m;
    case ContactColorMode::kSlip:
      return c.slip_velocity_W.norm();
    case ContactColorMode::kState:
      break;
  }
  return 0.0;
}

double NiceUpperBound(double value) {
  if (!(value > 0) || !std::isfinite(value)) return 0.0;
  const double decade = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : {1.0, 2.0, 5.0, 10.0}) {
    // A relative slack so that an exact 2e-4 stays 2e-4 despite rounding in log10/pow.
    if (value <= step * decade * (1 + 1e-12)) return step * decade;
  }
  return 10.0 * decade;
}

double ContactColorTop(ContactColorMode mode, double max) {
  if (max > 0 && std::isfinite(max)) return max;
  return mode == ContactColorMode::kSlip ? kDefaultSlipTop_m_per_s : kDefaultGlidingTop_m;
}

double AutoContactColorTop(const std::vector<ContactResult>& contacts, ContactColorMode mode) {
  double largest = 0;
  for (const ContactResult& c : contacts) {
    const double v = ContactColorValue(c, mode);
    if (std::isfinite(v)) largest = std::max(largest, v);
  }
  const double floor = mode == ContactColorMode::kSlip ? kMinSlipTop_m_per_s : kMinGlidingTop_m;
  return ContactColorTop(mode, largest >= floor ? NiceUpperBound(largest) : 0.0);
}

Rgb8 ContactColor(const ContactResult& c, ContactColorMode mode, double max) {
  if (mode == ContactColorMode::kState) return ContactStateColor(c.state);
  const double top = ContactColorTop(mode, max);
  return PressureColorMap8(static_cast<float>(ContactColorValue(c, mode) / top));
}

}  // namespace contactlab
