// A scene's teleop program (scene key `teleop`, issue 36) as the app runs it: the circle's input
// device and the command line's --circle-frequency.
#pragma once

#include <memory>
#include <string>

#include "engine/world/scene_spec.h"
#include "input/circle_device.h"

namespace contactlab {

// Whether the scene's program is a circle of the tool point (teleop.circle with a radius > 0).
bool HasTeleopCircle(const SceneSpec& scene);

// The device that drives the scene's circle at the scene's time step (null: no circle).
std::shared_ptr<CircleDevice> MakeCircleDevice(const SceneSpec& scene);

// --circle-frequency HZ: the scene's circle at that frequency. "" on success, else one line
// (the scene has no circle; HZ outside [0, CircleDevice::kMaxFrequencyHz]).
std::string SetCircleFrequency(double frequency_Hz, SceneSpec* scene);

}  // namespace contactlab
