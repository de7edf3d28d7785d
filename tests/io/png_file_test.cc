// PNG files: a written file is a PNG (the line plot tests read pixels back exactly), and the
// errors are one line naming the path: a buffer of the wrong size, a folder that does not exist.
#include "io/png_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace contactlab {
namespace {

namespace fs = std::filesystem;

// The message of what f throws as E, or "" if it throws nothing.
template <typename E, typename F>
std::string Thrown(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

std::string TempPng(const std::string& name) {
  return (fs::temp_directory_path() /
          ("contactlab_png_file_" + std::to_string(::getpid()) + "_" + name + ".png"))
      .string();
}

TEST(PngFile, WritesAPng) {
  const std::string path = TempPng("written");
  WritePng(path, 3, 2, std::vector<uint8_t>(3 * 2 * 4, 200));
  std::ifstream in(path, std::ios::binary);
  char signature[8] = {};
  in.read(signature, 8);
  EXPECT_EQ(std::string(signature, 8), "\x89PNG\r\n\x1a\n");
  fs::remove(path);
}

TEST(PngFile, ErrorsAreOneLineNamingThePath) {
  const std::string never = TempPng("never");
  const std::string wrong_size =
      Thrown<std::invalid_argument>([&] { WritePng(never, 3, 2, std::vector<uint8_t>(5)); });
  EXPECT_NE(wrong_size.find(never), std::string::npos) << wrong_size;
  EXPECT_FALSE(fs::exists(never));
  const std::string path = "/nonexistent-contactlab-dir/x.png";
  const std::string unwritable =
      Thrown<std::runtime_error>([&] { WritePng(path, 3, 2, std::vector<uint8_t>(3 * 2 * 4)); });
  EXPECT_NE(unwritable.find(path), std::string::npos) << unwritable;
  EXPECT_EQ(unwritable.find('\n'), std::string::npos) << unwritable;
}

}  // namespace
}  // namespace contactlab
