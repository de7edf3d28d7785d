#include "input/button_motion.h"

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace {

// Below this a gap is closed: rounding of the executed sum, not motion (m or rad).
constexpr double kClosedGap = 1e-12;
// Poll history entries are at least this far apart on the event clock [s].
constexpr double kHistorySpacing_s = 1e-3;

}  // namespace

ButtonMotion::ButtonMotion(const Params& params, std::span<const Button> buttons)
    : params_(params),
      num_buttons_(static_cast<int>(std::min<size_t>(buttons.size(), kMaxButtons))) {
  std::copy_n(buttons.begin(), num_buttons_, buttons_.begin());
}

// Linear interpolation in the poll history; before it, its first simulated time; after the
// newest poll, the newest poll's (the simulation has not been seen to go further).
double ButtonMotion::SimTimeAt(double event_s) const {
  if (event_s >= last_poll_event_s_ || history_size_ == 0) return last_poll_sim_s_;
  const auto at = [&](int i) { return (history_begin_ + i) % kHistory; };
  if (event_s <= history_event_s_[at(0)]) return history_sim_s_[at(0)];
  // The last entry at or before event_s.
  int lo = 0, hi = history_size_ - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (history_event_s_[at(mid)] <= event_s) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  const double e0 = history_event_s_[at(lo)], s0 = history_sim_s_[at(lo)];
  const bool last = lo + 1 >= history_size_;
  const double e1 = last ? last_poll_event_s_ : history_event_s_[at(lo + 1)];
  const double s1 = last ? last_poll_sim_s_ : history_sim_s_[at(lo + 1)];
  if (!(e1 > e0)) return s1;
  return s0 + (s1 - s0) * (event_s - e0) / (e1 - e0);
}

// |Σ directions| of the group's buttons held (or only those past their tap window): a diagonal
// moves at the speed, opposite buttons cancel.
double ButtonMotion::NormOfDownSum(int group, bool established_only) const {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (int i = 0; i < num_buttons_; ++i) {
    const Key& k = keys_[i];
    if (k.down && buttons_[i].group == group && (k.established || !established_only)) {
      sum += buttons_[i].direction;
    }
  }
  return sum.norm();
}

// The buttons past their tap window accrue speed × the simulated time up to t_s, shared so that
// their sum moves at the speed.
void ButtonMotion::Accrue(double t_s) {
  if (t_s <= accrued_to_s_) return;
  if (anchored_) {
    const double sim_s = std::max(accrued_sim_s_, SimTimeAt(t_s));
    const double held_sim_s = sim_s - accrued_sim_s_;
    for (int group : {kLinear, kAngular}) {
      const double n = NormOfDownSum(group, true);
      if (!(held_sim_s > 0) || !(n > 0)) continue;
      for (int i = 0; i < num_buttons_; ++i) {
        Key& k = keys_[i];
        if (k.down && k.established && buttons_[i].group == group) {
          k.amount += Speed(group) * held_sim_s / n;
        }
      }
    }
    accrued_sim_s_ = sim_s;
  }
  accrued_to_s_ = t_s;
}

// The tap window has closed on a held button: from now on it owes speed × its held time since
// the press, never less than the jog step it owed in the window.
void ButtonMotion::Establish(int button) {
  Key& k = keys_[button];
  const int group = buttons_[button].group;
  const double held_sim_s =
      anchored_ ? std::max(0.0, accrued_sim_s_ - std::min(accrued_sim_s_, SimTimeAt(k.press_s)))
                : 0.0;
  const double n = std::max(1.0, NormOfDownSum(group, false));
  k.amount = std::max(k.jog, Speed(group) * held_sim_s / n);
  k.established = true;
  k.established_in = hand_over_;
}

void ButtonMotion::AdvanceTo(double t_s) {
  for (;;) {
    int next = -1;
    double closes_s = t_s;
    for (int i = 0; i < num_buttons_; ++i) {
      const Key& k = keys_[i];
      if (k.down && !k.established && k.press_s + params_.tap_max_s <= closes_s) {
        next = i;
        closes_s = k.press_s + params_.tap_max_s;
      }
    }
    if (next < 0) break;
    Accrue(closes_s);
    Establish(next);
  }
  Accrue(t_s);
}

void ButtonMotion::Press(int button, double t_s, int64_t poll) {
  if (button < 0 || button >= num_buttons_) return;
  t_s = std::max(t_s, accrued_to_s_);
  AdvanceTo(t_s);
  Key& k = keys_[button];
  if (k.down) return;
  const double step = buttons_[button].group == kLinear ? params_.jog_step_m : params_.jog_step_rad;
  k = Key{};
  k.down = true;
  k.press_s = t_s;
  k.press_poll = poll;
  k.jog = step * jog_factor_;
  k.amount = k.jog;
}

void ButtonMotion::Release(int button, double t_s, int64_t poll) {
  if (button < 0 || button >= num_buttons_) return;
  t_s = std::max(t_s, accrued_to_s_);
  AdvanceTo(t_s);
  Key& k = keys_[button];
  if (!k.down) return;
  double amount = k.amount;
  // Stamps of consecutive polls are a poll apart however short the press was: a release in the
  // poll after the press's is a tap. Only while no poll of the simulation has seen the hold.
  if (k.established && poll >= 0 && k.press_poll >= 0 && poll == k.press_poll + 1 &&
      t_s - k.press_s <= kNextPollTapMax_s && k.established_in == hand_over_) {
    amount = k.jog;
  }
  done_[buttons_[button].group] += amount * buttons_[button].direction;
  k = Key{};
}

void ButtonMotion::ReleaseAll(double t_s, int64_t poll) {
  for (int i = 0; i < num_buttons_; ++i) Release(i, t_s, poll);
}

void ButtonMotion::SetSpeed(double linear_m_per_s, double angular_rad_per_s, double jog_factor,
                            double t_s) {
  AdvanceTo(std::max(t_s, accrued_to_s_));
  speed_ = {linear_m_per_s, angular_rad_per_s};
  jog_factor_ = jog_factor;
}

Eigen::Vector3d ButtonMotion::budget(int group) const {
  Eigen::Vector3d b = done_[group];
  for (int i = 0; i < num_buttons_; ++i) {
    if (keys_[i].down && buttons_[i].group == group) b += keys_[i].amount * buttons_[i].direction;
  }
  return b;
}

void ButtonMotion::RecordPoll(double t_sim_s, double now_s) {
  if (history_size_ == 0 ||
      now_s - history_event_s_[(history_begin_ + history_size_ - 1) % kHistory] >=
          kHistorySpacing_s) {
    if (history_size_ == kHistory) {
      history_begin_ = (history_begin_ + 1) % kHistory;
      --history_size_;
    }
    const int i = (history_begin_ + history_size_) % kHistory;
    history_event_s_[i] = now_s;
    history_sim_s_[i] = t_sim_s;
    ++history_size_;
  }
  last_poll_event_s_ = now_s;
  last_poll_sim_s_ = t_sim_s;
  polled_ = true;
}

// Released and executed sums back to zero once a group is at rest: bounded numbers however long
// the session.
void ButtonMotion::Rebase() {
  for (int group : {kLinear, kAngular}) {
    bool any_down = false;
    for (int i = 0; i < num_buttons_; ++i) {
      any_down = any_down || (keys_[i].down && buttons_[i].group == group);
    }
    if (!any_down && output_[group].isZero(0.0)) {
      done_[group].setZero();
      executed_[group].setZero();
    }
  }
}

void ButtonMotion::Poll(double t_sim_s, double now_s, Eigen::Vector3d* linear,
                        Eigen::Vector3d* angular, double coming_step_s) {
  if (polled_ && t_sim_s < last_poll_sim_s_) Restart();
  if (!polled_) {  // the first poll anchors the simulated time; nothing was commanded before
    RecordPoll(t_sim_s, now_s);
    accrued_sim_s_ = t_sim_s;
    anchored_ = true;
    for (Eigen::Vector3d& o : output_) o.setZero();
    linear->setZero();
    angular->setZero();
    return;
  }
  // The controller applied the last output over the step just taken (the time since that poll).
  const double step_s = t_sim_s - last_poll_sim_s_;
  if (step_s > 0) last_step_s_ = step_s;
  for (int group : {kLinear, kAngular}) executed_[group] += output_[group] * last_step_s_;
  RecordPoll(t_sim_s, now_s);
  const bool other_size =
      coming_step_s > 0 && std::abs(coming_step_s - last_step_s_) > 1e-9 * coming_step_s;
  const double coming_s = other_size ? coming_step_s : last_step_s_;
  for (int group : {kLinear, kAngular}) {
    const Eigen::Vector3d gap = budget(group) - executed_[group];
    const double rate = std::min(kCatchUpFactor * Speed(group), limit_[group]);
    Eigen::Vector3d& out = output_[group];
    if (gap.norm() <= kClosedGap || !(last_step_s_ > 0)) {
      executed_[group] += gap.norm() <= kClosedGap ? gap : Eigen::Vector3d::Zero();
      out.setZero();
      continue;
    }
    out = gap / coming_s;
    if (out.norm() > rate) out *= rate / out.norm();
  }
  Rebase();
  *linear = output_[kLinear];
  *angular = output_[kAngular];
}

void ButtonMotion::Restart() {
  for (Key& k : keys_) {
    if (k.down) k.amount = k.established ? 0.0 : k.jog;
  }
  for (int group : {kLinear, kAngular}) {
    done_[group].setZero();
    executed_[group].setZero();
    output_[group].setZero();
  }
  history_begin_ = history_size_ = 0;
  polled_ = anchored_ = false;
  last_poll_event_s_ = last_poll_sim_s_ = last_step_s_ = 0;
}

}  // namespace contactlab
