// The output folder with known answers: the default from XDG_DATA_HOME or HOME (the variables set
// by the test, to temporary folders), a folder that cannot be created or written is one line
// naming it, time-stamped names that never overwrite, and the recordings listed newest first.
#include "io/output_folder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <string>

namespace contactlab {
namespace {

namespace fs = std::filesystem;

fs::path TempDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("contactlab_output_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  return dir;
}

// Sets an environment variable for a test's scope and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? setenv(name, value, 1) : unsetenv(name);
  }
  ~ScopedEnv() { old_ ? setenv(name_, old_->c_str(), 1) : unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

void Write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

TEST(OutputFolder, TheDefaultIsUnderXdgDataHomeElseHome) {
  const fs::path data = TempDir("xdg"), home = TempDir("home");
  {
    ScopedEnv xdg("XDG_DATA_HOME", data.c_str());
    ScopedEnv h("HOME", home.c_str());
    EXPECT_EQ(DefaultOutputDirectory(), (data / "contactlab").string());
    EXPECT_FALSE(fs::exists(data));  // created by the first save, not by asking
  }
  {
    ScopedEnv xdg("XDG_DATA_HOME", "relative/data");  // not absolute: ignored (XDG spec)
    ScopedEnv h("HOME", home.c_str());
    EXPECT_EQ(DefaultOutputDirectory(), (home / ".local/share/contactlab").string());
  }
  {
    ScopedEnv xdg("XDG_DATA_HOME", nullptr);
    ScopedEnv h("HOME", nullptr);
    EXPECT_EQ(DefaultOutputDirectory(), ".");
  }
}

TEST(OutputFolder, PreparingCreatesTheFolderOrSaysWhyNot) {
  const fs::path dir = TempDir("prepare");
  std::string absolute;
  EXPECT_EQ(PrepareOutputDirectory((dir / "a/b").string(), &absolute), "");
  EXPECT_TRUE(fs::is_directory(dir / "a/b"));
  EXPECT_EQ(absolute, (dir / "a/b").string());
  EXPECT_TRUE(fs::is_empty(dir / "a/b"));  // the write probe is gone

  Write(dir / "file", "x");
  const std::string under_a_file = (dir / "file/out").string();
  const std::string error = PrepareOutputDirectory(under_a_file);
  EXPECT_NE(error.find(under_a_file + ": cannot create the folder"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_NE(PrepareOutputDirectory((dir / "file").string()).find((dir / "file").string()),
            std::string::npos);
  // Not writable even for root: /proc takes no new files.
  EXPECT_NE(PrepareOutputDirectory("/proc/contactlab_out"), "");
  fs::remove_all(dir);
}

TEST(OutputFolder, NewPathsAreTimestampedAndNeverOverwrite) {
  const fs::path dir = TempDir("names");
  std::tm noon{};
  noon.tm_year = 2026 - 1900, noon.tm_mon = 10, noon.tm_mday = 27, noon.tm_hour = 12;
  noon.tm_isdst = -1;
  const std::time_t t = std::mktime(&noon);  // local time, as the names are
  EXPECT_EQ(TimestampedName("contactlab", "png", t), "contactlab_20261127_120000.png");
  std::string error;
  const std::string first = NewOutputPath(dir.string(), "contactlab", "png", t, &error);
  EXPECT_EQ(first, (dir / "contactlab_20261127_120000.png").string());
  EXPECT_TRUE(fs::is_directory(dir));
  Write(first, "png");
  const std::string second = NewOutputPath(dir.string(), "contactlab", "png", t, &error);
  EXPECT_EQ(second, (dir / "contactlab_20261127_120000_2.png").string());
  Write(second, "png");
  EXPECT_EQ(NewOutputPath(dir.string(), "contactlab", "png", t, &error),
            (dir / "contactlab_20261127_120000_3.png").string());
  EXPECT_EQ(NewOutputPath("/proc/contactlab_out", "contactlab", "png", t, &error), "");
  EXPECT_NE(error.find("/proc/contactlab_out"), std::string::npos) << error;
  fs::remove_all(dir);
}

TEST(OutputFolder, RecordingsAreListedNewestFirst) {
  const fs::path dir = TempDir("list");
  fs::create_directories(dir);
  const std::string header = "t,vx,vy,vz,wx,wy,wz,grip";
  // Names in the opposite order of their times: the list goes by modification time.
  const auto now = fs::file_time_type::clock::now();
  const std::pair<const char*, int> recordings[] = {
      {"c_oldest.csv", -300}, {"a_newest.csv", -10}, {"b_middle.csv", -100}};
  for (const auto& [name, age_s] : recordings) {
    Write(dir / name, header + "\n0,0,0,0,0,0,0,0\n");
    fs::last_write_time(dir / name, now + std::chrono::seconds(age_s));
  }
  Write(dir / "windows.csv", header + "\r\n0,0,0,0,0,0,0,0\r\n");  // a '\r' is no difference
  fs::last_write_time(dir / "windows.csv", now - std::chrono::seconds(200));
  Write(dir / "contacts.csv", "t,body_a,body_b\n");  // an export, not a recording
  Write(dir / "shot.png", header + "\n");
  fs::create_directories(dir / "folder.csv");
  const std::vector<std::string> listed = ListFilesNewestFirst(dir.string(), ".csv", header);
  const std::vector<std::string> expected = {
      (dir / "a_newest.csv").string(), (dir / "b_middle.csv").string(),
      (dir / "windows.csv").string(), (dir / "c_oldest.csv").string()};
  EXPECT_EQ(listed, expected);
  EXPECT_EQ(ListFilesNewestFirst(dir.string(), ".csv").size(), 5u);  // any first line
  EXPECT_TRUE(ListFilesNewestFirst((dir / "missing").string(), ".csv").empty());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace contactlab
