// The toasts' lifetimes on a clock the test drives (no wall time): shown from their push for
// their lifetime of frame-clock time, fading over its end, errors longer, at most a few at once,
// and a clock that goes back ages none.
#include "ui/state/toast_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace contactlab {
namespace {

std::vector<std::string> Texts(const ToastQueue& q) {
  std::vector<std::string> texts;
  for (const Toast& t : q.toasts()) texts.push_back(t.text);
  return texts;
}

TEST(ToastQueue, AToastLastsItsLifetimeOfFrameClockTime) {
  ToastQueue q;
  q.Tick(100.0);
  q.Push("saved a.png");
  q.Tick(101.0);
  q.Push("could not write b.csv", ToastKind::kError);
  EXPECT_EQ(Texts(q), (std::vector<std::string>{"saved a.png", "could not write b.csv"}));
  q.Tick(100.0 + ToastQueue::kInfoLifetime_s - 0.25);  // 0.25 s left of a 0.5 s fade
  ASSERT_EQ(q.toasts().size(), 2u);
  EXPECT_FLOAT_EQ(ToastQueue::Opacity(q.toasts()[0]), 0.5f);
  EXPECT_FLOAT_EQ(ToastQueue::Opacity(q.toasts()[1]), 1.0f);
  q.Tick(100.0 + ToastQueue::kInfoLifetime_s);
  EXPECT_EQ(Texts(q), std::vector<std::string>{"could not write b.csv"});
  q.Tick(101.0 + ToastQueue::kErrorLifetime_s - 0.25);
  EXPECT_EQ(q.toasts().size(), 1u);
  q.Tick(101.0 + ToastQueue::kErrorLifetime_s);
  EXPECT_TRUE(q.toasts().empty());
}

TEST(ToastQueue, TheOldestGiveWayAndAClockThatGoesBackAgesNone) {
  ToastQueue q;
  q.Tick(5.0);
  for (int i = 0; i < 6; ++i) q.Push("saved " + std::to_string(i));
  ASSERT_EQ(q.toasts().size(), ToastQueue::kMaxShown);
  EXPECT_EQ(q.toasts().front().text, "saved 2");
  EXPECT_EQ(q.toasts().back().text, "saved 5");
  q.Tick(2.0);  // another frame clock, behind this one
  q.Tick(2.0 + ToastQueue::kInfoLifetime_s - 0.25);
  EXPECT_EQ(q.toasts().size(), ToastQueue::kMaxShown);
  q.Tick(2.0 + ToastQueue::kInfoLifetime_s);
  EXPECT_TRUE(q.toasts().empty());
}

}  // namespace
}  // namespace contactlab
