// SimplifyPolyline: every dropped point lies within the tolerance of the drawn polyline, the
// ends stay, and straight or flat runs collapse to their ends. PlotTimeWindow: the window the
// plots show, live, paused or at the timeline's step.
#include "ui/widgets/plot_widget.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace contactlab {
namespace {

float DistanceToSegment(const ImVec2& p, const ImVec2& a, const ImVec2& b) {
  const float abx = b.x - a.x, aby = b.y - a.y;
  const float length2 = abx * abx + aby * aby;
  float t = length2 > 0 ? ((p.x - a.x) * abx + (p.y - a.y) * aby) / length2 : 0.0f;
  t = std::clamp(t, 0.0f, 1.0f);
  return std::hypot(p.x - (a.x + t * abx), p.y - (a.y + t * aby));
}

// Distance from p to the simplified polyline's segment spanning p's x (x is not decreasing).
float DistanceToPolyline(const ImVec2& p, const std::vector<ImVec2>& line) {
  float best = INFINITY;
  for (size_t k = 0; k + 1 < line.size(); ++k) {
    if (p.x >= line[k].x - 1e-4f && p.x <= line[k + 1].x + 1e-4f) {
      best = std::min(best, DistanceToSegment(p, line[k], line[k + 1]));
    }
  }
  return best;
}

TEST(SimplifyPolyline, StraightAndFlatRunsCollapseToTheirEnds) {
  std::vector<ImVec2> line;
  for (int i = 0; i <= 1000; ++i) line.emplace_back(0.5f * i, 100.0f + 0.3f * i);
  SimplifyPolyline(&line, 0.25f);
  ASSERT_EQ(line.size(), 2u);
  EXPECT_EQ(line.front().x, 0.0f);
  EXPECT_EQ(line.back().x, 500.0f);

  // A step: flat, a jump within one column, flat — its two corners stay.
  std::vector<ImVec2> step;
  for (int i = 0; i < 200; ++i) step.emplace_back(float(i), i < 100 ? 50.0f : 10.0f);
  SimplifyPolyline(&step, 0.25f);
  ASSERT_EQ(step.size(), 4u);
  EXPECT_EQ(step[1].x, 99.0f);
  EXPECT_EQ(step[2].x, 100.0f);
  EXPECT_EQ(step[2].y, 10.0f);
}

TEST(SimplifyPolyline, EveryDroppedPointIsWithinTheTolerance) {
  std::mt19937 rng(7);
  std::normal_distribution<float> noise(0.0f, 0.05f);  // sub-pixel, as a settled force
  for (const float tolerance : {0.25f, 1.0f}) {
    std::vector<ImVec2> original;
    for (int i = 0; i < 2000; ++i) {
      const float x = 0.5f * i;
      // A damped oscillation settling to a noisy plateau: curved, then nearly flat.
      original.emplace_back(x, 80.0f * std::exp(-x / 150.0f) * std::cos(x / 20.0f) + noise(rng));
    }
    std::vector<ImVec2> simplified = original;
    SimplifyPolyline(&simplified, tolerance);
    EXPECT_LT(simplified.size(), original.size() / 4) << tolerance;
    EXPECT_EQ(simplified.front().x, original.front().x);
    EXPECT_EQ(simplified.back().x, original.back().x);
    for (const ImVec2& p : original) {
      EXPECT_LE(DistanceToPolyline(p, simplified), tolerance * 1.001f + 1e-4f) << p.x << " " << p.y;
    }
  }
}

TEST(SimplifyPolyline, ShortLinesAreLeftAlone) {
  std::vector<ImVec2> two{{0, 0}, {1, 5}};
  SimplifyPolyline(&two, 0.25f);
  EXPECT_EQ(two.size(), 2u);
}

// Scrubbed back on the timeline, the plots show the history up to the step shown: the window
// ends there, and no row after it is drawn.
TEST(PlotTimeWindow, TheTimelinesStepEndsTheWindowAndTheDataDrawn) {
  PlotData data({"f"}, 100);
  for (int i = 0; i <= 20; ++i) data.Append(0.5 * i, std::vector<double>{1.0 * i});  // 0 … 10 s
  PlotTimeWindow window;
  window.span_s = 4.0;
  EXPECT_EQ(window.End(data), 10.0);  // live: the newest
  EXPECT_EQ(window.LastShown(data), 10.0);
  window.cursor_s = 6.0;
  EXPECT_EQ(window.End(data), 6.0);
  EXPECT_EQ(window.LastShown(data), 6.0);
  const auto [first, last] = data.Range(window.End(data) - window.span_s, window.LastShown(data));
  EXPECT_EQ(data.time(first), 2.0);
  EXPECT_EQ(data.time(last - 1), 6.0);  // the legend's value: the step shown
  window.paused = true;                 // the plots' own pause gives way to the timeline
  window.paused_end_s = 9.0;
  EXPECT_EQ(window.End(data), 6.0);
  // Early in the history (the window keeps its first span): the window stays, the data stops.
  window.cursor_s = 1.0;
  EXPECT_EQ(window.End(data), 4.0);
  EXPECT_EQ(window.LastShown(data), 1.0);
  window.cursor_s.reset();  // back at the head: paused where the plots' pause left them
  EXPECT_EQ(window.End(data), 9.0);
}

}  // namespace
}  // namespace contactlab
