#include "io/output_folder.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

namespace contactlab {
namespace {

namespace fs = std::filesystem;

// Whether a file can be created in `directory`: permissions alone do not tell (root ignores
// them, a read-only mount does not show in them), so one is created and removed.
std::string CheckWritable(const fs::path& directory) {
  std::string probe = (directory / ".contactlab_write_test_XXXXXX").string();
  const int fd = mkstemp(probe.data());
  if (fd < 0) return std::strerror(errno);
  close(fd);
  unlink(probe.c_str());
  return "";
}

bool FirstLineIs(const fs::path& path, std::string_view expected) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line == expected;
}

// "YYYYMMDD_HHMMSS", local time.
std::string Stamp(std::time_t t) {
  std::tm local{};
  localtime_r(&t, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &local);
  return stamp;
}

}  // namespace

std::string DefaultOutputDirectory() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && fs::path(xdg).is_absolute()) {
    return (fs::path(xdg) / "contactlab").string();
  }
  if (const char* home = std::getenv("HOME"); home && home[0] != '\0') {
    return (fs::path(home) / ".local" / "share" / "contactlab").string();
  }
  return ".";
}

std::string PrepareOutputDirectory(const std::string& directory, std::string* absolute) {
  if (directory.empty()) return "the output folder is an empty path";
  std::error_code ec;
  const fs::path path = fs::absolute(directory, ec);
  if (ec) return directory + ": " + ec.message();
  fs::create_directories(path, ec);
  if (ec) return directory + ": cannot create the folder: " + ec.message();
  if (!fs::is_directory(path, ec)) return directory + ": not a folder";
  if (const std::string why = CheckWritable(path); !why.empty()) {
    return directory + ": cannot write in the folder: " + why;
  }
  if (absolute) *absolute = path.lexically_normal().string();
  return "";
}

std::string TimestampedName(const std::string& prefix, const std::string& extension,
                            std::time_t t) {
  return prefix + "_" + Stamp(t) + "." + extension;
}

std::string NewOutputPath(const std::string& directory, const std::string& prefix,
                          const std::string& extension, std::time_t t, std::string* error) {
  std::string folder;
  if (std::string why = PrepareOutputDirectory(directory, &folder); !why.empty()) {
    if (error) *error = std::move(why);
    return "";
  }
  const std::string stem = prefix + "_" + Stamp(t);
  fs::path path = fs::path(folder) / (stem + "." + extension);
  std::error_code ec;
  for (int n = 2; fs::exists(path, ec); ++n) {
    path = fs::path(folder) / (stem + "_" + std::to_string(n) + "." + extension);
  }
  return path.string();
}

std::vector<std::string> ListFilesNewestFirst(const std::string& directory,
                                              std::string_view extension,
                                              std::string_view first_line) {
  std::vector<std::pair<fs::file_time_type, fs::path>> found;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec) || path.extension() != extension) continue;
    if (!first_line.empty() && !FirstLineIs(path, first_line)) continue;
    found.emplace_back(it->last_write_time(entry_ec), path);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a > b; });
  std::vector<std::string> paths;
  paths.reserve(found.size());
  for (const auto& [time, path] : found) paths.push_back(path.string());
  return paths;
}

}  // namespace contactlab
