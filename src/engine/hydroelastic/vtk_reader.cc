#include "engine/hydroelastic/vtk_reader.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace contactlab::hydroelastic {
namespace {

// Whitespace tokenizer that remembers the line of each token for error messages.
class Tokens {
 public:
  Tokens(const std::string& text, std::string name) : name_(std::move(name)) {
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      std::istringstream words(line);
      std::string w;
      while (words >> w) tokens_.emplace_back(std::move(w), number);
    }
    last_line_ = number;
  }
  bool done() const { return pos_ >= tokens_.size(); }
  // Line of the next token (the last line at the end of the file).
  int line() const { return done() ? last_line_ : tokens_[pos_].second; }
  // Reports the line of the token just read (the one found wrong), or the last line at EOF.
  [[noreturn]] void Fail(const std::string& what) const {
    const int l = pos_ == 0 ? 1 : tokens_[std::min(pos_, tokens_.size()) - 1].second;
    throw std::runtime_error(name_ + ":" + std::to_string(l) + ": " + what);
  }
  std::string Next(const char* what) {
    if (done()) {
      throw std::runtime_error(name_ + ":" + std::to_string(last_line_) +
                               ": unexpected end of file, expected " + what);
    }
    return tokens_[pos_++].first;
  }
  std::string Peek() const { return done() ? std::string() : tokens_[pos_].first; }
  long long Int(const char* what) {
    const std::string s = Next(what);
    try {
      size_t used = 0;
      const long long v = std::stoll(s, &used);
      if (used == s.size()) return v;
    } catch (const std::exception&) {
    }
    Fail(std::string("expected an integer (") + what + "), got '" + s + "'");
  }
  double Real(const char* what) {
    const std::string s = Next(what);
    try {
      size_t used = 0;
      const double v = std::stod(s, &used);
      if (used == s.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    Fail(std::string("expected a finite number (") + what + "), got '" + s + "'");
  }
  // Skips the rest of the current token's line.
  void SkipLine() {
    const int l = line();
    while (!done() && tokens_[pos_].second == l) ++pos_;
  }
  // Skips to the next line and returns whether the last skipped token ended the section.
  void SkipToLineAfter(int l) {
    while (!done() && tokens_[pos_].second <= l) ++pos_;
  }

 private:
  std::string name_;
  std::vector<std::pair<std::string, int>> tokens_;
  size_t pos_ = 0;
  int last_line_ = 0;
};

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

// One parser, section by section in file order (header, POINTS, CELLS, CELL_TYPES), each
// check next to the field it reads.
VtkVolumeMesh ParseVtkVolumeMesh(const std::string& text, const std::string& name) {
  // Header: the version line, a free title line, ASCII, DATASET UNSTRUCTURED_GRID.
  std::istringstream in(text);
  std::string version, title;
  std::getline(in, version);
  if (version.rfind("# vtk DataFile", 0) != 0) {
    throw std::runtime_error(name +
                             ":1: not a VTK legacy file (expected '# vtk DataFile "
                             "Version ...')");
  }
  std::getline(in, title);
  std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Re-tokenize the remainder with its true line numbers (two header lines skipped).
  Tokens tok("\n\n" + rest, name);
  if (Upper(tok.Next("ASCII")) != "ASCII") tok.Fail("only ASCII VTK files are supported");
  if (Upper(tok.Next("DATASET")) != "DATASET") tok.Fail("expected DATASET");
  if (Upper(tok.Next("UNSTRUCTURED_GRID")) != "UNSTRUCTURED_GRID") {
    tok.Fail("expected DATASET UNSTRUCTURED_GRID");
  }
  VtkVolumeMesh out;
  long long num_cells = -1;
  bool have_types = false;
  // A count is checked against the text left before anything is sized by it: a point takes at
  // least 6 characters ("0 0 0\n"), a cell 10 ("4 0 1 2 3\n"). (Found by fuzz_vtk.)
  const auto check_count = [&](long long n, long long min_chars, const char* what) {
    if (n > static_cast<long long>(rest.size()) / min_chars) {
      tok.Fail(std::string(what) + " count " + std::to_string(n) + " exceeds what the file holds");
    }
  };
  std::set<std::string> sections_seen;
  while (!tok.done()) {
    const int section_line = tok.line();
    const std::string key = Upper(tok.Next("a section keyword"));
    // A second POINTS section would leave the cells' indices checked against the first.
    if ((key == "POINTS" || key == "CELLS" || key == "CELL_TYPES" || key == "POINT_DATA") &&
        !sections_seen.insert(key).second) {
      tok.Fail(key + " given twice");
    }
    if (key == "POINTS") {
      const long long n = tok.Int("number of points");
      if (n <= 0) tok.Fail("POINTS count must be positive");
      check_count(n, 6, "POINTS");
      tok.Next("point data type");
      out.mesh.vertices_m.resize(n);
      for (long long i = 0; i < n; ++i) {
        for (int k = 0; k < 3; ++k) out.mesh.vertices_m[i][k] = tok.Real("point coordinate");
      }
    } else if (key == "CELLS") {
      if (out.mesh.vertices_m.empty()) tok.Fail("CELLS before POINTS");
      num_cells = tok.Int("number of cells");
      const long long size = tok.Int("cell list size");
      if (num_cells <= 0) tok.Fail("CELLS count must be positive");
      check_count(num_cells, 10, "CELLS");  // before 5 × num_cells can overflow
      if (size != 5 * num_cells) {
        tok.Fail("CELLS: only tetrahedra are supported (list size must be 5 × cell count)");
      }
      out.mesh.tets.resize(num_cells);
      for (long long c = 0; c < num_cells; ++c) {
        if (tok.Int("cell vertex count") != 4) tok.Fail("cell is not a tetrahedron (4 vertices)");
        for (int k = 0; k < 4; ++k) {
          const long long v = tok.Int("cell vertex index");
          if (v < 0 || v >= static_cast<long long>(out.mesh.vertices_m.size())) {
            tok.Fail("vertex index " + std::to_string(v) + " out of range");
          }
          out.mesh.tets[c][k] = static_cast<int>(v);
        }
      }
    } else if (key == "CELL_TYPES") {
      const long long n = tok.Int("number of cell types");
      if (n != num_cells) tok.Fail("CELL_TYPES count differs from CELLS count");
      for (long long c = 0; c < n; ++c) {
        const long long type = tok.Int("cell type");
        if (type != 10)
          tok.Fail("cell type " + std::to_string(type) + " is not a tetrahedron (10)");
      }
      have_types = true;
    } else if (key == "POINT_DATA") {
      const long long n = tok.Int("number of point data");
      if (n != static_cast<long long>(out.mesh.vertices_m.size())) {
        tok.Fail("POINT_DATA count differs from POINTS count");
      }
      if (Upper(tok.Peek()) == "SCALARS" && !out.point_pressure_Pa) {
        tok.Next("SCALARS");
        const int scalars_line = tok.line();
        out.scalar_name = tok.Next("scalar name");
        tok.Next("scalar type");
        tok.SkipToLineAfter(scalars_line);  // optional component count
        if (Upper(tok.Peek()) == "LOOKUP_TABLE") {
          tok.Next("LOOKUP_TABLE");
          tok.Next("table name");
        }
        std::vector<double> p(n);
        for (long long i = 0; i < n; ++i) {
          p[i] = tok.Real("pressure value");
          if (p[i] < 0.0) tok.Fail("negative pressure");
        }
        out.point_pressure_Pa = std::move(p);
      }
    } else {
      // Unknown or unused section: skip its keyword line; its data lines are skipped until the
      // next recognised keyword.
      spdlog::debug("{}:{}: skipping VTK section {}", name, section_line, key);
      tok.SkipToLineAfter(section_line);
      while (!tok.done()) {
        const std::string k = Upper(tok.Peek());
        if (k == "POINTS" || k == "CELLS" || k == "CELL_TYPES" || k == "POINT_DATA") break;
        tok.SkipLine();
      }
    }
  }
  if (out.mesh.vertices_m.empty()) tok.Fail("no POINTS section");
  if (out.mesh.tets.empty()) tok.Fail("no CELLS section");
  if (!have_types) tok.Fail("no CELL_TYPES section");
  // Orient every tet positively (tetgen's convention differs from ours); reject flat ones.
  for (size_t t = 0; t < out.mesh.tets.size(); ++t) {
    const double v = out.mesh.TetVolume(static_cast<int>(t));
    if (v < 0.0) std::swap(out.mesh.tets[t][2], out.mesh.tets[t][3]);
    if (v == 0.0) {
      throw std::runtime_error(name + ": tetrahedron " + std::to_string(t) + " has zero volume");
    }
  }
  return out;
}

CompliantGeometry MakeCompliantGeometry(VtkVolumeMesh vtk, double hydroelastic_modulus_Pa) {
  PressureField field = vtk.point_pressure_Pa
                            ? PressureField::FromPressure(std::move(*vtk.point_pressure_Pa))
                            : PressureField::FromEpsilon(EpsilonFromBoundaryDistance(vtk.mesh),
                                                         hydroelastic_modulus_Pa);
  return CompliantGeometry::Create(std::move(vtk.mesh), std::move(field));
}

VtkVolumeMesh ReadVtkVolumeMesh(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path + ": cannot open file");
  std::stringstream buffer;
  buffer << file.rdbuf();
  return ParseVtkVolumeMesh(buffer.str(), path);
}

}  // namespace contactlab::hydroelastic
