// A CSV file written row by row from one reused line buffer (no allocation per row once warm):
// what the per-step log and the contact log share.
#pragma once

#include <spdlog/fmt/fmt.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace contactlab {

class CsvFile {
 public:
  // Opens `path` for writing and writes the header line. Throws std::runtime_error
  // "PATH: cannot open the WHAT for writing".
  CsvFile(const std::string& path, std::string_view what, std::string_view header);
  // The row being built: cleared here, appended to with fmt::format_to, written by EndRow.
  fmt::memory_buffer& BeginRow() {
    row_.clear();
    return row_;
  }
  void EndRow();

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> file_;
  fmt::memory_buffer row_;
};

}  // namespace contactlab
