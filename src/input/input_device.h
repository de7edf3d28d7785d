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
  // The command for the step [t, t + h], h its planned size (World::next_dt: δt, or error
  // control's proposal; docs/contact-model.md §1.2). A device whose command depends on the
  // step's length (a program aiming at a path's point at the step's end: CircleDevice)
  // overrides it; for the others the command is a function of t alone.
  virtual TeleopCommand PollStep(double t, double h) {
    static_cast<void>(h);
    return Poll(t);
  }

  // One line for the status bar / log, e.g. "space mouse connected" or
  // "no space mouse daemon (spacenavd) found".
  virtual std::string Status() const = 0;

  // Whether a person drives it now (keyboard, space mouse): the UI's sensitivity and frame
  // choice apply to live devices; a replay reproduces its recording exactly.
  virtual bool IsLive() const { return true; }

  // False while a device the user asked for is missing (no space mouse daemon, connection
  // lost): the UI shows its status as a warning. Devices that cannot go missing are connected.
  virtual bool Connected() const { return true; }

  // Short name for the UI: "keyboard", "spacemouse", "replay", ...
  virtual std::string Name() const = 0;
};

}  // namespace contactlab
