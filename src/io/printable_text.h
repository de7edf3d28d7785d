// Text from a user's file, made fit for a one-line message: a corrupted file's bytes must not
// reach the terminal or a JSON string raw.
#pragma once

#include <string>
#include <string_view>

namespace contactlab {

// Printable ASCII and valid UTF-8 sequences as they are; control characters, other bytes and
// invalid UTF-8 as \xNN; cut after max_chars with "…".
std::string Printable(std::string_view text, size_t max_chars = 60);

}  // namespace contactlab
