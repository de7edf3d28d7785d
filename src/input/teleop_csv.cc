#include "input/teleop_csv.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace contactlab {
namespace {

constexpr std::array<const char*, 8> kColumns = {"t", "vx", "vy", "vz", "wx", "wy", "wz", "grip"};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string FormatDouble(double x) {
  // Shortest representation that parses back to the same double.
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, ec == std::errc() ? ptr : buf);
}

// A field or line of the file as a message may quote it: printable ASCII, other bytes as \xNN
// (a binary file must not reach the terminal raw), at most 40 characters.
std::string Quoted(std::string_view text) {
  constexpr size_t kMax = 40;
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return out + (text.size() > kMax ? "...\"" : "\"");
}

std::string Where(std::string_view name, int line) {
  return std::string(name) + ":" + std::to_string(line) + ": ";
}

}  // namespace

TeleopCsvResult ParseTeleopCsv(std::string_view text, std::string_view name) {
  TeleopCsvResult result;
  auto fail = [&](int line, const std::string& message) {
    result.rows.clear();
    result.error = Where(name, line) + message;
    return result;
  };

  int line_number = 0;
  bool header_seen = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = Trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_number;
    if (line.empty()) continue;

    if (!header_seen) {
      if (line != kTeleopCsvHeader) {
        return fail(line_number, "expected header \"" + std::string(kTeleopCsvHeader) + "\", got " +
                                     Quoted(line));
      }
      header_seen = true;
      continue;
    }

    std::array<double, 8> v{};
    size_t field_start = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      const size_t comma = line.find(',', field_start);
      const bool last = i + 1 == v.size();
      if (!last && comma == std::string_view::npos) {
        return fail(line_number,
                    "expected 8 fields (t,vx,vy,vz,wx,wy,wz,grip), got " + std::to_string(i + 1));
      }
      if (last && comma != std::string_view::npos) {
        return fail(line_number, "expected 8 fields (t,vx,vy,vz,wx,wy,wz,grip), got more");
      }
      const std::string_view field =
          Trim(line.substr(field_start, last ? std::string_view::npos : comma - field_start));
      field_start = comma + 1;
      // from_chars is locale-independent and tells us whether the whole field was consumed.
      const char* first = field.data();
      const char* stop = field.data() + field.size();
      const auto [ptr, ec] = std::from_chars(first, stop, v[i]);
      if (field.empty() || ec != std::errc() || ptr != stop) {
        return fail(line_number,
                    std::string("column '") + kColumns[i] + "' is not a number: " + Quoted(field));
      }
      if (!std::isfinite(v[i])) {
        return fail(line_number,
                    std::string("column '") + kColumns[i] + "' is not finite: " + Quoted(field));
      }
    }
    if (!result.rows.empty() && !(v[0] > result.rows.back().t)) {
      return fail(line_number, "t must increase strictly (t = " + FormatDouble(v[0]) +
                                   " after t = " + FormatDouble(result.rows.back().t) + ")");
    }
    if (v[7] < 0.0 || v[7] > 1.0) {
      return fail(line_number, "grip must be in [0, 1] (0 open, 1 closed)");
    }
    TeleopCommand c;
    c.t = v[0];
    c.linear_m_per_s = Eigen::Vector3d(v[1], v[2], v[3]);
    c.angular_rad_per_s = Eigen::Vector3d(v[4], v[5], v[6]);
    c.grip = v[7];
    result.rows.push_back(c);
  }
  if (!header_seen) return fail(std::max(line_number, 1), "empty file (no header)");
  if (result.rows.empty()) return fail(line_number, "no data rows after the header");
  return result;
}

TeleopCsvResult LoadTeleopCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    TeleopCsvResult r;
    r.error = path + ": cannot open replay file";
    return r;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseTeleopCsv(text.str(), path);
}

std::string FormatTeleopCsvRow(const TeleopCommand& c) {
  const std::array<double, 8> v = {c.t,
                                   c.linear_m_per_s.x(),
                                   c.linear_m_per_s.y(),
                                   c.linear_m_per_s.z(),
                                   c.angular_rad_per_s.x(),
                                   c.angular_rad_per_s.y(),
                                   c.angular_rad_per_s.z(),
                                   c.grip};
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    out += FormatDouble(v[i]);
  }
  return out;
}

}  // namespace contactlab
