// The toasts: small transient messages over the window that confirm a save ("saved
// /…/contactlab_20261127_120400.png") or say why it failed, for a few seconds each. They age by
// the frame clock the application hands them (ui/state/frame_pacing.h), never by the wall clock
// itself, so that a stepped run shows them for a number of frames that does not depend on the
// machine's speed.
#pragma once

#include <cstddef>
#include <deque>
#include <string>

namespace contactlab {

enum class ToastKind { kInfo, kError };

struct Toast {
  std::string text;
  ToastKind kind = ToastKind::kInfo;
  double age_s = 0;  // frame-clock time since it was pushed
};

class ToastQueue {
 public:
  static constexpr double kInfoLifetime_s = 4.0;
  static constexpr double kErrorLifetime_s = 8.0;  // an error takes longer to read and act on
  static constexpr double kFade_s = 0.5;           // the last part of a lifetime fades out
  static constexpr size_t kMaxShown = 4;           // older ones give way

  // The frame clock's time at the start of a frame [s]: the toasts age by how far it advanced
  // since the last tick, and those past their lifetime go. A clock that goes back (the
  // application changing frame clocks) ages none.
  void Tick(double now_s);
  // A new toast of age 0, shown below the older ones; the oldest goes beyond kMaxShown.
  void Push(std::string text, ToastKind kind = ToastKind::kInfo);

  const std::deque<Toast>& toasts() const { return toasts_; }
  static double Lifetime(ToastKind kind) {
    return kind == ToastKind::kError ? kErrorLifetime_s : kInfoLifetime_s;
  }
  // 1 while young, falling linearly to 0 over the last kFade_s of its lifetime.
  static float Opacity(const Toast& toast);

 private:
  std::deque<Toast> toasts_;
  double last_tick_s_ = 0;
  bool ticked_ = false;
};

}  // namespace contactlab
