#include "input/recorder.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "input/teleop_csv.h"

namespace contactlab {

Recorder::~Recorder() { Close(); }

bool Recorder::Open(const std::string& path, std::string* error) {
  Close();
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) {
    if (error) *error = path + ": cannot create recording: " + std::strerror(errno);
    return false;
  }
  path_ = path;
  rows_ = dropped_ = 0;
  std::fprintf(file_, "%.*s\n", static_cast<int>(kTeleopCsvHeader.size()), kTeleopCsvHeader.data());
  spdlog::info("recording teleoperation commands to {}", path);
  return true;
}

bool Recorder::Record(const TeleopCommand& c) {
  if (!file_) return false;
  const bool finite = std::isfinite(c.t) && c.linear_m_per_s.allFinite() &&
                      c.angular_rad_per_s.allFinite() && std::isfinite(c.grip);
  if (!finite || (rows_ > 0 && !(c.t > last_t_))) {
    if (dropped_++ == 0) {
      spdlog::warn("recorder {}: dropping rows with non-increasing t or non-finite values", path_);
    }
    return false;
  }
  TeleopCommand clamped = c;
  clamped.grip = std::clamp(c.grip, 0.0, 1.0);  // the format (and replay) require [0, 1]
  const std::string row = FormatTeleopCsvRow(clamped);
  if (std::fprintf(file_, "%s\n", row.c_str()) < 0) {
    spdlog::error("recorder {}: write failed: {}", path_, std::strerror(errno));
    return false;
  }
  last_t_ = c.t;
  ++rows_;
  return true;
}

void Recorder::Close() {
  if (!file_) return;
  std::fclose(file_);
  file_ = nullptr;
  spdlog::info("recording {} closed: {} rows{}", path_, rows_,
               dropped_ ? fmt::format(" ({} dropped)", dropped_) : std::string());
}

}  // namespace contactlab
