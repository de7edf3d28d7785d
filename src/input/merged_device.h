// Combines several devices into one (e.g. space mouse + keyboard, so the keyboard keeps working
// when the space mouse daemon is missing or dies).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "input/input_device.h"

namespace contactlab {

// Twists are summed. The grip follows whichever source changed its grip most recently (each
// device's grip is a state that only changes on a button/key press, starting open). The frame is
// the first source's; sources are expected to share it.
class MergedInputDevice : public InputDevice {
 public:
  explicit MergedInputDevice(std::vector<std::shared_ptr<InputDevice>> sources);

  TeleopCommand Poll(double t) override { return PollStep(t, 0); }
  // Each source polled for the step [t, t + h] (h = 0: Poll(t)).
  TeleopCommand PollStep(double t, double h) override;
  std::string Status() const override;  // the sources' statuses joined with " | "
  std::string Name() const override;    // the sources' names joined with "+"
  bool Connected() const override;      // every source is

 private:
  std::vector<std::shared_ptr<InputDevice>> sources_;
  std::vector<double> last_grip_;
  double grip_ = 0.0;
};

}  // namespace contactlab
