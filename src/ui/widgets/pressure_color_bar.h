// The pressure colour bar of the hydroelastic patch layer (a small overlay in the bottom-right
// corner of the scene, drawn with ImGui's draw list), and the automatic pressure range that
// both the bar and the renderer use (RenderLayers::pressure_auto).
#pragma once

#include <cstdint>
#include <string>

#include "app/runtime/snapshot.h"
#include "render/render_layers.h"

namespace contactlab {

// Auto range: the top of the colour map follows the snapshot's largest pressure, at once when
// it rises (no colour saturates for long) and with time constant kDecay_s when it falls (the
// map does not flicker as faces come and go); a new run (reset, scene load) starts afresh.
// Frames without patches keep the last value. The bottom is 0 Pa.
struct AutoPressureRange {
  static constexpr float kDecay_s = 1.0f;
  // Sets layers->pressure_min_Pa / pressure_max_Pa when layers->pressure_auto; dt_s is the
  // frame time (non-finite or negative counts as 0).
  void Update(const Snapshot& snapshot, float dt_s, RenderLayers* layers);

  uint64_t scene_generation = 0, run = 0;
  bool started = false;
};

// "0", "850 Pa", "1.27 kPa", "3.5 MPa": three significant digits in the unit that suits
// `scale_Pa` (the top of the range, so that every label of one bar shares its unit).
std::string FormatPressure(float pressure_Pa, float scale_Pa);

// Where the colour bar window goes: its bottom-right corner at (right, bottom) of the scene
// area (pixels) less a margin; fixed size.
struct ColorBarRect {
  float x0, y0, x1, y1;
};
ColorBarRect PressureColorBarRect(float scene_right, float scene_bottom);

// A colour bar window at r: `title`, the colour map from left to right, and labels at its
// left end, middle and right end (what the pressure and contact colour bars share).
void ColorMapBar(const char* id, const ColorBarRect& r, const std::string& title,
                 const std::string (&labels)[3]);

// Draws the bar (colour map, 0 / middle / top labels) when the patch layer is on and the
// snapshot has patches. Call between ImGui::NewFrame and ImGui::Render.
void PressureColorBar(const Snapshot& snapshot, const RenderLayers& layers, float scene_right,
                      float scene_bottom);

}  // namespace contactlab
