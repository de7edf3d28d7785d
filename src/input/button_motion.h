// Motion from buttons that does not depend on how often anyone looks at them (issue 35): the
// keyboard's motion keys and the gamepad's shoulder buttons. A tap moves one jog step; a hold
// moves at the speed for as long as it was held, measured by the events' own times; the device
// executes that displacement in simulated time. docs/architecture.md §5 (Buttons in time).
//
// Two clocks meet here. Events carry times on the event clock (input/event_clock.h), and the
// events up to some time are known only when the GUI hands a frame's events over (AdvanceTo).
// The sim thread polls at simulated times; each poll also reads the event clock, so a history of
// (event clock, simulated time) pairs maps an event time to the simulated time it fell at. A
// hold is measured in simulated time: held while paused it moves nothing, at a real-time factor
// of 0.25 a quarter as far per second as at 1, as a velocity held in the simulation always did.
//
// The displacement owed, per group (linear m, angular rad), is the *budget*: the jog steps of
// taps and of presses still within tap_max_s, plus, for a press held longer, speed × its held
// simulated time (from the press on: max(jog, v·held), so it never shrinks when the tap window
// closes). Polls execute the budget: each returns the velocity that closes the gap over the
// coming step, at most catch_up × the speed, so after the tap window the arm catches up and
// then follows at the speed; what it executes adds up to the budget exactly and never passes it.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

namespace contactlab {

class ButtonMotion {
 public:
  static constexpr int kMaxButtons = 12;
  static constexpr int kLinear = 0, kAngular = 1;
  // The budget is executed at up to this multiple of the speed (after the tap window the hold's
  // first tap_max_s is owed at once).
  static constexpr double kCatchUpFactor = 2.0;
  // Events stamped when the GUI's event poll delivered them (poll ≥ 0; no time of their own to
  // be had) have the resolution of the polls (a frame: 0.33 s at 3 fps). Such a release
  // delivered by the poll right after the press's is a tap when within this of the press,
  // whatever tap_max_s says.
  static constexpr double kNextPollTapMax_s = 0.5;
  // (event clock, simulated time) pairs kept, at least 1 ms apart: 4 s and more of history.
  static constexpr int kHistory = 4096;

  struct Button {
    int group = kLinear;                                   // kLinear or kAngular
    Eigen::Vector3d direction = Eigen::Vector3d::UnitX();  // unit
  };
  struct Params {
    double jog_step_m = 1e-3;
    double jog_step_rad = 0.017453292519943295;  // 1°
    double tap_max_s = 0.2;                      // a shorter press is a tap (event time)
  };

  ButtonMotion(const Params& params, std::span<const Button> buttons);

  // ---- Events, in time order (t_s on the event clock). poll: the index of the event poll that
  // delivered it, or −1 when t_s is the event's exact time.
  // A new hand-over of events: an establishment made from here on may still be undone by a
  // release in the poll after the press (kNextPollTapMax_s). Polls never see it in between
  // (the device holds its lock over a whole hand-over).
  void BeginHandOver() { ++hand_over_; }
  void Press(int button, double t_s, int64_t poll);  // a button already down: ignored (repeat)
  void Release(int button, double t_s, int64_t poll);
  void ReleaseAll(double t_s, int64_t poll);
  // Speeds [m/s, rad/s] from t_s on, and the jog steps' factor for presses from then on.
  void SetSpeed(double linear_m_per_s, double angular_rad_per_s, double jog_factor, double t_s);
  // What the commands are clamped to downstream (the teleop controller's limits over the
  // sensitivity): holds accrue and the catch-up executes at no more, so that every command
  // polled is applied as it is and the budget is executed exactly.
  void SetSpeedLimits(double linear_m_per_s, double angular_rad_per_s) {
    limit_ = {linear_m_per_s, angular_rad_per_s};
  }
  // The button states are known up to t_s: held buttons accrue up to it.
  void AdvanceTo(double t_s);
  bool down(int button) const { return keys_[button].down; }

  // ---- The sim thread, before a step at simulated time t_sim_s, now_s on the event clock: the
  // velocities that execute the budget (linear m/s, angular rad/s, in the buttons' axes). The
  // step before is taken to have lasted t_sim_s minus the last poll's time, and the coming one
  // `coming_step_s` (its planned size, InputDevice::PollStep) when given and more than a
  // rounding away from that, else as long: error control's steps vary (docs/contact-model.md
  // §1.2), and a step five times the last must not execute five times the gap; a fixed step
  // keeps the arithmetic it always had. A poll at an earlier time than the last (a reset, a new
  // scene) restarts.
  void Poll(double t_sim_s, double now_s, Eigen::Vector3d* linear, Eigen::Vector3d* angular,
            double coming_step_s = 0);
  // The displacement not yet executed is dropped (reset, new scene, a replay's end: the arm's
  // targets are set anew); held buttons go on from here, and the next poll anchors.
  void Restart();

  // Owed and executed so far, per group (tests, status).
  Eigen::Vector3d budget(int group) const;
  const Eigen::Vector3d& executed(int group) const { return executed_[group]; }

 private:
  struct Key {
    bool down = false;
    bool established = false;  // held past the tap window: accrues
    double press_s = 0;
    int64_t press_poll = -1;
    double jog = 0;               // this press's jog step (m or rad)
    double amount = 0;            // owed along the direction while down
    uint64_t established_in = 0;  // the hand-over that established it
  };
  double Speed(int group) const { return std::min(speed_[group], limit_[group]); }
  double SimTimeAt(double event_s) const;
  double NormOfDownSum(int group, bool established_only) const;
  void Accrue(double t_s);
  void Establish(int button);
  void RecordPoll(double t_sim_s, double now_s);
  void Rebase();

  Params params_;
  std::array<Button, kMaxButtons> buttons_{};
  int num_buttons_ = 0;
  std::array<Key, kMaxButtons> keys_{};
  std::array<double, 2> speed_{0.1, 0.5};
  // TeleopConfig's defaults until the session says otherwise.
  std::array<double, 2> limit_{0.5, 1.5};
  double jog_factor_ = 1.0;
  uint64_t hand_over_ = 1;
  // Accrued up to this event time, and the simulated time it maps to.
  double accrued_to_s_ = -1e300;
  double accrued_sim_s_ = 0;
  bool anchored_ = false;  // accrued_sim_s_ is a simulated time (a poll has been seen)
  // Released presses' displacement, and what polls executed, per group.
  std::array<Eigen::Vector3d, 2> done_{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  std::array<Eigen::Vector3d, 2> executed_{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  std::array<Eigen::Vector3d, 2> output_{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  // Poll history: a ring of (event clock, simulated time), and the newest poll.
  std::array<double, kHistory> history_event_s_{}, history_sim_s_{};
  int history_begin_ = 0, history_size_ = 0;
  bool polled_ = false;
  double last_poll_event_s_ = 0, last_poll_sim_s_ = 0, last_step_s_ = 0;
};

}  // namespace contactlab
