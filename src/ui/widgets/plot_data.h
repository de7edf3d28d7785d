// The data model behind the live plots (plot_widget.h), free of GL and ImGui so that it can be
// unit-tested: a fixed-capacity ring of samples (one time axis, several named series), "nice"
// axis ticks, min/max decimation for drawing and CSV export of a time window.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace contactlab {

// Rows (t, v_0 … v_{n−1}) in a ring of fixed capacity: appending to a full ring drops the oldest
// row. Times are expected to be non-decreasing (Append of an earlier time clears the ring first:
// the simulation was reset or its scene replaced).
class PlotData {
 public:
  PlotData(std::vector<std::string> series_names, size_t capacity);

  // `values` has one entry per series.
  void Append(double t, std::span<const double> values);
  void Clear();

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  size_t num_series() const { return names_.size(); }
  const std::string& name(size_t series) const { return names_[series]; }
  // Rows dropped because the ring was full, since construction or Clear.
  size_t dropped() const { return dropped_; }

  // Row i, 0 the oldest.
  double time(size_t i) const { return times_[Physical(i)]; }
  double value(size_t series, size_t i) const {
    return values_[Physical(i) * names_.size() + series];
  }
  double newest_time() const { return size_ ? time(size_ - 1) : 0.0; }
  double oldest_time() const { return size_ ? time(0) : 0.0; }

  // Rows [first, last) whose time lies in [t0, t1] (binary search).
  std::pair<size_t, size_t> Range(double t0, double t1) const;
  // The value of a series at time t: the last row at or before t (std::nullopt before the
  // first row or when empty).
  std::optional<double> ValueAt(size_t series, double t) const;
  // Min and max of the given series over rows [first, last); std::nullopt if empty or all
  // non-finite.
  std::optional<std::pair<double, double>> MinMax(std::span<const int> series, size_t first,
                                                  size_t last) const;

 private:
  size_t Physical(size_t i) const { return (start_ + i) % capacity_; }
  std::vector<std::string> names_;
  size_t capacity_;
  size_t start_ = 0, size_ = 0, dropped_ = 0;
  std::vector<double> times_;
  std::vector<double> values_;  // capacity × num_series, row-major
};

// Axis ticks at "nice" numbers (multiples of 1, 2 or 5 × 10^k) inside [lo, hi], at most
// max_ticks of them (max_ticks ≥ 2).
struct Ticks {
  double step = 0;
  std::vector<double> values;  // ascending, all within [lo, hi]
};
Ticks NiceTicks(double lo, double hi, int max_ticks);
// The nice step used by NiceTicks: the smallest of {1, 2, 5} × 10^k ≥ span / (max_ticks − 1).
double NiceStep(double span, int max_ticks);
// A label for a tick value with just enough decimals for the step ("0.25", "1e+06", "-3").
std::string FormatTick(double value, double step);
// [lo, hi] grown to the enclosing multiples of the nice step (plus a margin), so that an
// auto-fitted axis does not jitter; a degenerate range is widened around its value.
std::pair<double, double> NiceRange(double lo, double hi, int max_ticks);

// Min/max decimation of one series over rows [first, last) into `columns` buckets of the time
// window [t0, t1]: returns (t, v) points in time order, at most two per bucket (its min and max
// in the order they occur), or every row when there are no more than 2 × columns of them.
std::vector<std::pair<double, double>> Decimate(const PlotData& data, int series, size_t first,
                                                size_t last, double t0, double t1, int columns);

// CSV of the rows in [t0, t1]: header `t,<series names>` (only the given series, in that order;
// all series when `series` is empty), one row per sample, values with 9 significant digits.
std::string PlotCsv(const PlotData& data, double t0, double t1, std::span<const int> series = {});
// Writes PlotCsv to a file; throws std::runtime_error naming the file if it can't be written.
void WritePlotCsv(const std::string& path, const PlotData& data, double t0, double t1,
                  std::span<const int> series = {});

}  // namespace contactlab
