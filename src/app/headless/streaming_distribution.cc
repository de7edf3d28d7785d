#include "app/headless/streaming_distribution.h"

#include <algorithm>
#include <cmath>

namespace contactlab {

namespace {
// Bin k ≥ 1 holds [kSmallest r^(k−1), kSmallest r^k) with r = (1 + e) / (1 − e): its geometric
// midpoint is within the relative error e of every value in it.
const double kLogRatio = std::log((1 + StreamingDistribution::kRelativeError) /
                                  (1 - StreamingDistribution::kRelativeError));
const int kBins =
    2 +
    static_cast<int>(std::ceil(
        std::log(StreamingDistribution::kLargest / StreamingDistribution::kSmallest) / kLogRatio));
}  // namespace

StreamingDistribution::StreamingDistribution() : bins_(kBins, 0) { exact_.reserve(kExactSamples); }

int StreamingDistribution::Bin(double value) {
  if (!(value >= kSmallest)) return 0;
  const int k = 1 + static_cast<int>(std::log(value / kSmallest) / kLogRatio);
  return std::min(k, kBins - 1);
}

void StreamingDistribution::Add(double value) {
  value = std::max(value, 0.0);
  ++count_;
  sum_ += value;
  max_ = std::max(max_, value);
  if (!histogram_ && exact_.size() < static_cast<size_t>(kExactSamples)) {
    exact_.push_back(value);
    return;
  }
  if (!histogram_) MoveSamplesToHistogram();
  ++bins_[Bin(value)];
}

void StreamingDistribution::MoveSamplesToHistogram() {
  for (double v : exact_) ++bins_[Bin(v)];
  std::vector<double>().swap(exact_);  // its memory is the histogram's budget from now on
  histogram_ = true;
}

double StreamingDistribution::Quantile(double p) const {
  if (count_ == 0) return 0.0;
  const int64_t rank =
      std::min(count_ - 1, static_cast<int64_t>(std::llround(p * static_cast<double>(count_ - 1))));
  if (!histogram_) {
    sort_scratch_.assign(exact_.begin(), exact_.end());
    std::nth_element(sort_scratch_.begin(), sort_scratch_.begin() + rank, sort_scratch_.end());
    return sort_scratch_[static_cast<size_t>(rank)];
  }
  int64_t seen = 0;
  for (int k = 0; k < kBins; ++k) {
    seen += bins_[k];
    if (seen > rank) {
      if (k == 0) return 0.0;
      const double midpoint = kSmallest * std::exp((k - 0.5) * kLogRatio);
      return std::min(midpoint, max_);
    }
  }
  return max_;
}

}  // namespace contactlab
