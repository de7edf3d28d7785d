// Clicks and double-clicks by the button events' stamps (issue 35): at 2 fps a double-click's
// presses 0.2 s apart arrive in one event poll or in two consecutive ones, and either is a
// double-click; presses a second apart, far apart or dragged are not; a click waits to be
// confirmed single (a poll later and 0.3 s after it) or cancelled by the double-click. Frames are
// a frame counter and a clock the test sets, stamps as GLFW's callbacks give them (the poll's).
#include "ui/view/click_timing.h"

#include <gtest/gtest.h>

#include <vector>

namespace contactlab {
namespace {

// The window's event polls, one a frame at `period_s`: each delivers the presses and releases
// that happened since the last, stamped with the poll's time (GLFW runs its callbacks there).
struct Frames {
  explicit Frames(double period, bool exact_stamps = false)
      : period_s(period), exact(exact_stamps) {}
  double period_s;
  bool exact;  // stamped with their own times (the X server's), else with the poll's
  ClickTiming timing;
  int64_t poll = 0;
  struct Scripted {
    double t_s;
    bool down;
    float x = 100, y = 100;
    bool ctrl = false;
  };
  std::vector<Scripted> script;
  size_t next = 0;
  // Runs frames until t_s; each frame's decisions appended.
  std::vector<Clicks> RunTo(double t_s) {
    std::vector<Clicks> out;
    while (static_cast<double>(poll + 1) * period_s <= t_s + 1e-9) {
      ++poll;
      const double poll_s = static_cast<double>(poll) * period_s;
      std::vector<MouseButtonEvent> events;
      for (; next < script.size() && script[next].t_s <= poll_s; ++next) {
        const Scripted& s = script[next];
        const double t_s = exact ? s.t_s : poll_s + 1e-5 * static_cast<double>(events.size());
        events.push_back({0, s.down, s.x, s.y, s.ctrl, t_s, poll, exact});
      }
      out.push_back(timing.Update(events, poll, poll_s));
    }
    return out;
  }
};

int Count(const std::vector<Clicks>& frames, bool Clicks::*flag) {
  int n = 0;
  for (const Clicks& c : frames) n += c.*flag;
  return n;
}
int DoubleClicks(const std::vector<Clicks>& frames) {
  int n = 0;
  for (const Clicks& c : frames) n += c.double_click.has_value();
  return n;
}
int ClicksReported(const std::vector<Clicks>& frames) {
  int n = 0;
  for (const Clicks& c : frames) n += c.click.has_value();
  return n;
}

// Presses 0.2 s apart (0.05 s taps) at 2 fps: in one poll, or across two.
TEST(ClickTiming, ADoubleClickAtTwoFramesASecondIsOneInOnePollOrAcrossTwo) {
  for (const double first_s : {0.55, 0.85}) {  // both presses before the poll at 1 s / across it
    Frames f{0.5};
    f.script = {
        {first_s, true}, {first_s + 0.05, false}, {first_s + 0.2, true}, {first_s + 0.25, false}};
    const std::vector<Clicks> frames = f.RunTo(3.0);
    EXPECT_EQ(DoubleClicks(frames), 1) << "first press at " << first_s << " s";
    EXPECT_EQ(Count(frames, &Clicks::confirmed), 0) << "no single click: nothing is pinned";
    // A click reported before the second press arrived is cancelled by it.
    EXPECT_EQ(ClicksReported(frames), Count(frames, &Clicks::cancelled));
  }
}

// With the events' own times the poll does not matter: 0.2 s apart across two polls is a
// double-click, 0.6 s apart across two polls is not.
TEST(ClickTiming, WithTheEventsOwnTimesTheirTimesDecide) {
  Frames close{0.5, /*exact_stamps=*/true};
  close.script = {{0.85, true}, {0.9, false}, {1.05, true}, {1.1, false}};
  EXPECT_EQ(DoubleClicks(close.RunTo(3.0)), 1);
  Frames apart{0.5, true};
  apart.script = {{0.6, true}, {0.65, false}, {1.2, true}, {1.25, false}};
  const std::vector<Clicks> frames = apart.RunTo(3.0);
  EXPECT_EQ(DoubleClicks(frames), 0);
  EXPECT_EQ(Count(frames, &Clicks::confirmed), 2);
}

TEST(ClickTiming, ADoubleClickAtSixtyFramesASecond) {
  Frames f{1.0 / 60.0};
  f.script = {{0.10, true}, {0.15, false}, {0.30, true}, {0.35, false}};
  const std::vector<Clicks> frames = f.RunTo(1.0);
  EXPECT_EQ(DoubleClicks(frames), 1);
  EXPECT_EQ(ClicksReported(frames), 1);
  EXPECT_EQ(Count(frames, &Clicks::cancelled), 1);
  EXPECT_EQ(Count(frames, &Clicks::confirmed), 0);
}

// A single click is reported at once and confirmed when no second press can come any more: at
// 2 fps the next frame, at 60 fps 0.3 s later. The pointer's position is the press's.
TEST(ClickTiming, ASingleClickIsConfirmedOnceTheDoubleClickWindowHasPassed) {
  Frames slow{0.5};
  slow.script = {{0.6, true, 40, 50}, {0.65, false, 41, 50}};
  std::vector<Clicks> frames = slow.RunTo(3.0);
  ASSERT_TRUE(frames[1].click.has_value());  // the poll at 1 s
  EXPECT_EQ(*frames[1].click, Eigen::Vector2f(40, 50));
  EXPECT_FALSE(frames[1].confirmed);
  EXPECT_TRUE(frames[2].confirmed);  // at 1.5 s
  EXPECT_EQ(DoubleClicks(frames), 0);

  Frames fast{1.0 / 60.0};
  fast.script = {{0.1, true}, {0.15, false}};
  frames = fast.RunTo(1.0);
  int confirmed_at = -1;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].confirmed) confirmed_at = static_cast<int>(i) + 1;
  }
  EXPECT_EQ(confirmed_at, 24);  // the first poll 0.3 s after the press's (poll 6): 0.4 s
  EXPECT_EQ(Count(frames, &Clicks::confirmed), 1);
}

// Two clicks a second apart (two polls apart at 2 fps) are two clicks; presses 20 px apart are
// not a double-click; a drag is no click; Ctrl+press is the mouse spring's, no click.
TEST(ClickTiming, SlowOrFarApartPressesDragsAndCtrlClicksAreNoDoubleClick) {
  Frames slow{0.5};
  slow.script = {{0.6, true}, {0.65, false}, {1.6, true}, {1.65, false}};
  std::vector<Clicks> frames = slow.RunTo(4.0);
  EXPECT_EQ(DoubleClicks(frames), 0);
  EXPECT_EQ(Count(frames, &Clicks::confirmed), 2);

  Frames far{0.5};
  far.script = {{0.6, true, 100, 100},
                {0.65, false, 100, 100},
                {0.8, true, 120, 100},
                {0.85, false, 120, 100}};
  frames = far.RunTo(3.0);
  EXPECT_EQ(DoubleClicks(frames), 0);
  EXPECT_EQ(Count(frames, &Clicks::confirmed), 2);

  Frames drag{1.0 / 60.0};
  drag.script = {{0.1, true, 100, 100}, {0.3, false, 160, 100}};
  frames = drag.RunTo(1.0);
  EXPECT_EQ(ClicksReported(frames), 0);

  Frames ctrl{1.0 / 60.0};
  ctrl.script = {{0.1, true, 100, 100, true},
                 {0.15, false, 100, 100, true},
                 {0.3, true, 100, 100, true},
                 {0.35, false, 100, 100, true}};
  frames = ctrl.RunTo(1.0);
  EXPECT_EQ(ClicksReported(frames), 0);
  EXPECT_EQ(DoubleClicks(frames), 0);
}

}  // namespace
}  // namespace contactlab
