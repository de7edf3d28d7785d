#include "app/headless/csv_file.h"

#include <stdexcept>

namespace contactlab {

CsvFile::CsvFile(const std::string& path, std::string_view what, std::string_view header)
    : file_(std::fopen(path.c_str(), "w")) {
  if (!file_) {
    throw std::runtime_error(fmt::format("{}: cannot open the {} for writing", path, what));
  }
  std::fwrite(header.data(), 1, header.size(), file_.get());
  std::fputc('\n', file_.get());
}

void CsvFile::EndRow() {
  row_.push_back('\n');
  std::fwrite(row_.data(), 1, row_.size(), file_.get());
}

}  // namespace contactlab
