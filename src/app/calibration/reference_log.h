// A recorded trajectory to fit a scene to (`contactlab calibrate --reference`): a CSV in the
// per-step log's format (docs/architecture.md §7: a `t` column, then `<body>.px`, `.py`, `.pz`
// of floating bodies and `<body>.q` of jointed ones, among others). Any subset of columns may be
// present; columns the calibration does not use are ignored.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace contactlab {

struct ReferenceLog {
  std::string source;                // the file, for messages
  std::vector<double> time_s;        // the `t` column: each row's end-of-step time
  std::vector<std::string> columns;  // every column's header, `t` included
  Eigen::MatrixXd values;            // rows × columns
  // The column's index, or −1.
  int Column(const std::string& name) const;
};

// Reads the CSV. Throws std::invalid_argument with one line naming the file (and the line) for a
// missing file, no `t` column, a row of another width, a non-number, times that do not
// increase, or no rows.
ReferenceLog ReadReferenceLog(const std::string& path);

}  // namespace contactlab
