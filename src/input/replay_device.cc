#include "input/replay_device.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>

#include "input/teleop_csv.h"

namespace contactlab {

std::unique_ptr<ReplayDevice> ReplayDevice::Load(const std::string& path, std::string* error,
                                                 CommandFrame frame) {
  TeleopCsvResult parsed = LoadTeleopCsv(path);
  if (!parsed.ok()) {
    if (error) *error = parsed.error;
    return nullptr;
  }
  spdlog::info("replay: {} rows from {} (t = {} … {} s)", parsed.rows.size(), path,
               parsed.rows.front().t, parsed.rows.back().t);
  return std::make_unique<ReplayDevice>(std::move(parsed.rows), path, frame);
}

ReplayDevice::ReplayDevice(std::vector<TeleopCommand> rows, std::string source_name,
                           CommandFrame frame)
    : rows_(std::move(rows)), source_name_(std::move(source_name)), frame_(frame) {
  if (rows_.empty()) {
    // An empty replay is a valid "do nothing" device; keep one neutral row so Sample is simple.
    rows_.push_back(TeleopCommand{});
  }
}

TeleopCommand ReplayDevice::Sample(double t) const {
  TeleopCommand c;
  c.t = t;
  c.frame = frame_;
  if (t < rows_.front().t) {
    c.grip = rows_.front().grip;
    return c;
  }
  if (t > rows_.back().t) {
    c.grip = rows_.back().grip;
    return c;
  }
  // First row with row.t >= t; t lies in (prev.t, next.t] or equals the first row's t.
  const auto next = std::lower_bound(rows_.begin(), rows_.end(), t,
                                     [](const TeleopCommand& r, double x) { return r.t < x; });
  if (next->t == t || next == rows_.begin()) {
    c.linear_m_per_s = next->linear_m_per_s;
    c.angular_rad_per_s = next->angular_rad_per_s;
    c.grip = next->grip;
    return c;
  }
  const TeleopCommand& prev = *(next - 1);
  const double s = (t - prev.t) / (next->t - prev.t);
  c.linear_m_per_s = prev.linear_m_per_s + s * (next->linear_m_per_s - prev.linear_m_per_s);
  c.angular_rad_per_s =
      prev.angular_rad_per_s + s * (next->angular_rad_per_s - prev.angular_rad_per_s);
  c.grip = prev.grip + s * (next->grip - prev.grip);
  return c;
}

TeleopCommand ReplayDevice::Poll(double t) {
  last_t_ = t;
  return Sample(t);
}

std::string ReplayDevice::Status() const {
  char buf[64];
  if (last_t_ > rows_.back().t) {
    std::snprintf(buf, sizeof buf, "finished (%zu rows)", rows_.size());
  } else if (last_t_ < rows_.front().t) {
    std::snprintf(buf, sizeof buf, "waiting for t = %.3f s", rows_.front().t);
  } else {
    std::snprintf(buf, sizeof buf, "t = %.3f / %.3f s", last_t_, rows_.back().t);
  }
  return "replay " + source_name_ + ": " + buf;
}

}  // namespace contactlab
