// A device driven as the GUI and the sim thread drive it, on a clock the test controls: the sim
// thread polls every step (1 ms of simulated time) and integrates the command over the step, as
// TeleopController does; the GUI hands the events over once a frame, each stamped with its own
// time or with the time of the frame's event poll (what GLFW's callbacks can do), up to the
// frame's start. Nothing here reads a real clock: what a run moves depends on its script alone.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "input/event_clock.h"
#include "input/input_device.h"

namespace contactlab::testing {

// The event clock of a run: what the device reads when polled (atomic: a sim thread may poll
// while the test sets it).
struct FakeClock {
  std::atomic<double> now_s{0.0};
  EventClock clock() {
    return [this] { return now_s.load(); };
  }
};

// A button or key changing at t_s (its true time).
struct ScriptedEvent {
  double t_s = 0;
  int id = 0;  // the device's: a KeyAction, a GamepadState::Button
  bool down = false;
};

struct RunOptions {
  double frame_period_s = 1.0 / 60.0;
  // When set, the frames' periods in turn instead (a slow machine's frames are irregular).
  std::vector<double> frame_periods_s;
  // true: events are stamped with the time of the frame's poll that delivered them (GLFW); false:
  // with their own time.
  bool stamp_at_poll = false;
  double realtime_factor = 1.0;
  // The sim thread pauses over [pause_from_s, pause_to_s) of event time (no polls).
  double pause_from_s = std::numeric_limits<double>::infinity();
  double pause_to_s = std::numeric_limits<double>::infinity();
  double end_s = 3.0;
  double step_s = 1e-3;  // simulated time a step
};

// What the commands added up to (in the device's axes), integrated as the controller does.
struct RunResult {
  Eigen::Vector3d displacement_m = Eigen::Vector3d::Zero();
  Eigen::Vector3d rotation_rad = Eigen::Vector3d::Zero();
  // The displacement at each frame's start (the frame's event time), for following it.
  std::vector<double> frame_s;
  std::vector<Eigen::Vector3d> displacement_at_frame_m;
  double max_speed_m_per_s = 0;
  int polls = 0;
};

// hand_over(events due this frame with their stamps, the frame's start, the poll's index).
using HandOver =
    std::function<void(std::span<const ScriptedEvent> stamped, double frame_s, int64_t poll)>;

// Runs the script on `device` from event time 0 to options.end_s in ticks of options.step_s of
// event time: a frame at the first tick at or after each k × frame_period_s (or the sum of the
// periods so far), then a poll unless
// paused (simulated time advances by step × real-time factor a tick while running).
inline RunResult RunTimed(const RunOptions& options, std::vector<ScriptedEvent> script,
                          FakeClock* clock, InputDevice* device, const HandOver& hand_over) {
  RunResult r;
  size_t next_event = 0;
  int64_t frame = 0;
  double next_frame_s = 0;
  double sim_s = 0;
  const int64_t ticks = std::llround(options.end_s / options.step_s);
  std::vector<ScriptedEvent> due;
  for (int64_t i = 0; i <= ticks; ++i) {
    const double now = static_cast<double>(i) * options.step_s;
    clock->now_s = now;
    if (now + 1e-12 >= next_frame_s) {
      due.clear();
      while (next_event < script.size() && script[next_event].t_s <= now + 1e-12) {
        ScriptedEvent e = script[next_event++];
        if (options.stamp_at_poll) e.t_s = now;
        due.push_back(e);
      }
      hand_over(due, now, frame);
      r.frame_s.push_back(now);
      r.displacement_at_frame_m.push_back(r.displacement_m);
      next_frame_s = options.frame_periods_s.empty()
                         ? static_cast<double>(frame + 1) * options.frame_period_s
                         : next_frame_s + options.frame_periods_s[static_cast<size_t>(frame) %
                                                                  options.frame_periods_s.size()];
      ++frame;
    }
    if (now >= options.pause_from_s && now < options.pause_to_s) continue;
    const TeleopCommand c = device->Poll(sim_s);
    const double dt = options.step_s * options.realtime_factor;
    r.displacement_m += c.linear_m_per_s * dt;
    r.rotation_rad += c.angular_rad_per_s * dt;
    r.max_speed_m_per_s = std::max(r.max_speed_m_per_s, c.linear_m_per_s.norm());
    sim_s += dt;
    ++r.polls;
  }
  return r;
}

}  // namespace contactlab::testing
