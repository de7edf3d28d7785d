// The teleoperation CSV format shared by ReplayDevice and Recorder:
//   t,vx,vy,vz,wx,wy,wz,grip
// one header line, then one row per sample; t in seconds (strictly increasing), linear velocity
// in m/s, angular velocity in rad/s, grip in [0, 1] (0 open, 1 closed). Numbers are written in
// the shortest form that reads back to the same double, so Recorder → Replay is bit-exact.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "input/twist_command.h"

namespace contactlab {

inline constexpr std::string_view kTeleopCsvHeader = "t,vx,vy,vz,wx,wy,wz,grip";

struct TeleopCsvResult {
  std::vector<TeleopCommand> rows;
  std::string error;  // empty on success; else one line "FILE:LINE: what is wrong"
  bool ok() const { return error.empty(); }
};

// Parses CSV text; `name` is used in error messages (usually the file path). Rejects: a missing
// or different header, a wrong number of fields, anything that is not a complete finite number
// (including NaN and inf), non-increasing t, grip outside [0, 1], and a file without data rows.
// Blank lines are skipped; a trailing '\r' (Windows line endings) is accepted.
TeleopCsvResult ParseTeleopCsv(std::string_view text, std::string_view name);

// Reads and parses a file; an unreadable file is reported as "FILE: cannot open ...".
TeleopCsvResult LoadTeleopCsv(const std::string& path);

// One data row (no newline), shortest round-trip formatting.
std::string FormatTeleopCsvRow(const TeleopCommand& command);

}  // namespace contactlab
