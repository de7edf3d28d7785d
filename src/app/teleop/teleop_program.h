// A scene's teleop program (scene key `teleop`, issue 36) as the app runs it: the circle's input
// device and the command line's --circle-frequency; the joint sinusoids' targets (issue 38),
// which the TeleopController sets.
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

// Whether the scene's program drives arm joints by sinusoids (teleop.joint_sines).
bool HasJointProgram(const SceneSpec& scene);

// A PD target: position [rad or m] and rate [rad/s or m/s].
struct JointTarget {
  double q = 0, v = 0;
};

// The target of a joint sine at time t [s], about the joint's initial position q0:
// q0 + A sin(ω t) at the rate A ω cos(ω t).
JointTarget JointSineTarget(const TeleopProgramSpec::JointSine& sine, double q0, double t_s);

// "panda_joint1 0.25 sin(1 t), panda_joint2 0.25 sin(2 t)": what the GUI shows ("": none).
std::string JointProgramLabel(const SceneSpec& scene);

}  // namespace contactlab
