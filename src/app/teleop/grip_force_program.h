// The grip force a scene's teleop program commands (scene key teleop.grip_force, issue 36;
// assets/scenes/README.md, Held object and teleop program): a square wave between `low_N` and
// `high_N`, applied by the TeleopController at the start of every step, at the world's time.
#pragma once

#include <string>

#include "engine/world/scene_spec.h"

namespace contactlab {

using GripForceSquareWave = TeleopProgramSpec::SquareWave;

// The wave's force at time t [s]: high_N while t mod period lies in [0, duty·period), low_N in
// [duty·period, period). Each switch instant belongs to the phase it starts: t = 0 and every
// multiple of the period are high, t = k·period + duty·period low (the SAP paper's Fig. 17 and
// Drake's Square: high first). Negative t continues the wave backwards.
double GripForceAt(const GripForceSquareWave& wave, double t_s);

// "square wave 1-16 N, 6 s, 75 %" (low-high, period, duty): what the GUI shows (ASCII: the
// GUI font has no dashes).
std::string GripForceProgramLabel(const GripForceSquareWave& wave);

}  // namespace contactlab
