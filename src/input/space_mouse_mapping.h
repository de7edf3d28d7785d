// Turns raw 6-axis space mouse readings into a twist: deadband, normalization, axis mapping,
// locks, dominant-axis mode, per-axis sensitivity, speed scaling. Pure functions, no I/O.
#pragma once

#include <array>
#include <map>

#include "input/twist_command.h"

namespace contactlab {

// Raw axis order as spacenavd reports it: 0 x, 1 y, 2 z, 3 rx, 4 ry, 5 rz.
// Output axis order: 0 vx, 1 vy, 2 vz, 3 wx, 4 wy, 5 wz (robot/world: x forward, y left, z up).
struct AxisSource {
  int raw_axis;  // which raw axis feeds this output axis
  double sign;   // +1 or -1
};

enum class SpaceMouseButtonAction {
  kNone,
  kOpenGrip,
  kCloseGrip,
  kToggleGrip,
  kToggleDominantAxis,
  kToggleTranslationLock,
  kToggleRotationLock
};

struct SpaceMouseConfig {
  // Raw readings with |value| <= deadband are zero; above it the range is rescaled so the output
  // starts from 0 at the edge of the deadband instead of jumping.
  std::array<int, 6> deadband_counts = {15, 15, 15, 15, 15, 15};
  // Raw reading that maps to full speed (spacenavd reports about ±350 at sensitivity 1).
  double full_scale_counts = 350.0;
  // spacenavd's frame is x right, y up, z toward the user; the robot's is x forward, y left,
  // z up. Pushing the cap away (raw -z) moves +x, left (raw -x) moves +y, lifting (raw +y) +z;
  // rotations follow the same proper rotation.
  std::array<AxisSource, 6> mapping = {AxisSource{2, -1.0}, AxisSource{0, -1.0},
                                       AxisSource{1, +1.0}, AxisSource{5, -1.0},
                                       AxisSource{3, -1.0}, AxisSource{4, +1.0}};
  // Per output axis multiplier on the normalized deflection (vx vy vz wx wy wz).
  std::array<double, 6> sensitivity = {1, 1, 1, 1, 1, 1};
  double max_linear_m_per_s = 0.15;  // at full deflection and sensitivity 1
  double max_angular_rad_per_s = 0.8;
  bool dominant_axis = false;     // keep only the output axis with the largest deflection
  bool lock_translation = false;  // zero vx vy vz
  bool lock_rotation = false;     // zero wx wy wz
  std::map<int, SpaceMouseButtonAction> buttons = {{0, SpaceMouseButtonAction::kOpenGrip},
                                                   {1, SpaceMouseButtonAction::kCloseGrip}};
  CommandFrame frame = CommandFrame::kWorld;
  // While disconnected, retry connecting at most this often (wall-clock seconds).
  double reconnect_interval_s = 2.0;
};

// The normalized output deflections (6 values in [-1, 1] × sensitivity) after deadband,
// mapping, locks and dominant-axis selection. Dominance is decided on the deflection before
// sensitivity, i.e. on what the hand does, so sensitivity cannot make a small push win.
std::array<double, 6> MapSpaceMouseAxes(const std::array<int, 6>& raw,
                                        const SpaceMouseConfig& config);

// Full mapping to velocities; fills linear_m_per_s and angular_rad_per_s of *command.
void SpaceMouseToTwist(const std::array<int, 6>& raw, const SpaceMouseConfig& config,
                       TeleopCommand* command);

}  // namespace contactlab
