// The plot data model, tick computation, decimation and CSV export (no GL, no ImGui).
#include "ui/widgets/plot_data.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace contactlab {
namespace {

void Append(PlotData* d, double t, double a, double b) {
  const double row[] = {a, b};
  d->Append(t, row);
}

TEST(PlotData, AppendsAndReadsInOrder) {
  PlotData d({"a", "b"}, 4);
  EXPECT_EQ(d.size(), 0u);
  EXPECT_EQ(d.num_series(), 2u);
  Append(&d, 0.0, 1, 10);
  Append(&d, 0.1, 2, 20);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_DOUBLE_EQ(d.time(0), 0.0);
  EXPECT_DOUBLE_EQ(d.time(1), 0.1);
  EXPECT_DOUBLE_EQ(d.value(0, 1), 2);
  EXPECT_DOUBLE_EQ(d.value(1, 1), 20);
  EXPECT_DOUBLE_EQ(d.newest_time(), 0.1);
  EXPECT_DOUBLE_EQ(d.oldest_time(), 0.0);
}

TEST(PlotData, RingDropsOldestWhenFull) {
  PlotData d({"a", "b"}, 3);
  for (int i = 0; i < 7; ++i) Append(&d, i, i, -i);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d.capacity(), 3u);
  EXPECT_EQ(d.dropped(), 4u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(d.time(i), 4.0 + i);
    EXPECT_DOUBLE_EQ(d.value(0, i), 4.0 + i);
    EXPECT_DOUBLE_EQ(d.value(1, i), -(4.0 + i));
  }
}

TEST(PlotData, EarlierTimeClears) {
  PlotData d({"a", "b"}, 8);
  for (int i = 0; i < 5; ++i) Append(&d, i, i, i);
  Append(&d, 0.5, 7, 7);  // the simulation was reset
  ASSERT_EQ(d.size(), 1u);
  EXPECT_DOUBLE_EQ(d.time(0), 0.5);
  EXPECT_DOUBLE_EQ(d.value(0, 0), 7);
}

TEST(PlotData, MissingValuesAreNaN) {
  PlotData d({"a", "b"}, 2);
  const double row[] = {1.0};
  d.Append(0, row);
  EXPECT_TRUE(std::isnan(d.value(1, 0)));
}

TEST(PlotData, RangeAndValueAt) {
  PlotData d({"a", "b"}, 5);
  for (int i = 0; i < 8; ++i) Append(&d, 0.125 * i, i, 0);  // keeps t = 0.375 … 0.875
  auto [first, last] = d.Range(0.5, 0.75);
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(last, 4u);
  std::tie(first, last) = d.Range(-1, 10);
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(last, 5u);
  std::tie(first, last) = d.Range(2, 3);
  EXPECT_EQ(first, last);
  EXPECT_FALSE(d.ValueAt(0, 0.1).has_value());  // before the oldest retained row
  ASSERT_TRUE(d.ValueAt(0, 0.375).has_value());
  EXPECT_DOUBLE_EQ(*d.ValueAt(0, 0.375), 3);
  EXPECT_DOUBLE_EQ(*d.ValueAt(0, 0.7), 5);  // last row at or before t
  EXPECT_DOUBLE_EQ(*d.ValueAt(0, 100), 7);
}

TEST(PlotData, MinMaxIgnoresNonFinite) {
  PlotData d({"a", "b"}, 8);
  Append(&d, 0, 1, 5);
  Append(&d, 1, std::numeric_limits<double>::quiet_NaN(), -2);
  Append(&d, 2, 3, std::numeric_limits<double>::infinity());
  const int a[] = {0};
  const int both[] = {0, 1};
  auto mm = d.MinMax(a, 0, d.size());
  ASSERT_TRUE(mm);
  EXPECT_DOUBLE_EQ(mm->first, 1);
  EXPECT_DOUBLE_EQ(mm->second, 3);
  mm = d.MinMax(both, 0, d.size());
  EXPECT_DOUBLE_EQ(mm->first, -2);
  EXPECT_DOUBLE_EQ(mm->second, 5);
  EXPECT_FALSE(d.MinMax(a, 1, 1));
}

TEST(Ticks, NiceSteps) {
  EXPECT_DOUBLE_EQ(NiceStep(1.0, 11), 0.1);
  EXPECT_DOUBLE_EQ(NiceStep(1.0, 6), 0.2);
  EXPECT_DOUBLE_EQ(NiceStep(1.0, 3), 0.5);
  EXPECT_DOUBLE_EQ(NiceStep(7.0, 5), 2.0);
  EXPECT_DOUBLE_EQ(NiceStep(130.0, 5), 50.0);
  EXPECT_NEAR(NiceStep(3e-6, 4), 1e-6, 1e-20);
  EXPECT_DOUBLE_EQ(NiceStep(0.0, 5), 1.0);  // degenerate
}

TEST(Ticks, NiceTicksCoverRange) {
  const Ticks t = NiceTicks(-0.3, 1.7, 5);
  EXPECT_DOUBLE_EQ(t.step, 0.5);
  ASSERT_EQ(t.values.size(), 4u);
  EXPECT_DOUBLE_EQ(t.values[0], 0.0);
  EXPECT_DOUBLE_EQ(t.values[3], 1.5);
  for (double lo : {-123.4, 0.0, 1e-7, 5e5}) {
    for (double span : {1e-6, 0.37, 12.0, 3e4}) {
      for (int n : {2, 5, 8}) {
        const Ticks k = NiceTicks(lo, lo + span, n);
        // With n ≥ 4 the step is below the span, so some multiple lies inside.
        if (n >= 4) {
          ASSERT_FALSE(k.values.empty()) << lo << " " << span << " " << n;
        }
        EXPECT_LE(static_cast<int>(k.values.size()), n);
        for (size_t i = 0; i < k.values.size(); ++i) {
          EXPECT_GE(k.values[i], lo - 1e-9 * span);
          EXPECT_LE(k.values[i], lo + span + 1e-9 * span);
          // Multiples of the step.
          const double m = k.values[i] / k.step;
          EXPECT_NEAR(m, std::round(m), 1e-6);
          if (i > 0) {
            EXPECT_NEAR(k.values[i] - k.values[i - 1], k.step,
                        1e-9 * k.step + 1e-15 * std::abs(k.values[i]));
          }
        }
        // The mantissa of the step is 1, 2 or 5.
        const double mantissa = k.step / std::pow(10.0, std::floor(std::log10(k.step) + 1e-9));
        EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                    std::abs(mantissa - 5) < 1e-9)
            << k.step;
      }
    }
  }
}

TEST(Ticks, NoNegativeZeroAndDegenerateRanges) {
  const Ticks t = NiceTicks(-1, 1, 3);
  ASSERT_EQ(t.values.size(), 3u);
  EXPECT_FALSE(std::signbit(t.values[1]));
  EXPECT_EQ(FormatTick(t.values[1], t.step), "0");
  const Ticks single = NiceTicks(2.5, 2.5, 5);
  ASSERT_EQ(single.values.size(), 1u);
  EXPECT_TRUE(NiceTicks(1, 0, 5).values.empty());
  EXPECT_TRUE(NiceTicks(0, std::numeric_limits<double>::infinity(), 5).values.empty());
}

TEST(Ticks, Labels) {
  EXPECT_EQ(FormatTick(0.25, 0.05), "0.25");
  EXPECT_EQ(FormatTick(2.0, 0.5), "2.0");
  EXPECT_EQ(FormatTick(-3.0, 1.0), "-3");
  EXPECT_EQ(FormatTick(150.0, 50.0), "150");
  EXPECT_EQ(FormatTick(1e-12, 0.1), "0.0");  // rounding noise is zero
  EXPECT_EQ(FormatTick(2e-6, 1e-6), "2e-06");
  EXPECT_EQ(FormatTick(1.2e7, 2e5), "1.2e+07");
  EXPECT_EQ(FormatTick(1.24e7, 2e4), "1.24e+07");
}

TEST(Ticks, NiceRangeEnclosesData) {
  auto [lo, hi] = NiceRange(0.13, 0.87, 5);
  EXPECT_LE(lo, 0.13);
  EXPECT_GE(hi, 0.87);
  EXPECT_NEAR(lo / NiceStep(0.74, 5), std::round(lo / NiceStep(0.74, 5)), 1e-9);
  std::tie(lo, hi) = NiceRange(5, 5, 5);  // constant data
  EXPECT_LT(lo, 5);
  EXPECT_GT(hi, 5);
  std::tie(lo, hi) = NiceRange(0, 0, 5);
  EXPECT_LT(lo, 0);
  EXPECT_GT(hi, 0);
  std::tie(lo, hi) = NiceRange(0, 9.9, 5);
  EXPECT_DOUBLE_EQ(lo, 0);  // zero stays the edge
  EXPECT_GE(hi, 9.9);
}

TEST(Decimate, KeepsEverySampleWhenFew) {
  PlotData d({"a"}, 100);
  for (int i = 0; i < 10; ++i) {
    const double v[] = {double(i * i)};
    d.Append(i, v);
  }
  const auto points = Decimate(d, 0, 0, d.size(), 0, 9, 100);
  ASSERT_EQ(points.size(), 10u);
  EXPECT_DOUBLE_EQ(points[3].first, 3);
  EXPECT_DOUBLE_EQ(points[3].second, 9);
}

TEST(Decimate, MinMaxPerColumnPreservesPeaks) {
  PlotData d({"a"}, 10000);
  for (int i = 0; i < 10000; ++i) {
    const double v[] = {i == 4321 ? 100.0 : (i == 777 ? -50.0 : std::sin(i * 0.01))};
    d.Append(i * 1e-3, v);
  }
  const auto points = Decimate(d, 0, 0, d.size(), 0, 10, 50);
  EXPECT_LE(points.size(), 100u);
  double max = -1e9, min = 1e9;
  for (size_t i = 0; i < points.size(); ++i) {
    max = std::max(max, points[i].second);
    min = std::min(min, points[i].second);
    if (i > 0) {
      EXPECT_LE(points[i - 1].first, points[i].first);  // time order
    }
  }
  EXPECT_DOUBLE_EQ(max, 100.0);
  EXPECT_DOUBLE_EQ(min, -50.0);
  EXPECT_TRUE(Decimate(d, 3, 0, d.size(), 0, 10, 50).empty());  // no such series
}

TEST(Csv, HeaderAndRowsOfTheWindow) {
  PlotData d({"normal_force_N", "slip"}, 16);
  for (int i = 0; i < 6; ++i) Append(&d, 0.5 * i, 10.0 * i, 0.125 * i);
  EXPECT_EQ(PlotCsv(d, 1.0, 2.0),
            "t,normal_force_N,slip\n"
            "1,20,0.25\n"
            "1.5,30,0.375\n"
            "2,40,0.5\n");
  const int only_slip[] = {1};
  EXPECT_EQ(PlotCsv(d, 2.4, 2.6, only_slip), "t,slip\n2.5,0.625\n");
  EXPECT_EQ(PlotCsv(d, 10, 11), "t,normal_force_N,slip\n");
  const int bad[] = {5};
  EXPECT_THROW(PlotCsv(d, 0, 1, bad), std::out_of_range);
}

TEST(Csv, NineSignificantDigits) {
  PlotData d({"x", "y"}, 4);
  Append(&d, 0.001, 1.0 / 3.0, 12345678912.0);
  EXPECT_EQ(PlotCsv(d, 0, 1), "t,x,y\n0.001,0.333333333,1.23456789e+10\n");
}

TEST(Csv, WritesFileAndReportsFailure) {
  PlotData d({"a", "b"}, 4);
  Append(&d, 0, 1, 2);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("plot_" + std::to_string(::getpid()) + ".csv"))
          .string();
  WritePlotCsv(path, d, 0, 1);
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), "t,a,b\n0,1,2\n");
  std::filesystem::remove(path);
  try {
    WritePlotCsv("/nonexistent_dir_contactlab/x.csv", d, 0, 1);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent_dir_contactlab/x.csv"), std::string::npos);
  }
}

}  // namespace
}  // namespace contactlab
