#include "ui/widgets/plot_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace contactlab {

PlotData::PlotData(std::vector<std::string> series_names, size_t capacity)
    : names_(std::move(series_names)),
      capacity_(std::max<size_t>(capacity, 1)),
      times_(capacity_),
      values_(capacity_ * names_.size()) {}

void PlotData::Append(double t, std::span<const double> values) {
  if (size_ > 0 && t < newest_time()) Clear();
  size_t row;
  if (size_ < capacity_) {
    row = Physical(size_);
    ++size_;
  } else {
    row = start_;
    start_ = (start_ + 1) % capacity_;
    ++dropped_;
  }
  times_[row] = t;
  const size_t n = names_.size();
  for (size_t s = 0; s < n; ++s) {
    values_[row * n + s] = s < values.size() ? values[s] : std::numeric_limits<double>::quiet_NaN();
  }
}

void PlotData::Clear() {
  start_ = 0;
  size_ = 0;
  dropped_ = 0;
}

std::pair<size_t, size_t> PlotData::Range(double t0, double t1) const {
  // First row with time ≥ t0, first row with time > t1.
  auto lower = [&](double t, bool inclusive) {
    size_t lo = 0, hi = size_;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      const double tm = time(mid);
      if (inclusive ? tm < t : tm <= t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  };
  const size_t first = lower(t0, true);
  const size_t last = std::max(first, lower(t1, false));
  return {first, last};
}

std::optional<double> PlotData::ValueAt(size_t series, double t) const {
  if (size_ == 0 || series >= names_.size()) return std::nullopt;
  const size_t after = Range(-std::numeric_limits<double>::infinity(), t).second;
  if (after == 0) return std::nullopt;
  return value(series, after - 1);
}

std::optional<std::pair<double, double>> PlotData::MinMax(std::span<const int> series, size_t first,
                                                          size_t last) const {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  last = std::min(last, size_);
  for (const int s : series) {
    if (s < 0 || static_cast<size_t>(s) >= names_.size()) continue;
    for (size_t i = first; i < last; ++i) {
      const double v = value(s, i);
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (lo > hi) return std::nullopt;
  return std::make_pair(lo, hi);
}

double NiceStep(double span, int max_ticks) {
  max_ticks = std::max(max_ticks, 2);
  if (!(span > 0) || !std::isfinite(span)) return 1.0;
  const double raw = span / (max_ticks - 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    // A relative tolerance so that e.g. span 1, 11 ticks gives exactly 0.1.
    if (m * magnitude >= raw * (1 - 1e-9)) return m * magnitude;
  }
  return 10 * magnitude;
}

Ticks NiceTicks(double lo, double hi, int max_ticks) {
  Ticks ticks;
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo) return ticks;
  if (hi == lo) {
    ticks.step = NiceStep(std::max(std::abs(lo), 1.0), max_ticks);
    ticks.values.push_back(lo);
    return ticks;
  }
  ticks.step = NiceStep(hi - lo, max_ticks);
  const double eps = ticks.step * 1e-9;
  const double first = std::ceil((lo - eps) / ticks.step);
  for (double k = first;; k += 1) {
    double v = k * ticks.step;
    if (v > hi + eps) break;
    if (std::abs(v) < eps) v = 0.0;  // no "-0"
    ticks.values.push_back(v);
    if (ticks.values.size() > 1000) break;  // defensive
  }
  return ticks;
}

std::string FormatTick(double value, double step) {
  char buf[64];
  if (std::abs(value) < std::abs(step) * 1e-9) value = 0.0;
  const double mag = std::max(std::abs(value), std::abs(step));
  if (step > 0 && step >= 1e-4 && mag < 1e6) {
    const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  } else {
    // Scientific: as many significant digits as the step resolves.
    const int digits = step > 0 && value != 0
                           ? static_cast<int>(std::floor(std::log10(std::abs(value))) -
                                              std::floor(std::log10(step) + 1e-9)) +
                                 1
                           : 1;
    std::snprintf(buf, sizeof buf, "%.*g", std::clamp(digits, 1, 12), value);
  }
  return buf;
}

std::pair<double, double> NiceRange(double lo, double hi, int max_ticks) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0.0, 1.0};
  if (hi < lo) std::swap(lo, hi);
  if (hi - lo <= std::max(std::abs(lo), std::abs(hi)) * 1e-12) {
    const double half = lo == 0 ? 1.0 : std::abs(lo) * 0.5;
    lo -= half;
    hi += half;
  }
  const double step = NiceStep(hi - lo, max_ticks);
  double nlo = std::floor(lo / step) * step;
  double nhi = std::ceil(hi / step) * step;
  // Keep data off the frame: grow by a step when the data touches an edge (except at 0).
  if (lo - nlo < step * 0.02 && nlo != 0) nlo -= step;
  if (nhi - hi < step * 0.02 && nhi != 0) nhi += step;
  return {nlo, nhi};
}

std::vector<std::pair<double, double>> Decimate(const PlotData& data, int series, size_t first,
                                                size_t last, double t0, double t1, int columns) {
  std::vector<std::pair<double, double>> out;
  last = std::min(last, data.size());
  if (first >= last || series < 0 || static_cast<size_t>(series) >= data.num_series()) return out;
  columns = std::max(columns, 1);
  if (last - first <= 2 * static_cast<size_t>(columns) || !(t1 > t0)) {
    out.reserve(last - first);
    for (size_t i = first; i < last; ++i) out.emplace_back(data.time(i), data.value(series, i));
    return out;
  }
  out.reserve(2 * columns + 2);
  const double width = (t1 - t0) / columns;
  size_t i = first;
  while (i < last) {
    const int column =
        std::clamp(static_cast<int>(std::floor((data.time(i) - t0) / width)), 0, columns - 1);
    size_t min_i = i, max_i = i;
    size_t j = i + 1;
    for (; j < last; ++j) {
      const int c =
          std::clamp(static_cast<int>(std::floor((data.time(j) - t0) / width)), 0, columns - 1);
      if (c != column) break;
      if (data.value(series, j) < data.value(series, min_i)) min_i = j;
      if (data.value(series, j) > data.value(series, max_i)) max_i = j;
    }
    const size_t a = std::min(min_i, max_i), b = std::max(min_i, max_i);
    out.emplace_back(data.time(a), data.value(series, a));
    if (b != a) out.emplace_back(data.time(b), data.value(series, b));
    i = j;
  }
  return out;
}

namespace {
void AppendNumber(std::string* out, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  *out += buf;
}
}  // namespace

std::string PlotCsv(const PlotData& data, double t0, double t1, std::span<const int> series) {
  std::vector<int> columns(series.begin(), series.end());
  if (columns.empty()) {
    for (size_t s = 0; s < data.num_series(); ++s) columns.push_back(static_cast<int>(s));
  }
  std::string out = "t";
  for (const int s : columns) {
    if (s < 0 || static_cast<size_t>(s) >= data.num_series()) {
      throw std::out_of_range("PlotCsv: no series " + std::to_string(s));
    }
    out += ',';
    out += data.name(s);
  }
  out += '\n';
  const auto [first, last] = data.Range(t0, t1);
  for (size_t i = first; i < last; ++i) {
    AppendNumber(&out, data.time(i));
    for (const int s : columns) {
      out += ',';
      AppendNumber(&out, data.value(s, i));
    }
    out += '\n';
  }
  return out;
}

void WritePlotCsv(const std::string& path, const PlotData& data, double t0, double t1,
                  std::span<const int> series) {
  const std::string text = PlotCsv(data, t0, t1, series);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error("cannot write the plot CSV '" + path + "'");
  file << text;
  file.close();
  if (!file) throw std::runtime_error("cannot write the plot CSV '" + path + "'");
}

}  // namespace contactlab
