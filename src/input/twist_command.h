// The one command every input device produces: an end-effector twist plus a gripper target.
#pragma once

#include <Eigen/Core>

namespace contactlab {

// Which frame the twist is expressed in. The controller rotates tool-frame twists into the world
// frame with the current end-effector orientation; devices only tag them.
enum class CommandFrame { kWorld, kTool };

struct TeleopCommand {
  double t = 0.0;  // time the command was sampled at [s] (simulation time)
  Eigen::Vector3d linear_m_per_s = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_rad_per_s = Eigen::Vector3d::Zero();
  // Gripper target as an absolute closure, 0 = fully open … 1 = fully closed. An absolute target
  // (rather than a signed rate) keeps replays exact: a recorded session reproduces the same
  // gripper opening regardless of how many polls happened between button presses.
  double grip = 0.0;
  CommandFrame frame = CommandFrame::kWorld;

  // True when the twist is exactly zero (grip is a state, not a motion).
  bool IsZeroTwist() const { return linear_m_per_s.isZero(0.0) && angular_rad_per_s.isZero(0.0); }
};

}  // namespace contactlab
