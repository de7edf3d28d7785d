// Line plots as a person sees them, from the PNG read back: the image's size, each series'
// colour in its own panel only, a sine drawn where the sine goes, lines broken at NaN, dashes,
// legend entries; the 1-2-5 ticks; bad plots and unwritable paths as errors.
#include "io/line_plot.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image.h>
#pragma GCC diagnostic pop

namespace contactlab {
namespace {

namespace fs = std::filesystem;
using Rgb = std::array<uint8_t, 3>;

constexpr Rgb kRed{220, 40, 30}, kBlue{30, 90, 200}, kGreen{20, 150, 60};

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;
  bool Is(int x, int y, Rgb c) const {
    const uint8_t* p = &rgb[3 * (static_cast<size_t>(y) * width + x)];
    return p[0] == c[0] && p[1] == c[1] && p[2] == c[2];
  }
};

fs::path TempPng(const std::string& name) {
  return fs::temp_directory_path() /
         ("contactlab_line_plot_" + std::to_string(::getpid()) + "_" + name + ".png");
}

// Writes the plot, reads it back and removes the file; CONTACTLAB_LINE_PLOT_DIR=/tmp/x keeps it
// there for a look.
Image Draw(const LinePlot& plot, const std::string& name) {
  const char* keep = std::getenv("CONTACTLAB_LINE_PLOT_DIR");
  const fs::path path = keep ? fs::path(keep) / (name + ".png") : TempPng(name);
  WriteLinePlotPng(plot, path.string());
  Image image;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 3);
  EXPECT_NE(data, nullptr) << path;
  if (data) image.rgb.assign(data, data + 3 * static_cast<size_t>(image.width) * image.height);
  stbi_image_free(data);
  if (!keep) fs::remove(path);
  return image;
}

PlotSeries Series(const std::string& label, Rgb rgb, double (*f)(double), int n, double x1) {
  PlotSeries s{label, rgb, {}, {}};
  for (int i = 0; i < n; ++i) {
    s.x.push_back(x1 * i / (n - 1));
    s.y.push_back(f(s.x.back()));
  }
  return s;
}

double Sine(double x) { return std::sin(x); }
double Ramp(double x) { return 3 * x - 2; }
double Flat(double) { return 0.25; }

int CountColour(const Image& image, Rgb c, int y0, int y1) {
  int count = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = 0; x < image.width; ++x) count += image.Is(x, y, c);
  }
  return count;
}

// The rows of the pixels of colour c in column x.
std::vector<int> RowsIn(const Image& image, Rgb c, int x) {
  std::vector<int> rows;
  for (int y = 0; y < image.height; ++y) {
    if (image.Is(x, y, c)) rows.push_back(y);
  }
  return rows;
}

// The runs of colour c along a row: [first, last] columns of each.
std::vector<std::pair<int, int>> RunsIn(const Image& image, Rgb c, int y) {
  std::vector<std::pair<int, int>> runs;
  for (int x = 0; x < image.width; ++x) {
    if (!image.Is(x, y, c)) continue;
    if (runs.empty() || runs.back().second != x - 1) runs.push_back({x, x});
    runs.back().second = x;
  }
  return runs;
}

// The row holding the most pixels of colour c: a flat series' curve.
int BusiestRow(const Image& image, Rgb c) {
  int best = 0, best_count = -1;
  for (int y = 0; y < image.height; ++y) {
    const int count = CountColour(image, c, y, y + 1);
    if (count > best_count) {
      best = y;
      best_count = count;
    }
  }
  return best;
}

TEST(LinePlot, TheImageHasTheRequestedSize) {
  LinePlot plot{"reference vs fitted, µm", {}, 900, 280};  // µ: two bytes drawn as '?'
  plot.panels.push_back({"before", "t [s]", "z [m]", {Series("a", kRed, Sine, 50, 6)}});
  plot.panels.push_back({"after", "t [s]", "z [m]", {Series("b", kBlue, Ramp, 50, 6)}});
  const Image titled = Draw(plot, "size_titled");
  EXPECT_EQ(titled.width, 900);
  EXPECT_EQ(titled.height, LinePlotHeightPx(plot));
  EXPECT_GT(titled.height, 2 * 280);  // a band for the title

  plot.title.clear();
  plot.width_px = 640;
  const Image untitled = Draw(plot, "size_untitled");
  EXPECT_EQ(untitled.width, 640);
  EXPECT_EQ(untitled.height, 2 * 280);
  EXPECT_EQ(LinePlotHeightPx(plot), 2 * 280);
}

TEST(LinePlot, EachSeriesColourIsInItsPanelOnly) {
  LinePlot plot;  // no title: panel k is rows [k * 320, (k + 1) * 320)
  plot.panels.push_back({"sine", "x", "y", {Series("sin", kRed, Sine, 200, 6)}});
  plot.panels.push_back({"ramp", "x", "y", {Series("ramp", kBlue, Ramp, 200, 6)}});
  plot.panels.push_back({"flat", "x", "y", {Series("flat", kGreen, Flat, 200, 6)}});
  const Image image = Draw(plot, "panels");
  ASSERT_EQ(image.height, 3 * plot.panel_height_px);
  const Rgb colours[] = {kRed, kBlue, kGreen};
  for (int panel = 0; panel < 3; ++panel) {
    const int y0 = panel * plot.panel_height_px, y1 = y0 + plot.panel_height_px;
    for (int k = 0; k < 3; ++k) {
      const int count = CountColour(image, colours[k], y0, y1);
      if (k == panel) {
        EXPECT_GT(count, 500) << "panel " << panel;  // a curve across the panel, 1-2 px thick
      } else {
        EXPECT_EQ(count, 0) << "colour " << k << " in panel " << panel;
      }
    }
  }
}

TEST(LinePlot, ASineIsDrawnWhereTheSineGoes) {
  const double two_pi = 2 * std::numbers::pi;
  LinePlot plot;
  plot.panels.push_back({"sine", "x [rad]", "sin x", {Series("", kRed, Sine, 400, two_pi)}});
  const Image image = Draw(plot, "sine");
  // The curve's extent maps x = 0 and 2π, y = 1 and -1 to pixels (to within a stroke's width).
  int left = image.width, right = -1, top = image.height, bottom = -1;
  for (int x = 0; x < image.width; ++x) {
    for (int y : RowsIn(image, kRed, x)) {
      left = std::min(left, x);
      right = std::max(right, x);
      top = std::min(top, y);
      bottom = std::max(bottom, y);
    }
  }
  ASSERT_GE(right, 0) << "no red pixel";
  EXPECT_GT(right - left, 0.8 * image.width);  // auto-ranged: a small margin only
  EXPECT_GT(bottom - top, 0.5 * plot.panel_height_px);
  for (double fraction : {0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9}) {
    const int x = left + static_cast<int>(std::lround(fraction * (right - left)));
    const std::vector<int> rows = RowsIn(image, kRed, x);
    ASSERT_FALSE(rows.empty()) << "column " << x;
    const double mean_row = (rows.front() + rows.back()) / 2.0;
    const double expected_row = top + (1 - std::sin(fraction * two_pi)) / 2 * (bottom - top);
    EXPECT_NEAR(mean_row, expected_row, 3) << "x = " << fraction << " × 2π";
  }
}

TEST(LinePlot, NanBreaksTheLineAndAFlatSeriesIsDrawn) {
  PlotSeries flat = Series("", kGreen, Flat, 101, 10);
  for (int i = 40; i <= 60; ++i) flat.y[i] = NAN;  // x in [4, 6]
  LinePlot plot;
  plot.panels.push_back({"gap", "x", "y", {flat}});
  const Image image = Draw(plot, "nan_gap");
  const std::vector<std::pair<int, int>> runs = RunsIn(image, kGreen, BusiestRow(image, kGreen));
  ASSERT_EQ(runs.size(), 2u);
  const double px_per_x = (runs[1].second - runs[0].first) / 10.0;
  EXPECT_NEAR(runs[1].first - runs[0].second, 2.2 * px_per_x, 4);  // from x = 3.9 to 6.1
}

TEST(LinePlot, ADashedSeriesHasGapsASolidOneNone) {
  PlotSeries dashed = Series("", kBlue, Flat, 50, 10), solid = Series("", kRed, Ramp, 50, 10);
  dashed.dashed = true;
  LinePlot plot;
  plot.panels.push_back({"dashes", "x", "y", {solid, dashed}});
  const Image image = Draw(plot, "dashed");
  const std::vector<std::pair<int, int>> dashes = RunsIn(image, kBlue, BusiestRow(image, kBlue));
  EXPECT_GT(dashes.size(), 30u);
  for (size_t i = 1; i < dashes.size(); ++i) {
    EXPECT_GE(dashes[i].first - dashes[i - 1].second, 3);  // the gaps show
  }
  PlotSeries solid_flat = Series("", kRed, Flat, 50, 10);
  plot.panels[0].series = {solid_flat};
  const Image solid_image = Draw(plot, "solid");
  EXPECT_EQ(RunsIn(solid_image, kRed, BusiestRow(solid_image, kRed)).size(), 1u);
}

TEST(LinePlot, TheLegendShowsEachLabelledSeries) {
  PlotSeries labelled = Series("fitted", kBlue, Flat, 20, 1);
  PlotSeries unlabelled = Series("", kRed, Flat, 20, 1);
  unlabelled.y.assign(20, -0.25);
  LinePlot plot;
  plot.panels.push_back({"legend", "x", "y", {labelled, unlabelled}});
  const Image image = Draw(plot, "legend");
  // A legend sample is a short stroke above the frame, the curves run across it.
  const int blue_row = BusiestRow(image, kBlue), red_row = BusiestRow(image, kRed);
  const int blue_above = CountColour(image, kBlue, 0, std::min(blue_row, red_row) - 10);
  EXPECT_GT(blue_above, 20);
  EXPECT_LT(blue_above, 200);
  EXPECT_EQ(CountColour(image, kRed, 0, std::min(blue_row, red_row) - 10), 0);
}

TEST(LinePlot, BadPlotsThrowInvalidArgumentAndWriteNothing) {
  const fs::path path = TempPng("bad");
  const auto throws = [&](const LinePlot& plot, const std::string& why) {
    EXPECT_THROW(WriteLinePlotPng(plot, path.string()), std::invalid_argument) << why;
    EXPECT_FALSE(fs::exists(path)) << why;
  };
  const PlotSeries good = Series("s", kRed, Sine, 10, 1);
  throws(LinePlot{}, "no panels");
  PlotSeries empty{"empty", kRed, {}, {}};
  throws(LinePlot{"", {{"p", "x", "y", {good, empty}}}}, "an empty series");
  PlotSeries mismatched = good;
  mismatched.y.pop_back();
  throws(LinePlot{"", {{"p", "x", "y", {mismatched}}}}, "9 y for 10 x");
  throws(LinePlot{"", {{"p", "x", "y", {good}}}, 120}, "too narrow");
  throws(LinePlot{"", {{"p", "x", "y", {good}}}, 1200, 90}, "too short for its axes");
  throws(LinePlot{"", {{"p", "x", "y", {good}}}, 1200, 0}, "no height");
}

TEST(LinePlot, AnUnwritablePathThrowsOneLineNamingIt) {
  LinePlot plot;
  plot.panels.push_back({"p", "x", "y", {Series("s", kRed, Sine, 10, 1)}});
  const std::string path = "/nonexistent-contactlab-dir/plot.png";
  try {
    WriteLinePlotPng(plot, path);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(LinePlotTicks, StepsAreOneTwoOrFiveTimesAPowerOfTenAndFitTheCount) {
  EXPECT_EQ(LinePlotTicks(0, 10, 6).values, (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(LinePlotTicks(-0.13, 1.07, 5).step, 0.5);
  EXPECT_EQ(LinePlotTicks(-0.13, 1.07, 5).values, (std::vector<double>{0, 0.5, 1}));
  std::mt19937 random(7);
  std::uniform_real_distribution<double> exponent(-8, 8), unit(-1, 1);
  for (int i = 0; i < 2000; ++i) {  // ranges of 10^-8 to 10^8, off zero by up to 10 × theirs
    const double width = std::pow(10, exponent(random)), lo = 10 * width * unit(random);
    const double hi = lo + width;
    const int max_ticks = 4 + i % 12;
    const AxisTicks ticks = LinePlotTicks(lo, hi, max_ticks);
    const double mantissa = ticks.step / std::pow(10, std::floor(std::log10(ticks.step) + 1e-9));
    EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                std::abs(mantissa - 5) < 1e-9)
        << ticks.step;
    ASSERT_GE(ticks.values.size(), 1u) << lo << " " << hi;
    EXPECT_LE(static_cast<int>(ticks.values.size()), max_ticks) << lo << " " << hi;
    EXPECT_GE(ticks.values.front(), lo - 1e-9 * ticks.step);
    EXPECT_LE(ticks.values.back(), hi + 1e-9 * ticks.step);
    // The next smaller nice step (5 → 2, 2 → 1, 1 → 0.5) would give too many.
    const double smaller = ticks.step * (std::abs(mantissa - 2) < 1e-9 ? 0.5 : 0.4) *
                           (std::abs(mantissa - 1) < 1e-9 ? 1.25 : 1);
    EXPECT_GT(std::floor(hi / smaller + 1e-9) - std::ceil(lo / smaller - 1e-9) + 1, max_ticks)
        << lo << " " << hi << " step " << ticks.step;
  }
  EXPECT_THROW(LinePlotTicks(1, 1, 5), std::invalid_argument);
  EXPECT_THROW(LinePlotTicks(0, NAN, 5), std::invalid_argument);
}

}  // namespace
}  // namespace contactlab
