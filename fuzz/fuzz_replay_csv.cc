// libFuzzer target: a teleoperation replay CSV → ParseTeleopCsv (errors are returned, never
// thrown); the error, if any, must be one printable line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "input/teleop_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const contactlab::TeleopCsvResult r = contactlab::ParseTeleopCsv(
      std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
  for (const char c : r.error) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7F) {
      std::abort();  // a control character (a newline, a raw byte) in the one-line message
    }
  }
  return 0;
}
