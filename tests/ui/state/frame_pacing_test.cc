// FramePacing: the frame clock (wall or stepped) and the periods it reports, the sleep after a
// swap that no display paced, and the render quality driven by the periods. Times are given,
// never read: no test here depends on how fast the machine is.
#include "ui/state/frame_pacing.h"

#include <gtest/gtest.h>

#include <chrono>

namespace contactlab {
namespace {

using Clock = FramePacing::Clock;
using std::chrono::milliseconds;

const Clock::time_point kT0 = Clock::time_point() + std::chrono::hours(1);

TEST(FramePacing, TheFirstFrameHasNoPeriodAndLaterOnesTheWallClocksDifference) {
  FramePacing pacing(false, 60);
  const FramePacing::FrameStart first = pacing.BeginFrame(kT0);
  EXPECT_TRUE(first.first);
  EXPECT_EQ(first.time, kT0);
  EXPECT_FLOAT_EQ(first.period_s, FramePacing::kFirstPeriod_s);
  const FramePacing::FrameStart second = pacing.BeginFrame(kT0 + milliseconds(40));
  EXPECT_FALSE(second.first);
  EXPECT_EQ(second.time, kT0 + milliseconds(40));
  EXPECT_FLOAT_EQ(second.period_s, 0.040f);
}

TEST(FramePacing, ASteppedClockAdvancesByItsPeriodWhateverTheWallClockSays) {
  FramePacing pacing(false, 60);
  pacing.BeginFrame(kT0);
  pacing.UseSteppedClock(kT0 + milliseconds(5));
  EXPECT_TRUE(pacing.stepped());
  // The first frame on the new clock: no period across the two clocks.
  pacing.Advance(milliseconds(50));
  const FramePacing::FrameStart a = pacing.BeginFrame(kT0 + std::chrono::seconds(30));
  EXPECT_TRUE(a.first);
  EXPECT_EQ(a.time, kT0 + milliseconds(55));
  for (int i = 0; i < 3; ++i) {
    pacing.Advance(milliseconds(50));
    // A slow machine (wall time 10 s a frame) and a fast one see the same frames.
    const FramePacing::FrameStart b = pacing.BeginFrame(kT0 + std::chrono::seconds(40 + 10 * i));
    EXPECT_FALSE(b.first);
    EXPECT_FLOAT_EQ(b.period_s, 0.050f);
    EXPECT_EQ(b.time, kT0 + milliseconds(105 + 50 * i));
  }
  // Back on the wall clock: again a first frame.
  pacing.UseWallClock();
  EXPECT_FALSE(pacing.stepped());
  EXPECT_TRUE(pacing.BeginFrame(kT0 + std::chrono::seconds(100)).first);
  EXPECT_FALSE(pacing.BeginFrame(kT0 + std::chrono::seconds(101)).first);
  // Already on the wall clock, UseWallClock keeps the period going.
  pacing.UseWallClock();
  EXPECT_FLOAT_EQ(pacing.BeginFrame(kT0 + std::chrono::seconds(102)).period_s, 1.0f);
}

TEST(FramePacing, AFrameNoDisplayPacedSleepsOutItsPeriod) {
  FramePacing pacing(false, 50);  // 20 ms a frame
  const auto due = pacing.EndFrame(kT0, 0.1);
  ASSERT_TRUE(due.has_value());
  EXPECT_EQ(*due, kT0 + milliseconds(20));
  // Under Xvfb vsync is asked for but the swap returns at once: no display paces the loop.
  FramePacing xvfb(true, 50);
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(xvfb.EndFrame(kT0, 0.05).has_value());
}

TEST(FramePacing, ADisplayThatPacesTheSwapLeavesNothingToSleep) {
  FramePacing pacing(true, 50);
  // The swap's average rises over about ten frames of 16 ms waits.
  int slept = 0;
  for (int i = 0; i < 30; ++i) slept += pacing.EndFrame(kT0, 16.0).has_value();
  EXPECT_EQ(slept, 0) << "the first swap already averages 1.6 ms";
  // Without vsync the same swaps are not the display's pacing.
  FramePacing no_vsync(false, 50);
  EXPECT_TRUE(no_vsync.EndFrame(kT0, 16.0).has_value());
}

TEST(FramePacing, NoSleepWhenUncappedSteppedOrWithoutACap) {
  FramePacing uncapped(false, 60);
  uncapped.set_capped(false);  // screenshots
  EXPECT_FALSE(uncapped.EndFrame(kT0, 0).has_value());
  FramePacing stepped(false, 60);
  stepped.UseSteppedClock(kT0);
  EXPECT_FALSE(stepped.EndFrame(kT0, 0).has_value());
  stepped.UseWallClock();
  EXPECT_TRUE(stepped.EndFrame(kT0, 0).has_value());
  FramePacing no_cap(false, 0);
  EXPECT_FALSE(no_cap.EndFrame(kT0, 0).has_value());
}

// Stepped frames at 20 fps lower the automatic quality a level a second; at 60 fps it stays.
TEST(FramePacing, SteppedFramePeriodsDriveTheRenderQuality) {
  for (const int fps : {20, 60}) {
    FramePacing pacing(false, 60);
    pacing.UseSteppedClock(kT0);
    AutoQuality quality(4);
    int changes = 0;
    const auto period =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / fps));
    for (int frame = 0; frame < 3 * fps; ++frame) {  // 3 s of frame time
      pacing.Advance(period);
      changes += AdaptRenderQuality(pacing.BeginFrame(kT0), &quality);
    }
    if (fps == 20) {
      EXPECT_GE(changes, 2) << "a level a second";
      EXPECT_EQ(quality.level(), changes);
    } else {
      EXPECT_EQ(changes, 0);
      EXPECT_EQ(quality.level(), 0);
    }
  }
}

TEST(FramePacing, AFirstFrameIsNotCountedByTheRenderQuality) {
  AutoQuality quality(4);
  FramePacing::FrameStart first;  // first = true
  first.period_s = 0.2f;          // were it counted: 20 s at 5 fps, four levels down
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(AdaptRenderQuality(first, &quality));
  EXPECT_EQ(quality.level(), 0);
  EXPECT_EQ(quality.fps(), 0.0) << "no window was measured";
}

}  // namespace
}  // namespace contactlab
