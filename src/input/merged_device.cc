#include "input/merged_device.h"

namespace contactlab {

MergedInputDevice::MergedInputDevice(std::vector<std::shared_ptr<InputDevice>> sources)
    : sources_(std::move(sources)), last_grip_(sources_.size(), 0.0) {}

TeleopCommand MergedInputDevice::PollStep(double t, double h) {
  TeleopCommand out;
  out.t = t;
  for (size_t i = 0; i < sources_.size(); ++i) {
    const TeleopCommand c = h > 0 ? sources_[i]->PollStep(t, h) : sources_[i]->Poll(t);
    if (i == 0) out.frame = c.frame;
    out.linear_m_per_s += c.linear_m_per_s;
    out.angular_rad_per_s += c.angular_rad_per_s;
    // Every device starts open (0), so any difference from a source's previous grip is a
    // press on that source.
    if (c.grip != last_grip_[i]) grip_ = c.grip;
    last_grip_[i] = c.grip;
  }
  out.grip = grip_;
  return out;
}

std::string MergedInputDevice::Status() const {
  std::string s;
  for (const auto& d : sources_) s += (s.empty() ? "" : " | ") + d->Status();
  return s;
}

std::string MergedInputDevice::Name() const {
  std::string s;
  for (const auto& d : sources_) s += (s.empty() ? "" : "+") + d->Name();
  return s;
}

bool MergedInputDevice::Connected() const {
  for (const auto& source : sources_) {
    if (!source->Connected()) return false;
  }
  return true;
}

}  // namespace contactlab
