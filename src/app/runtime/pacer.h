// The sim thread's wall-clock pacing (docs/architecture.md §4, Threads): when the next step is
// due for a target real-time factor, and the real-time factor achieved. It never reads the
// clock: the loop passes the time points in, so a test gives it known ones.
#pragma once

#include <array>
#include <chrono>

namespace contactlab {

class Pacer {
 public:
  using Clock = std::chrono::steady_clock;

  // A pace that falls this many δt_max (or kMaxLag_s) behind re-anchors to the present instead
  // of catching up, so a slow stretch never turns into a long catch-up burst. A single slow step
  // (a burst of new contacts can cost several δt) is made up by the next ones as long as the
  // lag stays within kMaxLag_s of wall time: a catch-up that short is invisible at display
  // rate, and without it every such step would cost simulated time. The bound is in seconds of
  // δt_max, not of the next step: under error control (docs/contact-model.md §1.2) a run of
  // small steps must not shrink it.
  static constexpr double kMaxLagSteps = 2.0;
  static constexpr double kMaxLag_s = 0.02;
  // The achieved factor is sim time over wall time across the oldest of kRateMarks marks, one
  // taken at a step at least kRateMarkInterval after the last: a sliding window of about 0.5 s.
  static constexpr int kRateMarks = 11;
  static constexpr std::chrono::milliseconds kRateMarkInterval{50};

  // `target_factor`: simulated over wall time, 0 for as fast as possible (finite and
  // non-negative: the caller validates it). Unanchored: the first step is due at once.
  explicit Pacer(double target_factor) : target_factor_(target_factor) {}

  double target_factor() const { return target_factor_; }
  void SetTargetFactor(double factor);  // re-anchors
  // The next step is due at once, and the pace goes on from there: a start, a resume, a reset
  // or a new scene does not count as lag.
  void Reanchor() { anchored_ = false; }

  // When the next step is due, asked at `now` (target factor > 0): the step ends `dt_s` of
  // simulated time on (World::next_dt: δt, or error control's proposal), and is due when the
  // wall clock reaches its end at the target factor from the anchor. Unanchored, or more than
  // max(kMaxLagSteps·dt_max_s, kMaxLag_s) of simulated time late (over the factor), the pace
  // re-anchors at `now` and returns it: the time missed is not made up later. Only simulated
  // time is paced; nothing assumes time = steps · δt.
  Clock::time_point NextStepDue(Clock::time_point now, double dt_s, double dt_max_s);

  // A step of `dt_s` (the size actually taken, StepStats::dt_s) has been taken, ending at `end`.
  void StepTaken(double dt_s, Clock::time_point end);
  // Simulated over wall time across the window (0 until two marks are over 1 ms apart).
  double achieved_factor() const { return achieved_factor_; }
  // A new window (after a pause, which is not averaged in); the achieved factor reads 0.
  void ClearAchievedFactor();
  // Simulated seconds ever stepped (monotone across resets and scenes).
  double sim_total_s() const { return sim_total_s_; }

 private:
  struct RateMark {
    Clock::time_point wall;
    double sim_s = 0;
  };

  double target_factor_;
  // The next step is due when the wall clock reaches
  // anchor_wall_ + (sim_total_s_ + dt − anchor_sim_s_) / target_factor_.
  bool anchored_ = false;
  Clock::time_point anchor_wall_;
  double anchor_sim_s_ = 0;
  double sim_total_s_ = 0;

  std::array<RateMark, kRateMarks> rate_marks_;  // a ring: rate_count_ marks up to rate_newest_
  int rate_count_ = 0, rate_newest_ = -1;
  double achieved_factor_ = 0;
};

}  // namespace contactlab
