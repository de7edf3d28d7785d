// A file path in the system's temporary folder for a test's own files. The process id keeps
// tests that ctest runs side by side (and other checkouts' runs) from writing one file.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace contactlab::testing {

inline std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("contactlab_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

}  // namespace contactlab::testing
