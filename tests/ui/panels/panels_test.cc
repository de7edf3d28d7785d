// The panels of panels.h without a window: what they take from the snapshot each frame.
#include "ui/panels/panels.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

TEST(Panels, ThePlotsFollowTheTimelinesStepAndReturnToTheHead) {
  Snapshot snapshot;
  snapshot.time_s = 0.75;
  PlotTimeWindow window;
  FollowTimeline(snapshot, &window);
  EXPECT_FALSE(window.cursor_s.has_value()) << "live";
  snapshot.timeline.viewing = true;  // scrubbed back to the step at 0.75 s
  FollowTimeline(snapshot, &window);
  ASSERT_TRUE(window.cursor_s.has_value());
  EXPECT_EQ(*window.cursor_s, 0.75);
  snapshot.timeline.viewing = false;  // Play, Step or Branch: the head again
  snapshot.time_s = 2.0;
  FollowTimeline(snapshot, &window);
  EXPECT_FALSE(window.cursor_s.has_value());
}

}  // namespace
}  // namespace contactlab
