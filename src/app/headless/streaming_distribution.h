// The summary's per-step statistics (mean, median, p99, max) in bounded memory, so that a run of
// any length keeps a flat footprint (docs/architecture.md, Summary JSON).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace contactlab {

// Count, sum and maximum exactly; quantiles exactly while at most kExactSamples values have been
// added (every run shorter than about a minute of 1 ms steps), then from a fixed log-spaced
// histogram with a relative error of at most kRelativeError (values below kSmallest count as
// zero). Memory: kExactSamples + kBins numbers, allocated at construction; Add never allocates.
class StreamingDistribution {
 public:
  static constexpr int kExactSamples = 1 << 16;
  static constexpr double kRelativeError = 0.005;
  static constexpr double kSmallest = 1e-9, kLargest = 1e12;

  StreamingDistribution();

  void Add(double value);  // values < 0 count as 0 (all the summary's quantities are ≥ 0)
  int64_t count() const { return count_; }
  double Mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
  double Max() const { return max_; }
  // The value of rank round(p (n − 1)) in sorted order (0 for no values), p in [0, 1].
  double Quantile(double p) const;

 private:
  static int Bin(double value);
  void MoveSamplesToHistogram();

  int64_t count_ = 0;
  double sum_ = 0.0, max_ = 0.0;
  std::vector<double> exact_;  // the first kExactSamples values, until the histogram takes over
  bool histogram_ = false;
  std::vector<int64_t> bins_;                 // bins_[0]: values < kSmallest; then log-spaced bins
  mutable std::vector<double> sort_scratch_;  // Quantile's, while exact (the summary's, once)
};

}  // namespace contactlab
