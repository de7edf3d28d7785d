// Records the commands of a live session to a teleoperation CSV (format in teleop_csv.h) that
// ReplayDevice plays back bit-exactly.
#pragma once

#include <cstdio>
#include <string>

#include "input/twist_command.h"

namespace contactlab {

class Recorder {
 public:
  Recorder() = default;
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Creates/truncates the file and writes the header. On failure returns false and sets *error
  // to one line naming the file.
  bool Open(const std::string& path, std::string* error);

  // Appends one row. Rows whose t does not increase (the sim polled twice at the same time, or a
  // reset rewound time) are dropped, because the format requires strictly increasing t. Returns
  // false if the row was dropped or the write failed.
  bool Record(const TeleopCommand& command);

  // Flushes and closes; also done by the destructor.
  void Close();

  bool is_open() const { return file_ != nullptr; }
  size_t rows_written() const { return rows_; }
  const std::string& path() const { return path_; }

 private:
  std::FILE* file_ = nullptr;
  std::string path_;
  size_t rows_ = 0;
  size_t dropped_ = 0;
  double last_t_ = 0.0;
};

}  // namespace contactlab
