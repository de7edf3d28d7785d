// The colour of a contact point marker in each ContactColorMode: by state, or on the pressure
// colour map (viridis, render/color_map.h) by the gliding offset the convex approximation
// introduces (docs/contact-model.md §2.5) or by slip speed, linearly from 0 to a top value.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "engine/world/step_results.h"
#include "render/rgb8.h"

namespace contactlab {

// What colours the contact point markers: their state (kStickColor, kSlipColor, kMarginColor of
// render/palette.h), or on the pressure colour map their gliding offset
// (ContactResult::gliding_offset_m) or slip speed.
enum class ContactColorMode { kState, kGliding, kSlip };

// "state" | "gliding" | "slip" (the --contact-colors values).
const char* ContactColorModeName(ContactColorMode mode);
std::optional<ContactColorMode> ParseContactColorMode(std::string_view name);

// The state colour (kStickColor, kSlipColor, kMarginColor for the rest).
Rgb8 ContactStateColor(ContactResult::State state);

// The mode's quantity of a contact: gliding offset [m] or slip speed ‖v_t‖ [m/s] (0 in kState).
double ContactColorValue(const ContactResult& c, ContactColorMode mode);

// The smallest 1, 2 or 5 × 10^k ≥ value; 0 for value ≤ 0 or not finite.
double NiceUpperBound(double value);

// The top of the colour scale: `max` when positive and finite, else the mode's default scale
// (kGliding 1 mm, kSlip 1 cm/s), which is also what an all-zero step (Lagged: no gliding) shows.
double ContactColorTop(ContactColorMode mode, double max);

// Automatic top: the largest value over `contacts`, rounded up by NiceUpperBound (labels read
// well and the scale only moves when the largest value crosses a 1-2-5 step); the default
// scale when the largest is negligible (below 1 µm, or 10 µm/s) or there are no contacts.
double AutoContactColorTop(const std::vector<ContactResult>& contacts, ContactColorMode mode);

// The marker colour: ContactStateColor in kState, else PressureColorMap8(value / top) with top
// = ContactColorTop(mode, max).
Rgb8 ContactColor(const ContactResult& c, ContactColorMode mode, double max);

}  // namespace contactlab
