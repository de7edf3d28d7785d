// Replays a teleoperation CSV (see teleop_csv.h) as an input device.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "input/input_device.h"

namespace contactlab {

// Timing: the CSV's t column is simulation time, matched directly against Poll(t) (a recording
// made from t = 3.2 s replays from t = 3.2 s). Between rows every channel (twist and grip) is
// linearly interpolated; at a row's t the row is returned exactly. Before the first row the twist
// is zero and the grip is the first row's; after the last row the twist is zero and the grip
// holds the last row's value (the gripper does not drop what it holds when the replay ends).
class ReplayDevice : public InputDevice {
 public:
  // Loads and validates the file. On error returns nullptr and sets *error to one line
  // "FILE:LINE: what is wrong".
  static std::unique_ptr<ReplayDevice> Load(const std::string& path, std::string* error,
                                            CommandFrame frame = CommandFrame::kWorld);

  ReplayDevice(std::vector<TeleopCommand> rows, std::string source_name,
               CommandFrame frame = CommandFrame::kWorld);

  TeleopCommand Poll(double t) override;
  std::string Status() const override;
  std::string Name() const override { return "replay"; }
  bool IsLive() const override { return false; }

  // Stateless sample at time t (Poll records progress for Status; this does not).
  TeleopCommand Sample(double t) const;
  bool Finished(double t) const { return t > rows_.back().t; }
  double end_time() const { return rows_.back().t; }

 private:
  std::vector<TeleopCommand> rows_;  // non-empty, strictly increasing t
  std::string source_name_;
  CommandFrame frame_;
  double last_t_ = -1e300;
};

}  // namespace contactlab
