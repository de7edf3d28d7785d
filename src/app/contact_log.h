// `--log-contacts FILE.csv`: one row per contact per step, with the diagnostics of the convex
// approximation (docs/architecture.md §7, docs/contact-model.md §2.5).
#pragma once

#include <spdlog/fmt/fmt.h>

#include <cstdio>
#include <memory>
#include <string>

#include "engine/world/world.h"

namespace contactlab {

class ContactLog {
 public:
  // Writes the header. Throws std::runtime_error if the file cannot be written.
  explicit ContactLog(const std::string& path);
  // Appends the contacts of the world's last step.
  void Write(const World& world);

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> file_;
  fmt::memory_buffer line_;  // reused: no allocation per row once warm
};

// "stick" | "slip" | "separating" | "margin".
const char* ContactStateName(ContactResult::State state);

}  // namespace contactlab
