// AutoQuality: the ladder's levels, and the walk by frame rate (down below 30 fps, two levels at
// once below 15, up after 3 s at 55 fps or more, never back into a level that was just left for
// being slow), driven by synthetic frame periods: no clock is read.
#include "ui/state/auto_quality.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "render/render_quality.h"

namespace contactlab {
namespace {

// `frames` frames at `fps`; how many level changes they made.
int RunFrames(AutoQuality* q, double fps, int frames) {
  int changes = 0;
  for (int i = 0; i < frames; ++i) changes += q->OnFrame(1.0 / fps);
  return changes;
}

// The level after each frame of `seconds` of frames whose rate the level decides: a synthetic
// renderer, fps_at(level). After `settle_s`, the levels from then on (settled_levels).
std::vector<int> Walk(AutoQuality* q, double seconds, const std::function<double(int)>& fps_at,
                      double settle_s = 0, std::vector<int>* settled_levels = nullptr) {
  std::vector<int> levels;
  for (double t = 0; t < seconds;) {
    const double period = 1.0 / fps_at(q->level());
    q->OnFrame(period);
    levels.push_back(q->level());
    t += period;
    if (settled_levels && t > settle_s) settled_levels->push_back(q->level());
  }
  return levels;
}

// How often the walk turned from down to up or back.
int Reversals(const std::vector<int>& levels) {
  int reversals = 0, last_direction = 0;
  for (size_t i = 1; i < levels.size(); ++i) {
    const int direction = (levels[i] > levels[i - 1]) - (levels[i] < levels[i - 1]);
    if (direction == 0) continue;
    reversals += last_direction != 0 && direction != last_direction;
    last_direction = direction;
  }
  return reversals;
}

TEST(AutoQuality, LevelsHalveTheSamplesHardenAndShrinkTheShadowsSlowThePanelsThenScaleThe3DView) {
  const AutoQuality q4(4);
  ASSERT_EQ(q4.num_levels(), 10);
  EXPECT_EQ(q4.quality(0), (RenderQuality{4, 1024, true}));
  EXPECT_EQ(q4.quality(1), (RenderQuality{2, 1024, true}));
  EXPECT_EQ(q4.quality(2), (RenderQuality{0, 1024, true}));
  EXPECT_EQ(q4.quality(3), (RenderQuality{0, 1024, false}));
  EXPECT_EQ(q4.quality(4), (RenderQuality{0, 512, false}));
  EXPECT_EQ(q4.quality(5), (RenderQuality{0, 256, false}));
  EXPECT_EQ(q4.quality(6), (RenderQuality{0, 256, false, 5.0}));
  EXPECT_EQ(q4.quality(7), (RenderQuality{0, 256, false, 5.0, 0.75f}));
  EXPECT_EQ(q4.quality(8), (RenderQuality{0, 256, false, 5.0, 0.5f}));
  EXPECT_EQ(q4.quality(9), (RenderQuality{0, 256, false, 5.0, 0.35f}));
  for (int level = 0; level < 7; ++level) EXPECT_EQ(q4.quality(level).scene_scale, 1.0f) << level;
  EXPECT_EQ(QualityLabel(q4.quality(0)), "MSAA 4x, soft shadows 1024x1024");
  EXPECT_EQ(QualityLabel(q4.quality(6)), "no MSAA, hard shadows 256x256, panels at 5 Hz");
  EXPECT_EQ(QualityLabel(q4.quality(8)),
            "3-D at 50 %, no MSAA, hard shadows 256x256, panels at 5 Hz");
  EXPECT_EQ(QualityLabel(q4.quality(9)),
            "3-D at 35 %, no MSAA, hard shadows 256x256, panels at 5 Hz");
  EXPECT_EQ(AutoQuality(8).num_levels(), 11);
  const AutoQuality q0(0);
  ASSERT_EQ(q0.num_levels(), 8);
  EXPECT_EQ(q0.quality(0), (RenderQuality{0, 1024, true}));
  EXPECT_EQ(q0.quality(7).scene_scale, 0.35f);
}

TEST(AutoQuality, SlowFramesStepDownOncePerSecondAndVerySlowOnesTwice) {
  AutoQuality q(4);
  EXPECT_EQ(RunFrames(&q, 20.0, 19), 0);  // less than a window: no decision yet
  EXPECT_EQ(RunFrames(&q, 20.0, 2), 1);
  EXPECT_EQ(q.level(), 1);
  EXPECT_NEAR(q.fps(), 20.0, 1.0);
  AutoQuality very_slow(4);
  EXPECT_EQ(RunFrames(&very_slow, 7.0, 8), 1);  // under 15 fps: two levels in one change
  EXPECT_EQ(very_slow.level(), 2);
  RunFrames(&very_slow, 7.0, 70);
  EXPECT_EQ(very_slow.level(), 9);  // and stays there
  EXPECT_EQ(very_slow.quality(), (RenderQuality{0, 256, false, 5.0, 0.35f}));
}

// The scale is the last resort: it goes down only once every other step is taken, a level a
// second, and comes back first when frames are fast, a level per 3 s, then the other steps.
TEST(AutoQuality, SlowFramesScaleThe3DViewAfterTheOtherStepsAndFastOnesScaleItBackFirst) {
  AutoQuality q(4);
  std::vector<float> scales;  // after each second of 20 fps frames
  for (int second = 0; second < 12; ++second) {
    RunFrames(&q, 20.0, 20);
    scales.push_back(q.quality().scene_scale);
    if (q.quality().scene_scale < 1.0f) {
      EXPECT_EQ(q.quality().msaa_samples, 0);
      EXPECT_FALSE(q.quality().soft_shadows);
      EXPECT_EQ(q.quality().shadow_map_size, 256);
      EXPECT_GT(q.quality().panel_refresh_hz, 0.0);
    }
  }
  EXPECT_EQ(scales,
            (std::vector<float>{1, 1, 1, 1, 1, 1, 0.75f, 0.5f, 0.35f, 0.35f, 0.35f, 0.35f}));
  std::vector<float> back;  // after each 3 s of 60 fps frames
  for (int i = 0; i < 4; ++i) {
    RunFrames(&q, 60.0, 3 * 60 + 1);
    back.push_back(q.quality().scene_scale);
  }
  EXPECT_EQ(back, (std::vector<float>{0.5f, 0.75f, 1, 1}));
  EXPECT_EQ(q.level(), 5) << "then the panels every frame again";
}

TEST(AutoQuality, FastFramesStayAtTheBestLevel) {
  AutoQuality q(4);
  EXPECT_EQ(RunFrames(&q, 60.0, 600), 0);
  EXPECT_EQ(q.level(), 0);
  // Between the thresholds nothing moves either way.
  AutoQuality middle(4);
  RunFrames(&middle, 20.0, 41);
  ASSERT_EQ(middle.level(), 2);
  EXPECT_EQ(RunFrames(&middle, 40.0, 400), 0);
}

TEST(AutoQuality, RaisesAfterSustainedSpeedButNotBackIntoASlowLevel) {
  AutoQuality q(4);
  RunFrames(&q, 20.0, 41);
  ASSERT_EQ(q.level(), 2);
  EXPECT_EQ(RunFrames(&q, 60.0, 150), 0);  // fast, but not yet for 3 s
  EXPECT_EQ(RunFrames(&q, 60.0, 90), 1);
  ASSERT_EQ(q.level(), 1);
  // Level 1 turns out slow: down again, and level 1 is off limits to the automatic raises.
  RunFrames(&q, 20.0, 22);
  ASSERT_EQ(q.level(), 2);
  EXPECT_EQ(RunFrames(&q, 60.0, 1200), 0);
  EXPECT_EQ(q.level(), 2);
}

// A steady frame rate just either side of a threshold moves the level one way only, or not at
// all: never down and up again.
TEST(AutoQuality, ASteadyFrameRateNearAThresholdNeverOscillates) {
  for (const double fps : {29.5, 30.5, 54.5, 55.5, 14.5, 15.5}) {
    SCOPED_TRACE(fps);
    for (const int start : {0, 6, 9}) {
      AutoQuality q(4);
      q.SetLevel(start);
      q.SetAutomatic(true);
      const std::vector<int> levels = Walk(&q, 600.0, [fps](int) { return fps; });
      EXPECT_EQ(Reversals(levels), 0) << "from level " << start;
      if (fps > 30 && fps < 55) {
        EXPECT_EQ(q.level(), start) << "between the thresholds";
      }
    }
  }
  // Jitter about 30 fps (alternately 28 and 33 fps: 30.3 on average) moves nothing either.
  AutoQuality jitter(4);
  int frame = 0;
  const std::vector<int> levels =
      Walk(&jitter, 600.0, [&frame](int) { return ++frame % 2 ? 28.0 : 33.0; });
  EXPECT_EQ(Reversals(levels), 0);
}

// The frame rate depends on the level, as on a software renderer: the 3-D view at 75 % is too
// slow (25 fps) and at 50 % fast enough to try better (56 fps). The walk goes down to 50 %,
// tries 75 % once, comes back and stays there for ten minutes.
TEST(AutoQuality, ALevelTooSlowAboveOneFastEnoughBelowIsTriedOnceThenLeftAlone) {
  AutoQuality q(4);
  const auto fps_at = [&q](int level) {
    return q.quality(level).scene_scale <= 0.5f ? 56.0 : 25.0;
  };
  std::vector<int> settled;
  const std::vector<int> levels = Walk(&q, 600.0, fps_at, 30.0, &settled);
  EXPECT_EQ(q.level(), 8);
  EXPECT_EQ(q.quality().scene_scale, 0.5f);
  EXPECT_EQ(Reversals(levels), 2) << "down, the one try up, down again";
  ASSERT_GT(settled.size(), 500u * 56u);
  EXPECT_EQ(std::count(settled.begin(), settled.end(), 8), static_cast<long>(settled.size()))
      << "a change after the first half minute";
}

// Every frame longer than a stall (a starved machine: 2 s a frame): the first is taken for a
// stall, the next ones are the frame rate, two levels down each, to the last in five frames.
TEST(AutoQuality, FramesAllLongerThanAStallAreTheFrameRate) {
  AutoQuality q(4);
  std::vector<int> levels;
  for (int i = 0; i < 6; ++i) {
    q.OnFrame(2.0);
    levels.push_back(q.level());
  }
  EXPECT_EQ(levels, (std::vector<int>{0, 2, 4, 6, 8, 9}));
  EXPECT_NEAR(q.fps(), 0.5, 1e-9);
}

TEST(AutoQuality, StallsAndAFixedLevelAreLeftAlone) {
  AutoQuality q(4);
  for (int i = 0; i < 5; ++i) {  // scene loads between fast frames, not the frame rate
    EXPECT_FALSE(q.OnFrame(2.0));
    EXPECT_EQ(RunFrames(&q, 60.0, 30), 0);
  }
  EXPECT_EQ(q.level(), 0);
  q.SetLevel(3);
  EXPECT_FALSE(q.automatic());
  EXPECT_EQ(RunFrames(&q, 5.0, 25), 0);
  EXPECT_EQ(RunFrames(&q, 60.0, 300), 0);
  EXPECT_EQ(q.level(), 3);
  q.SetAutomatic(true);
  EXPECT_EQ(RunFrames(&q, 60.0, 200), 1);
  EXPECT_EQ(q.level(), 2);
}

}  // namespace
}  // namespace contactlab
