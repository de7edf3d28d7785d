#include "ui/view/click_timing.h"

namespace contactlab {

bool ClickTiming::SecondPress(const Press& first, const Press& second) {
  if ((second.p - first.p).norm() > kDoubleClickSlop_px) return false;
  const double apart_s = second.t_s - first.t_s;
  const bool exact = first.exact && second.exact;
  return apart_s <= kDoubleClick_s ||
         (!exact && second.poll == first.poll + 1 && apart_s <= kNextPollDoubleClick_s);
}

// The pending click can no longer be a double-click's first: a single click. A third click in
// one frame (the second not reported yet) is dropped.
void ClickTiming::Settle(Clicks* clicks) {
  if (!pending_) return;
  if (!pending_->reported) {
    if (clicks->click) {
      pending_.reset();
      return;
    }
    clicks->click = pending_->press.p;
  }
  clicks->confirmed = true;
  pending_.reset();
}

void ClickTiming::OnPress(const MouseButtonEvent& e, Clicks* clicks) {
  const Press p{Eigen::Vector2f(e.x, e.y), e.t_s, e.poll, e.exact};
  held_ = p;
  held_with_ctrl_ = e.ctrl;
  held_is_second_ = false;
  if (e.ctrl) {  // the mouse spring's press: neither a click nor half a double-click
    first_.reset();
    return;
  }
  if (first_ && SecondPress(*first_, p)) {
    clicks->double_click = p.p;
    held_is_second_ = true;
    first_.reset();
    if (pending_) {
      clicks->cancelled = pending_->reported;  // never reported: nothing was prepared
      pending_.reset();
    }
    return;
  }
  Settle(clicks);
  first_ = p;
}

void ClickTiming::OnRelease(const MouseButtonEvent& e) {
  if (!held_) return;
  const Press press = *held_;
  held_.reset();
  if (held_is_second_ || held_with_ctrl_) return;
  if ((Eigen::Vector2f(e.x, e.y) - press.p).norm() > kClickSlop_px) {  // a drag (the camera)
    first_.reset();
    return;
  }
  pending_ = Pending{press, false};
}

Clicks ClickTiming::Update(std::span<const MouseButtonEvent> events, int64_t poll, double poll_s) {
  Clicks clicks;
  for (const MouseButtonEvent& e : events) {
    if (e.button != 0) continue;
    if (e.down) {
      OnPress(e, &clicks);
    } else {
      OnRelease(e);
    }
  }
  if (pending_ && !pending_->reported && !clicks.click) {
    clicks.click = pending_->press.p;
    pending_->reported = true;
  }
  // Later presses come in later polls, stamped after this one began: none can be a second.
  if (pending_ && pending_->reported && poll > pending_->press.poll &&
      poll_s - pending_->press.t_s >= kDoubleClick_s) {
    clicks.confirmed = true;
    pending_.reset();
    first_.reset();
  }
  return clicks;
}

}  // namespace contactlab
