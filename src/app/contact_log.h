// `--log-contacts FILE.csv`: one row per contact per step, with the diagnostics of the convex
// approximation (docs/architecture.md §7, docs/contact-model.md §2.5).
#pragma once

#include <string>

#include "app/csv_file.h"
#include "engine/world/world.h"

namespace contactlab {

class ContactLog {
 public:
  // Writes the header. Throws std::runtime_error if the file cannot be written.
  explicit ContactLog(const std::string& path);
  // Appends the contacts of the world's last step.
  void Write(const World& world);

 private:
  CsvFile file_;
};

// "stick" | "slip" | "separating" | "margin".
const char* ContactStateName(ContactResult::State state);

}  // namespace contactlab
