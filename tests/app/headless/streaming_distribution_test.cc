// The summary's bounded statistics: exact while short, within the stated relative error after.
#include "app/headless/streaming_distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace contactlab {
namespace {

double ExactQuantile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(std::llround(p * (v.size() - 1)))];
}

TEST(StreamingDistribution, EmptyIsZero) {
  StreamingDistribution d;
  EXPECT_EQ(d.Quantile(0.5), 0.0);
  EXPECT_EQ(d.Mean(), 0.0);
  EXPECT_EQ(d.Max(), 0.0);
}

TEST(StreamingDistribution, ExactWhileShort) {
  std::mt19937_64 rng(3);
  std::exponential_distribution<double> exp(1.0);
  std::vector<double> v;
  StreamingDistribution d;
  for (int i = 0; i < 1001; ++i) {
    v.push_back(exp(rng));
    d.Add(v.back());
  }
  for (double p : {0.0, 0.5, 0.99, 1.0}) EXPECT_EQ(d.Quantile(p), ExactQuantile(v, p)) << p;
  EXPECT_EQ(d.Max(), *std::max_element(v.begin(), v.end()));
}

// Past kExactSamples: log-normal step times over six decades and small integers (iteration
// counts, with zeros) keep their quantiles within kRelativeError; mean, max, count stay exact.
TEST(StreamingDistribution, LongRunsKeepTheStatedRelativeError) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> step_ms(std::log(0.05), 1.5);
  std::uniform_int_distribution<int> iterations(0, 12);
  for (bool integers : {false, true}) {
    std::vector<double> v;
    StreamingDistribution d;
    double sum = 0;
    const int n = 3 * StreamingDistribution::kExactSamples + 17;
    for (int i = 0; i < n; ++i) {
      v.push_back(integers ? iterations(rng) : step_ms(rng));
      sum += v.back();
      d.Add(v.back());
    }
    EXPECT_EQ(d.count(), n);
    EXPECT_NEAR(d.Mean(), sum / n, 1e-12 * sum / n);
    EXPECT_EQ(d.Max(), *std::max_element(v.begin(), v.end()));
    for (double p : {0.01, 0.5, 0.9, 0.99, 1.0}) {
      const double exact = ExactQuantile(v, p);
      EXPECT_NEAR(d.Quantile(p), exact, StreamingDistribution::kRelativeError * exact)
          << "p = " << p << (integers ? " (integers)" : "");
    }
  }
}

}  // namespace
}  // namespace contactlab
