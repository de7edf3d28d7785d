// A minimal streaming JSON writer for summaries (numbers, strings, booleans, nesting).
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "io/printable_text.h"

namespace contactlab {

class JsonWriter {
 public:
  JsonWriter& BeginObject(const std::string& key = "") {
    Key(key);
    out_ << '{';
    first_ = true;
    return *this;
  }
  JsonWriter& EndObject() {
    out_ << '}';
    first_ = false;
    return *this;
  }
  JsonWriter& Number(const std::string& key, double value) {
    Key(key);
    if (std::isfinite(value)) {
      out_.precision(12);
      out_ << value;
    } else {
      out_ << "null";  // JSON has no NaN/inf
    }
    return *this;
  }
  JsonWriter& Integer(const std::string& key, long long value) {
    Key(key);
    out_ << value;
    return *this;
  }
  JsonWriter& Bool(const std::string& key, bool value) {
    Key(key);
    out_ << (value ? "true" : "false");
    return *this;
  }
  JsonWriter& String(const std::string& key, const std::string& value) {
    Key(key);
    out_ << '"';
    // Names come from users' files: control characters and bytes that are not UTF-8 arrive
    // as \xNN text (Printable), so that the document stays valid UTF-8 JSON.
    for (char c : Printable(value, std::string::npos)) {
      if (c == '"' || c == '\\') out_ << '\\';
      out_ << c;
    }
    out_ << '"';
    return *this;
  }
  std::string str() const { return out_.str(); }

 private:
  void Key(const std::string& key) {
    if (!first_) out_ << ", ";
    first_ = false;
    if (!key.empty()) out_ << '"' << key << "\": ";
  }
  std::ostringstream out_;
  bool first_ = true;
};

}  // namespace contactlab
