// The interface every teleoperation input (keyboard, space mouse, replay, merged) implements.
#pragma once

#include <string>

#include "input/twist_command.h"

namespace contactlab {

class InputDevice {
 public:
  virtual ~InputDevice() = default;

  // Returns the command to apply at simulation time t. Never blocks: devices read whatever
  // events are pending and otherwise hold their last state. Called from one thread (the one
  // that steps the simulation); devices fed from another thread (keyboard) lock internally.
  virtual TeleopCommand Poll(double t) = 0;

  // One line for the status bar / log, e.g. "space mouse connected" or
  // "no space mouse daemon (spacenavd) found".
  virtual std::string Status() const = 0;

  // Short name for the UI: "keyboard", "spacemouse", "replay", ...
  virtual std::string Name() const = 0;
};

}  // namespace contactlab
