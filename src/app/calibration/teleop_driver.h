// Teleoperation replayed in calibration runs (docs/contact-model.md §10): a scene with a
// teleoperated arm or gripper is driven as `contactlab --headless` drives it, so that a run at
// the reference's parameters reproduces a log the headless run wrote: before every step the
// device's command (a replay CSV, the scene's circle or script, else the idle keyboard: the arm
// held, the gripper closed on what it holds) becomes PD targets through the TeleopController.
// Those targets are open-loop in the measured state (app/teleop/teleop_controller.h: the
// differential IK runs on the targets), so they do not depend on the contact parameters and the
// trajectory's sensitivities need no term through them.
#pragma once

#include <functional>
#include <string>

#include "app/calibration/calibration.h"
#include "engine/world/scene_spec.h"

namespace contactlab {

// The driver factory for CalibrationSpec::make_driver: empty when the scene has no teleoperated
// robot. `input` is --input's value ("": the scene's program, as headless; else keyboard or
// replay:FILE). Throws std::invalid_argument with one line for a bad replay file or a live
// device (a space mouse or gamepad cannot be replayed).
std::function<StepDriver(const World&)> MakeTeleopDriver(const SceneSpec& scene,
                                                         const std::string& input);

}  // namespace contactlab
