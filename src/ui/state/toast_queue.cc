#include "ui/state/toast_queue.h"

#include <algorithm>
#include <utility>

namespace contactlab {

void ToastQueue::Tick(double now_s) {
  const double advance_s = ticked_ ? std::max(0.0, now_s - last_tick_s_) : 0.0;
  last_tick_s_ = now_s;
  ticked_ = true;
  for (Toast& toast : toasts_) toast.age_s += advance_s;
  std::erase_if(toasts_, [](const Toast& t) { return t.age_s >= Lifetime(t.kind); });
}

void ToastQueue::Push(std::string text, ToastKind kind) {
  toasts_.push_back(Toast{std::move(text), kind, 0.0});
  while (toasts_.size() > kMaxShown) toasts_.pop_front();
}

float ToastQueue::Opacity(const Toast& toast) {
  const double left_s = Lifetime(toast.kind) - toast.age_s;
  return static_cast<float>(std::clamp(left_s / kFade_s, 0.0, 1.0));
}

}  // namespace contactlab
