// AutoQuality: the ladder's levels, and the walk by frame rate (down below 30 fps, up after 3 s
// at 55 fps or more, never back into a level that was just left for being slow).
#include "ui/state/auto_quality.h"

#include <gtest/gtest.h>

#include "render/render_quality.h"

namespace contactlab {
namespace {

// `frames` frames at `fps`; how many level changes they made.
int RunFrames(AutoQuality* q, double fps, int frames) {
  int changes = 0;
  for (int i = 0; i < frames; ++i) changes += q->OnFrame(1.0 / fps);
  return changes;
}

TEST(AutoQuality, LevelsHalveTheSamplesThenHardenAndShrinkTheShadowsThenThePanelsSlow) {
  const AutoQuality q4(4);
  ASSERT_EQ(q4.num_levels(), 7);
  EXPECT_EQ(q4.quality(0), (RenderQuality{4, 1024, true}));
  EXPECT_EQ(q4.quality(1), (RenderQuality{2, 1024, true}));
  EXPECT_EQ(q4.quality(2), (RenderQuality{0, 1024, true}));
  EXPECT_EQ(q4.quality(3), (RenderQuality{0, 1024, false}));
  EXPECT_EQ(q4.quality(4), (RenderQuality{0, 512, false}));
  EXPECT_EQ(q4.quality(5), (RenderQuality{0, 256, false}));
  EXPECT_EQ(q4.quality(6), (RenderQuality{0, 256, false, 5.0}));
  EXPECT_EQ(QualityLabel(q4.quality(6)), "no MSAA, hard shadows 256x256, panels at 5 Hz");
  EXPECT_EQ(QualityLabel(q4.quality(0)), "MSAA 4x, soft shadows 1024x1024");
  EXPECT_EQ(AutoQuality(8).num_levels(), 8);
  const AutoQuality q0(0);
  ASSERT_EQ(q0.num_levels(), 5);
  EXPECT_EQ(q0.quality(0), (RenderQuality{0, 1024, true}));
}

TEST(AutoQuality, SlowFramesStepDownOncePerSecondToTheCheapest) {
  AutoQuality q(4);
  EXPECT_EQ(RunFrames(&q, 7.0, 6), 0);  // less than a window: no decision yet
  EXPECT_EQ(RunFrames(&q, 7.0, 2), 1);
  EXPECT_EQ(q.level(), 1);
  EXPECT_NEAR(q.fps(), 7.0, 0.5);
  RunFrames(&q, 7.0, 70);
  EXPECT_EQ(q.level(), 6);  // and stays there
  EXPECT_EQ(q.quality(), (RenderQuality{0, 256, false, 5.0}));
}

TEST(AutoQuality, FastFramesStayAtTheBestLevel) {
  AutoQuality q(4);
  EXPECT_EQ(RunFrames(&q, 60.0, 600), 0);
  EXPECT_EQ(q.level(), 0);
  // Between the thresholds nothing moves either way.
  AutoQuality middle(4);
  RunFrames(&middle, 10.0, 22);
  ASSERT_EQ(middle.level(), 2);
  EXPECT_EQ(RunFrames(&middle, 40.0, 400), 0);
}

TEST(AutoQuality, RaisesAfterSustainedSpeedButNotBackIntoASlowLevel) {
  AutoQuality q(4);
  RunFrames(&q, 10.0, 22);
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

TEST(AutoQuality, StallsAndAFixedLevelAreLeftAlone) {
  AutoQuality q(4);
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(q.OnFrame(2.0));  // scene loads, not the frame rate
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
