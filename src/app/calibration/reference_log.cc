#include "app/calibration/reference_log.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <stdexcept>

namespace contactlab {
namespace {

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    const size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

double ParseNumber(const std::string& field, const std::string& where) {
  double value = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  if (ec != std::errc() || ptr != end) {
    throw std::invalid_argument(fmt::format("{}: '{}' is not a number", where, field));
  }
  return value;
}

}  // namespace

int ReferenceLog::Column(const std::string& name) const {
  const auto it = std::find(columns.begin(), columns.end(), name);
  return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

ReferenceLog ReadReferenceLog(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot open the reference log", path));
  ReferenceLog log;
  log.source = path;
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(path + ": the reference log is empty");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  log.columns = SplitCsv(line);
  const int t_column = log.Column("t");
  if (t_column < 0) throw std::invalid_argument(path + ": the reference log has no `t` column");
  std::vector<double> values;
  int rows = 0;
  for (int line_number = 2; std::getline(in, line); ++line_number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> fields = SplitCsv(line);
    const std::string where = fmt::format("{}:{}", path, line_number);
    if (fields.size() != log.columns.size()) {
      throw std::invalid_argument(fmt::format("{}: {} fields where the header has {}", where,
                                              fields.size(), log.columns.size()));
    }
    for (const std::string& f : fields) values.push_back(ParseNumber(f, where));
    const double t = values[values.size() - fields.size() + t_column];
    if (!log.time_s.empty() && !(t > log.time_s.back())) {
      throw std::invalid_argument(fmt::format("{}: t = {} does not increase", where, t));
    }
    log.time_s.push_back(t);
    ++rows;
  }
  if (rows == 0) throw std::invalid_argument(path + ": the reference log has no rows");
  const int cols = static_cast<int>(log.columns.size());
  log.values =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          values.data(), rows, cols);
  return log;
}

}  // namespace contactlab
