// `--log-contacts FILE.csv`: one row per contact per step, with the diagnostics of the convex
// approximation (docs/architecture.md §7, docs/contact-model.md §2.5). The GUI's export of the
// shown step's contacts writes the same columns (WriteContactsCsv).
#pragma once

#include <string>
#include <vector>

#include "app/headless/csv_file.h"
#include "engine/world/world.h"

namespace contactlab {

// The header line of a contact CSV (no newline).
extern const char kContactCsvHeader[];

// Appends one contact's row (no newline) at time t_s; `bodies` names the contact's bodies.
void AppendContactRow(double t_s, const std::vector<SceneBody>& bodies, const ContactResult& c,
                      fmt::memory_buffer* row);

class ContactLog {
 public:
  // Writes the header. Throws std::runtime_error if the file cannot be written.
  explicit ContactLog(const std::string& path);
  // Appends the contacts of the world's last step.
  void Write(const World& world);

 private:
  CsvFile file_;
};

// Writes one step's contacts (header and a row each) to `path`. Throws std::runtime_error
// "PATH: cannot open the contact export for writing".
void WriteContactsCsv(const std::string& path, double t_s, const std::vector<SceneBody>& bodies,
                      const std::vector<ContactResult>& contacts);

// "stick" | "slip" | "separating" | "margin".
const char* ContactStateName(ContactResult::State state);

}  // namespace contactlab
