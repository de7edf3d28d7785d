// Keyboard teleoperation: a motion key's tap moves one jog step and a hold moves at the speed for
// as long as it was held, by the events' own times and whatever the frame rate (issue 35); key
// combinations, speed scale and fine mode; pause, reset and focus loss; grip and the key map.
// Driven as the GUI and the sim thread drive it, on a clock the test controls (timed_input_run.h).
#include "input/keyboard_device.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "test_support/timed_input_run.h"

namespace contactlab {
namespace {

using testing::FakeClock;
using testing::RunOptions;
using testing::RunResult;
using testing::ScriptedEvent;

constexpr double kJog_m = 1e-3;  // KeyboardConfig's jog steps
constexpr double kJog_rad = M_PI / 180.0;
constexpr double kSpeed_m_per_s = 0.10;  // and speeds at speed scale 1
constexpr double kSpeed_rad_per_s = 0.5;
constexpr double kThreeFps = 1.0 / 3.0, kSixtyFps = 1.0 / 60.0;
// About 3 fps as a loaded machine draws them: 0.25, 0.45 and 0.35 s in turn.
const std::vector<double> kIrregularThreeFps = {0.25, 0.45, 0.35};
// A hold is measured in simulated time, which the event times map to through the polls: to
// within a step (1 ms) of it.
constexpr double kStep_s = 1e-3;

ScriptedEvent Key(double t_s, KeyAction action, bool down) {
  return {t_s, static_cast<int>(action), down};
}

// A keyboard on `clock`, fed a frame's events as the GUI's FeedTeleopKeys does.
struct TimedKeyboard {
  FakeClock clock;
  KeyboardDevice kb;
  explicit TimedKeyboard(KeyboardConfig config = {}) : kb(WithClock(std::move(config))) {}
  KeyboardConfig WithClock(KeyboardConfig config) {
    config.clock = clock.clock();
    return config;
  }
  RunResult Run(const RunOptions& options, std::vector<ScriptedEvent> script) {
    return testing::RunTimed(
        options, std::move(script), &clock, &kb,
        [this](std::span<const ScriptedEvent> due, double frame_s, int64_t poll) {
          std::vector<TimedKeyEvent> events;
          for (const ScriptedEvent& e : due) {
            events.push_back({static_cast<KeyAction>(e.id), e.down, e.t_s, poll});
          }
          kb.HandOver(events, frame_s);
        });
  }
};

RunOptions At(double frame_period_s, bool stamp_at_poll = false) {
  RunOptions o;
  o.frame_period_s = frame_period_s;
  o.stamp_at_poll = stamp_at_poll;
  return o;
}

RunOptions AtIrregularThreeFps() {
  RunOptions o;
  o.frame_periods_s = kIrregularThreeFps;
  return o;
}

TEST(KeyboardDeviceTest, NoKeysMeansZeroTwistAndOpenGrip) {
  KeyboardDevice kb;
  const TeleopCommand c = kb.Poll(2.5);
  EXPECT_TRUE(c.IsZeroTwist());
  EXPECT_EQ(c.grip, 0.0);
  EXPECT_EQ(c.t, 2.5);
  EXPECT_EQ(c.frame, CommandFrame::kWorld);
}

// The case: at 3 fps a 0.15 s tap (press and release between two frames) moved nothing.
TEST(KeyboardDeviceTest, ATapMovesExactlyOneJogStepAtThreeAndSixtyFps) {
  for (const RunOptions& frames : {At(kThreeFps), AtIrregularThreeFps(), At(kSixtyFps)}) {
    const double period = frames.frame_period_s;
    TimedKeyboard t;
    const RunResult r = t.Run(
        frames, {Key(0.05, KeyAction::kMoveXPos, true), Key(0.20, KeyAction::kMoveXPos, false)});
    EXPECT_NEAR(r.displacement_m.x(), kJog_m, 1e-12) << "frame period " << period;
    EXPECT_NEAR(r.displacement_m.tail<2>().norm(), 0.0, 1e-15);
    EXPECT_TRUE(r.rotation_rad.isZero(0.0));
    EXPECT_LE(r.max_speed_m_per_s, 2 * kSpeed_m_per_s + 1e-12);  // the catch-up's bound
  }
}

// GLFW stamps an event when its poll delivers it: at 3 fps a tap across a frame boundary reads
// as a press one frame (0.33 s, longer than tap_max_s) before its release. A release in the
// poll after the press's is a tap.
TEST(KeyboardDeviceTest, ATapAcrossAFrameStampedAtThePollsIsStillOneJogStep) {
  TimedKeyboard t;
  const RunResult r =
      t.Run(At(kThreeFps, /*stamp_at_poll=*/true),
            {Key(0.30, KeyAction::kMoveZNeg, true), Key(0.45, KeyAction::kMoveZNeg, false)});
  EXPECT_NEAR(r.displacement_m.z(), -kJog_m, 1e-12);
  // A press held across two frames (0.67 s by the stamps) is a hold.
  TimedKeyboard held;
  const RunResult h = held.Run(At(kThreeFps, true), {Key(0.30, KeyAction::kMoveZNeg, true),
                                                     Key(0.70, KeyAction::kMoveZNeg, false)});
  const double stamped_hold_s = h.frame_s[3] - h.frame_s[1];  // the polls at 1/3 s and 1 s
  EXPECT_NEAR(h.displacement_m.z(), -kSpeed_m_per_s * stamped_hold_s,
              kSpeed_m_per_s * kStep_s + 1e-12);
}

// The case: a 1 s hold moved 105 mm at 3 fps (the hold quantized to frames). By the
// events' own times it moves speed × 1 s at any frame rate, the same as at 60 fps, and the arm
// follows the hold within a frame and the catch-up.
TEST(KeyboardDeviceTest, AOneSecondHoldMovesTheSpeedTimesOneSecondAtThreeAndSixtyFps) {
  for (const RunOptions& frames : {At(kThreeFps), AtIrregularThreeFps(), At(kSixtyFps)}) {
    const double period = frames.frame_periods_s.empty() ? frames.frame_period_s : 0.45;
    TimedKeyboard t;
    const RunResult r = t.Run(
        frames, {Key(0.10, KeyAction::kMoveXPos, true), Key(1.10, KeyAction::kMoveXPos, false)});
    // Within one step's motion (0.1 mm) of 100 mm: the simulated time the hold spans.
    EXPECT_NEAR(r.displacement_m.x(), kSpeed_m_per_s * 1.0, 1e-4) << "frame period " << period;
    EXPECT_LE(r.max_speed_m_per_s, 2 * kSpeed_m_per_s + 1e-12);
    // Never backwards, never past the hold's 100 mm; half-way through the hold it is under way
    // (at most a frame, the tap window and its catch-up behind).
    double last = 0;
    for (size_t f = 0; f < r.frame_s.size(); ++f) {
      const double x = r.displacement_at_frame_m[f].x();
      EXPECT_GE(x, last - 1e-15);
      EXPECT_LE(x, kSpeed_m_per_s * 1.0 + 1e-4);
      last = x;
      if (r.frame_s[f] >= 0.85 && r.frame_s[f] < 0.85 + period) {
        EXPECT_GT(x, kSpeed_m_per_s * (0.75 - 0.1 - period)) << "at " << r.frame_s[f] << " s";
      }
    }
  }
}

TEST(KeyboardDeviceTest, ARotationKeyTapTurnsOneDegreeAndAHoldTurnsAtTheSpeed) {
  for (const double period : {kThreeFps, kSixtyFps}) {
    TimedKeyboard t;
    const RunResult tap = t.Run(
        At(period), {Key(0.05, KeyAction::kRotZPos, true), Key(0.15, KeyAction::kRotZPos, false)});
    EXPECT_NEAR(tap.rotation_rad.z(), kJog_rad, 1e-12) << "frame period " << period;
    EXPECT_TRUE(tap.displacement_m.isZero(0.0));
    TimedKeyboard h;
    const RunResult hold = h.Run(
        At(period), {Key(0.10, KeyAction::kRotYNeg, true), Key(0.60, KeyAction::kRotYNeg, false)});
    EXPECT_NEAR(hold.rotation_rad.y(), -kSpeed_rad_per_s * 0.5, 5e-4);
  }
}

TEST(KeyboardDeviceTest, EachMotionKeyMovesAlongItsAxis) {
  const struct {
    KeyAction action;
    int axis;
    double sign;
    bool angular;
  } keys[] = {{KeyAction::kMoveXPos, 0, 1, false}, {KeyAction::kMoveXNeg, 0, -1, false},
              {KeyAction::kMoveYPos, 1, 1, false}, {KeyAction::kMoveYNeg, 1, -1, false},
              {KeyAction::kMoveZPos, 2, 1, false}, {KeyAction::kMoveZNeg, 2, -1, false},
              {KeyAction::kRotXPos, 0, 1, true},   {KeyAction::kRotXNeg, 0, -1, true},
              {KeyAction::kRotYPos, 1, 1, true},   {KeyAction::kRotYNeg, 1, -1, true},
              {KeyAction::kRotZPos, 2, 1, true},   {KeyAction::kRotZNeg, 2, -1, true}};
  for (const auto& k : keys) {
    TimedKeyboard t;
    RunOptions o = At(kSixtyFps);
    o.end_s = 1.0;
    const RunResult r = t.Run(o, {Key(0.0, k.action, true), Key(0.5, k.action, false)});
    const Eigen::Vector3d moved = k.angular ? r.rotation_rad : r.displacement_m;
    const Eigen::Vector3d other = k.angular ? r.displacement_m : r.rotation_rad;
    const double speed = k.angular ? kSpeed_rad_per_s : kSpeed_m_per_s;
    EXPECT_NEAR(moved[k.axis], k.sign * speed * 0.5, speed * kStep_s + 1e-12)
        << static_cast<int>(k.action);
    EXPECT_NEAR(moved.norm(), std::abs(moved[k.axis]), 1e-15);
    EXPECT_TRUE(other.isZero(0.0));
  }
}

// Past the tap window (and the catch-up after it) a diagonal moves at the speed, opposite keys
// cancel and the others go on, as held keys always did.
TEST(KeyboardDeviceTest, CombinationsKeepSpeedAndOppositesCancel) {
  TimedKeyboard t;
  RunOptions o = At(kSixtyFps);
  o.end_s = 2.0;
  // W + A from 0 s; S joins W at 1 s.
  const RunResult r =
      t.Run(o, {Key(0.0, KeyAction::kMoveXPos, true), Key(0.0, KeyAction::kMoveYPos, true),
                Key(1.0, KeyAction::kMoveXNeg, true)});
  const auto moved = [&](double from_s, double to_s) {
    const auto frame = [&](double t_s) {
      return static_cast<size_t>(std::lround(t_s / kSixtyFps));
    };
    return Eigen::Vector3d(r.displacement_at_frame_m[frame(to_s)] -
                           r.displacement_at_frame_m[frame(from_s)]);
  };
  const double diagonal = kSpeed_m_per_s / std::sqrt(2.0);
  const Eigen::Vector3d w_a = moved(0.6, 0.9);
  EXPECT_NEAR(w_a.x(), diagonal * 0.3, 1e-9);
  EXPECT_NEAR(w_a.y(), diagonal * 0.3, 1e-9);
  const Eigen::Vector3d w_a_s = moved(1.6, 1.9);
  EXPECT_NEAR(w_a_s.x(), 0.0, 1e-9);
  EXPECT_NEAR(w_a_s.y(), kSpeed_m_per_s * 0.3, 1e-9);
  EXPECT_EQ(r.displacement_m.z(), 0.0);
}

TEST(KeyboardDeviceTest, SpeedScaleAndFineModeScaleHoldsAndFineModeTheJogStep) {
  TimedKeyboard t;
  RunOptions o = At(kSixtyFps);
  o.end_s = 4.0;
  const RunResult r =
      t.Run(o, {Key(0.0, KeyAction::kSpeedUp, true), Key(0.0, KeyAction::kSpeedUp, true),
                Key(0.05, KeyAction::kSpeedUp, false), Key(0.1, KeyAction::kSpeedUp, true),
                Key(0.15, KeyAction::kSpeedUp, false),  // twice (a repeat is no press): x2
                Key(0.5, KeyAction::kMoveZNeg, true), Key(1.5, KeyAction::kMoveZNeg, false),
                Key(2.0, KeyAction::kFineMode, true), Key(2.1, KeyAction::kMoveZPos, true),
                Key(2.2, KeyAction::kMoveZPos, false),  // a fine tap
                Key(2.5, KeyAction::kMoveYPos, true), Key(3.5, KeyAction::kMoveYPos, false),
                Key(3.6, KeyAction::kFineMode, false)});
  EXPECT_NEAR(t.kb.speed_scale(), 2.0, 1e-12);
  EXPECT_NEAR(r.displacement_m.z(), -2 * kSpeed_m_per_s * 1.0 + 0.2 * kJog_m,
              2 * kSpeed_m_per_s * kStep_s + 1e-12);
  EXPECT_NEAR(r.displacement_m.y(), 0.2 * 2 * kSpeed_m_per_s * 1.0,
              0.2 * 2 * kSpeed_m_per_s * kStep_s + 1e-12);
  EXPECT_EQ(t.kb.Status(), "keyboard: speed x2.00");

  KeyboardDevice kb;
  for (int i = 0; i < 20; ++i) {
    kb.SetKey(KeyAction::kSpeedDown, true);
    kb.SetKey(KeyAction::kSpeedDown, false);
  }
  EXPECT_DOUBLE_EQ(kb.speed_scale(), 0.125);  // clamped
  for (int i = 0; i < 20; ++i) {
    kb.SetKey(KeyAction::kSpeedUp, true);
    kb.SetKey(KeyAction::kSpeedUp, false);
  }
  EXPECT_DOUBLE_EQ(kb.speed_scale(), 4.0);
  kb.SetKeyByName("Shift", true);
  EXPECT_NE(kb.Status().find("fine"), std::string::npos);
}

// Paused, the simulation's time stands still: a key held meanwhile moves nothing for the pause.
// At a real-time factor of 0.25 a hold moves a quarter as far per second of its own, as the
// velocity it was before: the speed is in simulated time.
TEST(KeyboardDeviceTest, AHoldIsMeasuredInSimulatedTimeSoPausesAndSlowMotionCount) {
  TimedKeyboard t;
  RunOptions o = At(kThreeFps);
  o.pause_from_s = 0.5;
  o.pause_to_s = 1.5;
  const RunResult paused =
      t.Run(o, {Key(0.0, KeyAction::kMoveXPos, true), Key(2.0, KeyAction::kMoveXPos, false)});
  EXPECT_NEAR(paused.displacement_m.x(), kSpeed_m_per_s * (2.0 - 1.0), 2e-4);

  TimedKeyboard slow;
  RunOptions s = At(kSixtyFps);
  s.realtime_factor = 0.25;
  s.end_s = 4.0;
  const RunResult r =
      slow.Run(s, {Key(0.0, KeyAction::kMoveXPos, true), Key(1.0, KeyAction::kMoveXPos, false)});
  EXPECT_NEAR(r.displacement_m.x(), kSpeed_m_per_s * 0.25, 1e-4);
  // A tap is a step whatever the clocks.
  TimedKeyboard tap;
  const RunResult jog =
      tap.Run(o, {Key(0.6, KeyAction::kMoveXPos, true), Key(0.7, KeyAction::kMoveXPos, false)});
  EXPECT_NEAR(jog.displacement_m.x(), kJog_m, 1e-12);
}

// A reset (the simulated time goes back) drops what was not executed yet; a key still held goes
// on from there.
TEST(KeyboardDeviceTest, AResetDropsTheRestAndAHeldKeyGoesOn) {
  TimedKeyboard t;
  t.kb.HandOver(std::vector<TimedKeyEvent>{{KeyAction::kMoveXPos, true, 0.0, 0}}, 0.0);
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  double sim = 0;
  for (int i = 0; i <= 1500; ++i) {  // 1.5 s of event time; frames every 0.1 s
    t.clock.now_s = i * 1e-3;
    if (i % 100 == 0) t.kb.HandOver({}, t.clock.now_s);
    if (i == 1000) {  // reset at 1 s: what the hold owed until then is dropped
      sim = 0;
      x.setZero();
    }
    x += t.kb.Poll(sim).linear_m_per_s * 1e-3;
    sim += 1e-3;
  }
  t.kb.HandOver(std::vector<TimedKeyEvent>{{KeyAction::kMoveXPos, false, 1.5, 0}}, 1.5);
  for (int i = 1501; i <= 3000; ++i) {
    t.clock.now_s = i * 1e-3;
    x += t.kb.Poll(sim).linear_m_per_s * 1e-3;
    sim += 1e-3;
  }
  // After the reset the key was held 0.5 s more: 50 mm from the reset on (less the first poll,
  // which anchors).
  EXPECT_NEAR(x.x(), kSpeed_m_per_s * 0.5, 2e-4);
}

// Error control's steps vary (docs/contact-model.md §1.2): polled for each step's planned size
// (PollStep), a hold executes its owed displacement over that step, so the integrated target
// moves forward only and never past what is owed, however the sizes change (polled with the
// last step's size for the next, a step five times as long would pass it by 0.9 mm and go back).
TEST(KeyboardDeviceTest, AHoldOverVaryingStepsNeverPassesWhatItOwes) {
  TimedKeyboard t;
  t.kb.HandOver(std::vector<TimedKeyEvent>{{KeyAction::kMoveXPos, true, 0.0, 0}}, 0.0);
  const double sizes[] = {1e-3, 5e-3, 2e-4, 1e-3, 3e-3};
  double sim = 0, x = 0;
  for (int i = 0; sim < 1.0; ++i) {
    t.clock.now_s = sim;  // the event clock in step with the simulation
    if (i % 20 == 0) t.kb.HandOver({}, t.clock.now_s);
    const double h = sizes[i % 5];
    const double dx = t.kb.PollStep(sim, h).linear_m_per_s.x() * h;
    ASSERT_GE(dx, 0.0) << "t = " << sim;
    x += dx;
    sim += h;
    ASSERT_LE(x, std::max(kJog_m, kSpeed_m_per_s * sim) + 1e-12) << "t = " << sim;
  }
  // Owed up to the last hand-over of events (every 20 polls: at most 0.1 s of steps back).
  EXPECT_GT(x, kSpeed_m_per_s * (sim - 0.1));
}

// Focus lost (ReleaseAll) ends a hold there; nothing sticks.
TEST(KeyboardDeviceTest, ReleaseAllEndsAHold) {
  TimedKeyboard focus;
  focus.kb.HandOver(std::vector<TimedKeyEvent>{{KeyAction::kMoveYNeg, true, 0.0, 0}}, 0.0);
  Eigen::Vector3d y = Eigen::Vector3d::Zero();
  for (int i = 0; i <= 2000; ++i) {
    focus.clock.now_s = i * 1e-3;
    if (i % 17 == 0) focus.kb.HandOver({}, focus.clock.now_s);
    if (i == 500) focus.kb.ReleaseAll(0.5);
    y += focus.kb.Poll(i * 1e-3).linear_m_per_s * 1e-3;
  }
  EXPECT_NEAR(y.y(), -kSpeed_m_per_s * 0.5, 2e-4);
  EXPECT_TRUE(focus.kb.Poll(2.001).IsZeroTwist());
}

TEST(KeyboardDeviceTest, SpaceTogglesGripOncePerPress) {
  KeyboardDevice kb;
  kb.SetKeyByName("Space", true);
  kb.SetKeyByName("Space", true);  // held / auto-repeat
  EXPECT_EQ(kb.Poll(0).grip, 1.0);
  kb.SetKeyByName("Space", false);
  EXPECT_EQ(kb.Poll(0).grip, 1.0);
  kb.SetKeyByName("Space", true);
  kb.SetKeyByName("Space", false);
  EXPECT_EQ(kb.Poll(0).grip, 0.0);
}

TEST(KeyboardDeviceTest, DefaultKeyMapCoversEveryActionOnce) {
  std::set<KeyAction> actions;
  std::set<std::string> keys;
  for (const KeyBinding& b : DefaultKeyMap()) {
    EXPECT_TRUE(actions.insert(b.action).second);
    EXPECT_TRUE(keys.insert(b.key).second);
    EXPECT_STRNE(b.description, "");
    EXPECT_EQ(ActionForKey(b.key), b.action);
  }
  EXPECT_EQ(actions.size(), static_cast<size_t>(KeyAction::kCount));
  EXPECT_FALSE(ActionForKey("F13").has_value());
  KeyboardDevice kb;
  EXPECT_FALSE(kb.SetKeyByName("F13", true));
  EXPECT_EQ(MotionKeysHelp(KeyboardConfig{}),
            "motion keys: a tap moves one step (1 mm, 1 deg), a hold moves at 0.1 m/s, "
            "0.5 rad/s (x speed scale) for as long as it is held; Shift: both x0.2");
}

}  // namespace
}  // namespace contactlab
